import { toAsciiDigits } from "../../src/text/normalize.js";

/**
 * Personal values for the redaction tests, each valid by its checksum (test/text/pii.test.ts),
 * and a scanner that finds them in any bytes however they were written: any digit system, any
 * separators between digits, any case.
 */
export const VALUES = {
  nationalId: "0012345679",
  nationalId2: "0851234569",
  mobile: "09121234567",
  mobile2: "09351112233",
  card: "6037991199999990",
  card2: "5892101234567895",
  iban: "IR062960000000100324200001",
  iban2: "IR110170000000123456789001",
  email: "sara.ahmadi@mail.example",
  email2: "reza.k@post.example",
} as const;

export const fa = (ascii: string) => ascii.replace(/\d/gu, (d) => String.fromCharCode(0x06f0 + Number(d)));
export const arabicIndic = (ascii: string) => ascii.replace(/\d/gu, (d) => String.fromCharCode(0x0660 + Number(d)));

/**
 * A conversation full of personal values, Persian and English, both digit systems, several
 * spellings: three questions the bundled corpus answers (the second also tells memory a durable
 * fact, the third is answered with the insurer's own e-mail address), then a request for a
 * person, which hands off.
 */
export const CONVERSATION = [
  `کد ملی همسرم ${fa("085-123456-9")} و شماره‌اش \u200E${fa("+98 935 111 2233")} است. ساعات کاری مرکز تماس چیست؟`,
  `I drive a Peugeot 206; my national code is ${VALUES.nationalId} and my mobile 0912 123 4567. What is the minimum deductible for motor body insurance?`,
  `Which e-mail address do I use for support? My card is 6037 9911 9999 9990, Sheba IR06 2960 0000 0010 0324 2000 01, e-mail ${VALUES.email}, other card ${arabicIndic(VALUES.card2)}`,
  `لطفاً با یک کارشناس صحبت کنم؛ شبا IR${fa(VALUES.iban2.slice(2))}، کارت ${fa("5892-1012-3456-7895")}، ایمیل ${VALUES.email2}، موبایل ${fa(VALUES.mobile)}`,
] as const;

/** The insurer's own address, which the third answer quotes from its documents: kept in stored answers. */
export const INSURER_EMAIL = "support@arman-insurance.example";

/** What each value is searched as: its digits (a mobile without its 0, covering 0…, +98… and 0098…), an e-mail lower-cased. */
const NEEDLES: Record<string, string> = Object.fromEntries(
  Object.entries(VALUES).map(([name, value]) => {
    if (value.includes("@")) return [name, value.toLowerCase()];
    if (name.startsWith("mobile")) return [name, value.slice(1)];
    if (name.startsWith("iban")) return [name, value.slice(2)];
    return [name, value];
  }),
);

/** Text with digits in ASCII and the separators between digits removed, lower-cased. */
export function flatten(text: string): string {
  return toAsciiDigits(text)
    .replace(/(?<=\d)[\s\-\u2010\u2011\u2013\u2014\u2212\u200C\u200E\u200F().+]+(?=\d)/gu, "")
    .toLowerCase();
}

/** The names of VALUES found in `data` (text, or bytes read as UTF-8), in any spelling. */
export function leakedValues(data: string | Buffer): string[] {
  const flat = flatten(typeof data === "string" ? data : data.toString("utf8"));
  return Object.entries(NEEDLES)
    .filter(([, needle]) => flat.includes(needle))
    .map(([name]) => name);
}

/** The masks, as the human agent and GetThread see them. */
export const MASKS = ["[national-id]", "[mobile ••••4567]", "[card]", "[iban]", "[email]"] as const;
