/**
 * How documents and messages name money, for any insurer: ISO codes, symbols and the words of
 * both languages ("CAD 1,000", "$500", «۲٬۰۰۰ دلار», "AED 95", «۵۰۰ هزار تومان»). One list, so that
 * an amount is an amount wherever the reader, the question analysis and the contextualizer look.
 *
 * Left out on purpose: codes that are English words ("TRY", "ALL", "TOP", "CUP"), "pound(s)" (a
 * pet's or a parcel's weight as often as money; "£" and "GBP" stay) and «ین» (a common ending).
 */
const CODES = "aed usd eur gbp cad aud nzd chf sek nok dkk jpy cny rmb inr pkr irr sar qar kwd omr bhd egp zar sgd hkd myr ngn kes brl mxn";
const WORDS =
  "dollar dollars euro euros dirham dirhams dh dhs rial rials riyal riyals toman tomans dinar dinars rupee rupees franc francs yen yuan peso pesos lira liras دلار یورو پوند درهم ریال تومان تومن دینار روپیه یوان فرانک لیر لیره";

/** The currency codes and words as plain words, for term sets (a unit, not content: every row of a price column says "CAD"). */
export const CURRENCY_WORDS = `${CODES} ${WORDS}`;

/** A currency named by letters (code or word), as a regular-expression alternation; match it between non-letters. */
export const CURRENCY_NAME = `(?:${CURRENCY_WORDS.split(" ")
  .sort((a, b) => b.length - a.length)
  .join("|")})`;

/** A currency symbol, as a regular-expression alternation. */
export const CURRENCY_SYMBOL = "[$€£¥₹₺₽﷼]";

/** Any currency, by letters (a whole word) or by symbol: before or after a figure. */
export const CURRENCY = `(?:(?<![\\p{L}])${CURRENCY_NAME}(?![\\p{L}])|${CURRENCY_SYMBOL})`;
