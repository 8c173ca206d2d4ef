import type { Language } from "../../text/language.js";
import { analyzeTerms, rarityWeights, suffixVariants, termBag, type TermBag } from "./terms.js";

/**
 * The offline model's vocabulary, in both languages. Words are written naturally and analysed
 * once at load, so they match whatever the analyzer does to user text and chunks (stemming,
 * normalisation); if the analyzers improve, these lists follow automatically.
 */

export const DOMAINS = ["health", "motor", "travel", "life", "home", "device"] as const;
export type Domain = (typeof DOMAINS)[number];

/**
 * Words that name a product or its domain: the "topic" of a question. Perils (fire, flood,
 * earthquake) and benefits (dental, hospital) are aspects, not topics: "what about flood?" after a
 * home-insurance question keeps the home topic. Persian «آتش‌سوزی» names the home product.
 */
const TOPIC_WORDS: Record<Domain, string> = {
  health: `health medical supplementary healthcare درمان درمانی تکمیلی سلامت`,
  motor: `motor car cars vehicle vehicles auto automobile third-party liability body comprehensive motorcycle motorbike
    خودرو خودروی ماشین اتومبیل ثالث بدنه موتورسیکلت`,
  travel: `travel traveller traveler trip schengen visa abroad overseas سفر مسافرتی مسافرت شینگن شنگن ویزا`,
  life: `life عمر`,
  home: `home house household homeowner building buildings property منزل خانه ساختمان مسکونی آتش‌سوزی`,
  device: `device devices phone phones mobile smartphone laptop laptops tablet gadget electronics موبایل گوشی لپ‌تاپ تبلت`,
};

function analyzedSet(text: string): Set<string> {
  return new Set(analyzeTerms(text));
}

const TOPIC_TERM_DOMAIN = new Map<string, Domain>();
for (const domain of DOMAINS) {
  for (const term of analyzeTerms(TOPIC_WORDS[domain])) TOPIC_TERM_DOMAIN.set(term, domain);
}
// "party" alone is not a topic ("third" carries third-party); Persian «شخص» likewise.
for (const term of analyzeTerms("party")) TOPIC_TERM_DOMAIN.delete(term);

/** The domain a single analysed term names, if it is a topic word («خودروی» → motor). */
export function topicDomain(term: string): Domain | undefined {
  const direct = TOPIC_TERM_DOMAIN.get(term);
  if (direct !== undefined) return direct;
  for (const variant of suffixVariants(term)) {
    const domain = TOPIC_TERM_DOMAIN.get(variant);
    if (domain !== undefined) return domain;
  }
  return undefined;
}

// Words that only complete a product name ("party" in third-party, «شخص» in «شخص ثالث»): part of
// the topic, but they name no product by themselves.
const TOPIC_COMPANIONS: ReadonlySet<string> = new Set(analyzeTerms("party شخص"));

export function isTopicCompanion(term: string): boolean {
  return TOPIC_COMPANIONS.has(term);
}

/** True for words about which product is meant (a topic word or a companion), not what is asked. */
export function isProductWord(term: string): boolean {
  return topicDomain(term) !== undefined || TOPIC_COMPANIONS.has(term);
}

/** Domains named by any of the terms. */
export function domainsOf(terms: readonly string[]): Set<Domain> {
  const out = new Set<Domain>();
  for (const term of terms) {
    const domain = topicDomain(term);
    if (domain !== undefined) out.add(domain);
  }
  return out;
}

/** Generic carriers of the topic: kept in merged queries, but they do not name a product. */
export const GENERIC_TERMS: ReadonlySet<string> = analyzedSet(`insurance insured insure policy policies cover coverage covered plan بیمه بیمه‌نامه نامه پوشش`);

/**
 * In-scope vocabulary: a message with content but none of these is out of scope. "Strong" terms
 * are unmistakably about insurance; "weak" ones (price, hours, documents) count only when no
 * off-topic cue is present.
 */
export const STRONG_IN_SCOPE: TermBag = termBag([
  ...analyzeTerms(Object.values(TOPIC_WORDS).join(" ")),
  ...analyzeTerms(`insurance insure insured insurer insurers policy policies policyholder premium premiums cover coverage covered
    claim claims deductible excess franchise accident accidents crash collision theft stolen hospital hospitalisation
    hospitalization dental dentist surgery beneficiary beneficiaries fire earthquake flood storm instalment instalments
    installment installments refund reimbursement renewal renew cancellation underwriting underwriter exclusion exclusions
    compensation damage damages injury injuries liability rider payout indemnity broker waiting pre-existing maternity
    بیمه بیمه‌نامه بیمه‌گر بیمه‌گذار بیمه‌شده پوشش خسارت فرانشیز تصادف سرقت بیمارستان بستری جراحی دندان دندانپزشکی
    ذینفع زلزله سیل طوفان قسط اقساط استرداد بازپرداخت تمدید غرامت تعهد الحاقیه زایمان صدور`),
]);

export const WEAK_IN_SCOPE: TermBag = termBag(
  analyzeTerms(`price prices cost costs fee fees tariff quote limit limits maximum minimum documents document payment payments pay
    branch branches office hours contact call centre center support email address agent agency representative
    doctor medicine pharmacy spouse wife husband children child kids parents family member members buy purchase
    قیمت هزینه نرخ تعرفه سقف حداکثر حداقل مدارک مدرک پرداخت شعبه شعب دفتر ساعت تماس پشتیبانی نمایندگی نماینده
    پزشک دارو داروخانه همسر فرزند فرزندان بچه والدین خرید استعلام قرارداد`),
);

/** Clear signs that a message is about something else entirely. */
export const OFF_TOPIC: TermBag = termBag(
  analyzeTerms(`weather forecast football soccer basketball tennis match recipe recipes cook cooking bake baking pasta pizza movie
    movies film song songs music lyrics python javascript typescript programming programmer compile politics political
    election elections president parliament joke jokes poem poetry bitcoin crypto cryptocurrency horoscope celebrity
    هوا آب‌وهوا فوتبال والیبال بسکتبال فیلم سریال آهنگ موسیقی آشپزی غذا پخت پایتون برنامه‌نویسی سیاست انتخابات
    رئیس‌جمهور جوک لطیفه شعر بیت‌کوین فال`),
);

/** Canonical family terms per language: what follow-up queries and memory use. */
export type FamilyRole = "spouse" | "children" | "parents";

export const FAMILY_CANONICAL: Record<FamilyRole, Record<Language, string>> = {
  spouse: { en: "spouse", fa: "همسر" },
  children: { en: "children", fa: "فرزندان" },
  parents: { en: "parents", fa: "والدین" },
};

/**
 * Family phrases on folded text (lower case, ZWNJ as space), longest first so «پدر و مادرم» wins
 * over «مادرم». Each maps to a canonical role.
 */
export const FAMILY_PHRASES: ReadonlyArray<readonly [RegExp, FamilyRole]> = [
  [/(?<![\p{L}\p{N}])(?:mum and dad|mom and dad|mother and father|father and mother|parents|parent)(?![\p{L}\p{N}])/gu, "parents"],
  [/(?<![\p{L}\p{N}])(?:mum|mom|mother|dad|father)(?![\p{L}\p{N}])/gu, "parents"],
  [/(?<![\p{L}\p{N}])(?:wife|husband|spouse|partner|wives|husbands|spouses)(?![\p{L}\p{N}])/gu, "spouse"],
  [/(?<![\p{L}\p{N}])(?:kids|kid|children|child|sons|son|daughters|daughter|babies|baby)(?![\p{L}\p{N}])/gu, "children"],
  [/(?<![\p{L}\p{N}])(?:پدر و مادر(?:م|مان|ش)?|والدین(?:م|مان|ش)?|پدرم|مادرم)(?![\p{L}\p{N}])/gu, "parents"],
  [/(?<![\p{L}\p{N}])(?:همسر(?:م|ش|مان|تان)?|خانمم|شوهرم)(?![\p{L}\p{N}])/gu, "spouse"],
  [/(?<![\p{L}\p{N}])(?:بچه ?(?:های|ها)(?: ?(?:م|ام|ش|اش|مان))?|بچه ?(?:ام|م)|بچه|فرزندان(?:م|مان|ش)?|فرزند(?:ان|م|ش)?|پسرم|دخترم)(?![\p{L}\p{N}])/gu, "children"],
];

/** Words that only glue an elliptical follow-up together ("what about…", «…چطور؟»). */
export const FOLLOW_UP_FILLERS: ReadonlySet<string> = new Set([
  ...analyzeTerms(`else instead also then too same one ones case well okay ok so much many mean meant she he shes hes theyre im ive youre`),
  ...`چطور چطوره چی چیه چه همین همان اون این آن یکی خب حالا پس مورد درباره راجع ام ات اش مان تان شان ها های رو را هم منظور منظورم`.split(/\s+/u),
]);

/** English pronouns that point back at the previous topic (the analyzer drops them as stopwords). */
export const EN_ANAPHORA = /(?<![\p{L}])(?:it|its|it's|that|this|those|these|them|they|mine|one)(?![\p{L}])/u;
/** Persian demonstratives and a detached third-person suffix («هزینه‌اش» folds to «هزینه اش»). */
export const FA_ANAPHORA = /(?<![\p{L}])(?:این|آن|اون|همین|همان|اش)(?![\p{L}])/u;

/** Openings of an elliptical follow-up. */
export const ELLIPSIS_START =
  /^(?:what about|how about|and|also|same for|what if|after that|then|for (?:my|the|a|an)|و|برای|در مورد|درباره|راجع به|بعدش|بعد از اون|بعد از آن|اونوقت)(?![\p{L}])/u;
// "what would plus be then?": a question that ends on "then" builds on the previous answer.
export const ELLIPSIS_END = /(?:چطور|چطوره|چی|چه|هم|چه طور|(?<![\p{L}])then)\s*\??$/u;

/**
 * Persian nouns a follow-up may carry with a pronoun suffix («قیمتش» → «قیمت»): a suffix is
 * stripped from a word only when what remains is one of these, because many Persian words end in
 * the same letters («پوشش», «خسارت»).
 */
export const FA_KNOWN_NOUNS: ReadonlySet<string> = new Set(
  `قیمت هزینه سقف فرانشیز شرایط مدارک مدرک پوشش خسارت تعهد مبلغ مدت اعتبار تمدید قسط اقساط حق ماشین خودرو خانه منزل
  گوشی موبایل لپ‌تاپ همسر فرزند بیمه بیمه‌نامه نرخ تخفیف دوره انتظار استثنا استثنائات محدودیت سن جریمه ضمانت`.split(/\s+/u),
);

/** Questions answered by a number (amount, limit, duration, opening hours): numbers get a small bonus. */
export const AMOUNT_QUESTION =
  /(?<![\p{L}])(?:how much|how many|how long|hours|opening|what time|when|ساعت|ساعات|چه ساعتی|چه زمانی|price|prices|cost|costs|premium|premiums|limit|limits|maximum|minimum|deductible|excess|amount|fee|fees|rate|rates|percent|percentage|ceiling|cap|چقدر|چه قدر|چند|مبلغ|قیمت|هزینه|سقف|حداکثر|حداقل|فرانشیز|درصد|نرخ|مدت|حق بیمه)(?![\p{L}])|%/u;

/** Generic words ("insurance", "cover") count half in coverage: every passage of the corpus has them. */
const GENERIC_WEIGHT = 0.5;

/** Coverage weights for a question against the given evidence: rarity, with generic words halved. */
export function evidenceWeights(queryTerms: readonly string[], bags: readonly TermBag[]): Map<string, number> {
  const weights = rarityWeights(queryTerms, bags);
  for (const [term, weight] of weights) if (GENERIC_TERMS.has(term)) weights.set(term, weight * GENERIC_WEIGHT);
  return weights;
}

/**
 * Specific question terms no piece of evidence contains ("skiing" against travel documents that
 * never mention it): the strongest sign the evidence does not answer the question.
 */
export function missingEverywhere(queryTerms: readonly string[], bags: readonly TermBag[]): string[] {
  return queryTerms.filter((t) => !GENERIC_TERMS.has(t) && !bags.some((bag) => bag.has(t)));
}

/**
 * Words of asking, not of the thing asked about (and Persian light verbs, which the answer may
 * phrase differently: «پوشش می‌دهد» / «تحت پوشش است»): left out of question terms.
 */
export const QUESTION_NOISE: ReadonlySet<string> = new Set(
  analyzeTerms(
    `much many possible able explain information info detail details question ask help kind sort exactly really thing things
    بدانم اطلاعات توضیح سوال بپرسم کمک دقیقا چیست چیه کجاست کدامند چندتا مگه چیز چیزهایی چیزی
    دهد دهند میدهد بدهد گیرد گیرند میگیرد کنم کنید بکنم شوم شوند بشود بگیرم`,
  ),
);
