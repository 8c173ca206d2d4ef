import { analyze } from "./analysis/index.js";

/**
 * The words that name each attribute, in both languages, analysed: a question asking "how much
 * does it cost?" is about a price, and a table whose header says "Premium" states one. A
 * question's attribute word counts as covered by any passage about that attribute.
 */
export const ATTRIBUTE_WORDS = {
  price:
    "price prices cost costs premium premiums rate rates fee fees quote tariff pay monthly yearly annual annually قیمت هزینه حق حق‌بیمه نرخ تعرفه ماهانه سالانه ماهیانه سالیانه ماهی سالی",
  limit: "limit limits maximum max ceiling cap sum insured pays سقف حداکثر تعهد تعهدات مبلغ",
  deductible: "deductible deductibles excess excesses franchise copay copayment فرانشیز سهم",
  waiting: "waiting wait period انتظار",
  deadline: "deadline within days notify report submit time limit مهلت ظرف روز اعلام گزارش",
  age: "age ages old older oldest younger youngest years eligible eligibility سن سال ساله مسن",
  covered: "cover covers covered coverage include includes included pay pays پوشش شامل",
  excluded: "exclude excluded exclusion exclusions not covered استثنا استثنائات",
  how: "how step steps procedure process مراحل روال",
  contact: "phone number call email address contact branch whatsapp line تلفن شماره تماس ایمیل آدرس نشانی شعبه",
  hours: "hours open opening close time ساعت ساعات باز کاری",
  definition: "mean means meaning definition define یعنی تعریف معنی",
  discount: "discount discounts reduction bonus saving savings cheaper cheapest تخفیف ارزان‌تر ارزانتر",
  documents: "document documents paperwork papers مدارک مدرک",
  refund: "refund refunds refundable reimburse reimbursement استرداد بازپرداخت",
  duration: "duration days months period long مدت روز ماه",
} as const;

/**
 * A compound («حق‌بیمه», premium) names the attribute as a whole, never by a part that is a word
 * of every passage («بیمه», insurance); the part that only the compound uses («حق») is listed alone.
 */
export function attributeWordTerms(word: string): string[] {
  const terms = analyze(word);
  if (terms.length <= 1) return terms;
  const parts = new Set(word.split(/[\s\u200C]+/u).flatMap((p) => analyze(p)));
  return terms.filter((t) => !parts.has(t));
}

/** Every term of every attribute: what a question asks or a title says a page is about ("Prices"), never a name. */
export const ATTRIBUTE_TERMS: ReadonlySet<string> = new Set(Object.values(ATTRIBUTE_WORDS).flatMap((words) => words.split(/\s+/u).flatMap(attributeWordTerms)));

/**
 * Words of any insurer's page titles that say what a page is, not which product it is about
 * ("Price Guide", "Questions and Answers", «جدول تعهدات», "– Plans and Benefits").
 */
export const PAGE_WORDS: ReadonlySet<string> = new Set(
  analyze(`plan plans tier tiers option options package packages policy policies guide overview summary faq faqs frequently asked questions answers
    schedule table benefits rules terms conditions details information brochure wording booklet
    طرح طرح‌ها پلن بسته بیمه‌نامه راهنما خلاصه سوالات متداول پرسش پرسش‌های پرسش‌ها پاسخ پاسخ‌ها جدول مزایا شرایط ضوابط اطلاعات`),
);
