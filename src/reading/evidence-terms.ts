import type { Taxonomy } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import { foldForMatch, toAsciiDigits } from "../text/normalize.js";
import { CURRENCY_WORDS } from "../text/currency.js";
import { WHOLE_SUM } from "./question.js";
import { withoutGreeting } from "../text/sentences.js";

/**
 * Terms as the reader weighs them: by how rare they are in the tenant's own documents (its
 * taxonomy's document frequencies), so "insurance" counts little and a plan name a lot, in any
 * corpus. Words of asking ("what", «چقدره», "please", spoken «میتونم», «بعدش») weigh nothing: they are how a question is
 * put, not what it is about. Spoken Persian forms are listed here rather than as the analyser's
 * stopwords: those also feed the gate classifier's features, which were trained with them.
 */
const ASKING = new Set(
  analyze(`what which how when where who why whats hows much many tell say know want need can could would should will may
    is are does do did was were be been please pls plz thanks hi hello hey dear sir madam guys guy you yours
    get gets got getting go goes going come comes coming came want wants wanted let say said tell mean means
    think thought sure ok okay yeah yes no also still already just even really actually exactly maybe pls thx u ur im ive
    anything something thing things whatever whichever way like about around approximately roughly per typical typically usually normally usual
    offer offers offered offering
    اگه اگر اگرچه هم هنوز الان دیگه خب پس حالا واقعا مثلا یعنی فقط حتی شاید تو توی از به با برای رو را و یا ولی اما که
    میخواد میخوام میاد بیاد میره بره میگه بگه گفت گفتن شده میشه بشه میشن کنه میکنه میکنم بکنم داشته باشه باشه بود بودن
    چه چی چیه چیست چیزی چطور چطوری چگونه کدام کدوم کی کجا چرا چقدر چقدره چقد چند چنده چندمه آیا ایا لطفا لطفاً ممنون سلام
    میشه می شود میشود بشه باشه هست است هستش بگید بگین بگو بفرمایید بدونم میخوام میخواستم می خواهم خواهشا
    دارم داره دارد دارید داریم کنم کنید میکنه میکند میده میدن میدین میدید بده بدن
    میتونم میتونی میتونه میتونیم میتونید میتونن نمیتونم بتونم بتونه
    بعد بعدش قبل قبلش هرچی هرچه همیشه همیشگی همیشگیه معمولا معمولاً منظور منظورتون منظورتان
    kick kicks`),
);

export function isAsking(term: string): boolean {
  return ASKING.has(term);
}

/**
 * Words that frame a stated quantity ("worth", "paid", "years old", «سالمه», "days", "AED"):
 * the quantity itself is matched against ranges, so its frame is not content to cover.
 */
const QUANTITY_FRAME = new Set(
  analyze(`worth valued value paid pay cost price bought old aged age yrs yr years year months month weeks week days day nights night
    k thousand million درهمی ${CURRENCY_WORDS}
    ساله سالمه سالشه سالش سال سن سنم ماه ماهه ماهشه هفته روز روزه شب هزار میلیون ارزش قیمت`),
);

/**
 * "how long does it take", «چند وقت», «طول میکشه»: the asking of a duration (the question's
 * attribute), not words to find; so is "which days" of opening hours («چه روزهایی»), which a
 * passage answers with weekdays.
 */
const TAKES =
  /(?<![\p{L}])(?:what|which)\s+days(?![\p{L}])|(?<![\p{L}])چه\s+روز(?:هایی|های|ی)?(?![\p{L}])|(?<![\p{L}])(?:does|do|did|will|would|should|could|can)\s+(?:it|this|that|they|you)\s+take(?![\p{L}])|(?<![\p{L}])it\s+takes(?![\p{L}])|(?<![\p{L}])how\s+long(?![\p{L}])|(?<![\p{L}])چند\s+وقت(?![\p{L}])|(?<![\p{L}])(?:چقدر\s+)?طول\s+(?:می\s?کشه|می\s?کشد|بکشه)(?![\p{L}])/giu;

/**
 * "I don't care", "doesn't matter", «فرقی نمیکنه», «برام مهم نیست»: indifference, not a word to
 * find ("care" would find "customer care"). Typographic apostrophes are folded before this runs.
 */
const INDIFFERENT =
  /(?<![\p{L}])(?:i\s+)?(?:don'?t|do\s+not|couldn'?t|could\s+not)\s+care(?:\s+(?:less|which|at\s+all))?(?![\p{L}])|(?<![\p{L}])(?:it\s+)?(?:doesn'?t|does\s+not)\s+matter(?![\p{L}])|(?<![\p{L}])(?:برام|برای\s+من|واسم)?\s*(?:فرقی|فرق)\s+(?:نمیکنه|نمی\s?کند|نمی\s?کنه|نداره|ندارد)(?![\p{L}])|(?<![\p{L}])(?:برام|برای\s+من|واسم)?\s*مهم\s+نیست(?![\p{L}])/giu;

/**
 * "if I ever", "by any chance", «اگه یه وقت», «احیانا»: the hedge of a supposed event, not a word
 * to find («وقت» is "time", which a passage about deadlines would cover).
 */
const HEDGE =
  /(?<![\p{L}])(?:ever|by\s+any\s+chance|happens?\s+to|happened\s+to)(?![\p{L}])|(?<=(?:^|[^\p{L}])(?:اگه|اگر|که)\s+)(?:یه|یک)\s+(?:وقت|موقع|روز)(?![\p{L}])|(?<![\p{L}])(?:احیانا|احیاناً|خدای\s+نکرده|خدایی\s+نکرده)(?![\p{L}])/giu;

/** "the whole amount", "in full", «کل مبلغ» (question.ts WHOLE_SUM): the asking of a limit, not words a passage must say. */
const WHOLE = new RegExp(`(?<![\\p{L}])(?:${WHOLE_SUM})(?:ش|شو)?(?![\\p{L}])`, "giu");

/** "per year", "a month", «در سال»: the period a price is asked for, not the frame of a stated quantity. */
const ASKED_PERIOD = /(?<![\p{L}])(?:per|a|an|each|every|در|هر)\s+(years?|months?|weeks?|days?|nights?|سال|ماه|هفته|روز|شب)(?![\p{L}])/giu;

/** A question's content terms: analysed, without words of asking and without bare numbers (quantities are matched apart). */
// "iPhone 15 Pro Max", "Galaxy S24 Ultra": the qualifiers after a model's number name the model,
// not what is asked (not after an amount: "AED 500 max" is a limit).
const NOT_A_MODEL = new Set([...CURRENCY_WORDS.toLowerCase().split(/\s+/u), "under", "over", "than", "upto", "from", "about", "around", "only", "just"]);
const MODEL_NAME = /(?<=([\p{L}]{3,})\s+[a-z]?\d{1,4}[a-z]?)((?:\s+(?:pro|max|ultra|mini|air|lite))+)(?![\p{L}])/giu;

export function questionTerms(text: string, hasQuantities = false): string[] {
  const periods = new Set([...text.matchAll(ASKED_PERIOD)].flatMap((m) => analyze(m[1]!)));
  const frame = (t: string) => hasQuantities && QUANTITY_FRAME.has(t) && !periods.has(t);
  return [
    ...new Set(
      analyze(
        text
          .replace(/[\u2018\u2019]/gu, "'")
          .replace(TAKES, " ")
          .replace(HEDGE, " ")
          .replace(WHOLE, " ")
          .replace(INDIFFERENT, " ")
          .replace(MODEL_NAME, (whole: string, before: string) => (NOT_A_MODEL.has(before.toLowerCase()) ? whole : " ")),
      ).filter((t) => !ASKING.has(t) && !/^\d/u.test(t) && !frame(t)),
    ),
  ];
}

/**
 * "If a fire makes our flat unliveable, how much…?", «اگر به دلیل آتش‌سوزی ملک قابل سکونت نباشد، آیا…»:
 * the opening clause that supposes a case, when a clause asking follows it, as content terms.
 */
// "When I travel, …" supposes; "When does cover start, …?" asks.
const SUPPOSES =
  /^\s*(?:if|in case|when(?!\s+(?:does|do|did|is|are|was|were|will|would|can|could|should|shall|may|might)(?![\p{L}]))|اگر|اگه|درصورتی که|در صورتی که|وقتی|هرگاه)\s+([^,،;:?؟]+)[,،;:]\s*\S/iu;

// "My phone got stolen from my checked-in suitcase, will Hamsafar pay?": what happened, told
// before the asking clause, is the case the question supposes.
const DECLARED =
  /^\s*((?:my|our|i|i'm|im|we|we're|someone|somebody|a|the)\s[^,،;:?؟]+)[,،;:]\s*(?=(?:will|would|does|do|is|are|am|can|could|should|who|what|how much|how long)(?![\p{L}]))/iu;

export function supposedCase(text: string): string[] {
  const opened = withoutGreeting(text);
  const m = SUPPOSES.exec(opened) ?? DECLARED.exec(opened);
  if (m === null) return [];
  // A word the asking clause says too is asked ("…to permanent life, what would the permanent premiums be?").
  const asked = new Set(questionTerms(opened.slice(m.index + m[0].length - 1)));
  return questionTerms(m[1]!).filter((t) => !asked.has(t));
}

/** Inverse document frequency in the tenant's documents; unseen terms weigh most. */
export function termWeight(taxonomy: Taxonomy, term: string): number {
  const df = taxonomy.documentFrequency.get(term) ?? 0;
  return Math.log(1 + (taxonomy.documents + 1) / (df + 1));
}

function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return false;
    previous = current;
  }
  return previous[b.length]! <= max;
}

/**
 * The tenant's spelling of a misspelt term ("hamsafr" → "hamsafar", "insurence" → "insur"), when
 * exactly one vocabulary term is that close; the term itself when it is known or nothing is.
 */
export function correctTerm(taxonomy: Taxonomy, term: string): string {
  if (taxonomy.vocabulary.has(term) || term.length < 5 || /\d/u.test(term)) return term;
  const max = term.length >= 9 ? 2 : 1;
  let found: string | null = null;
  for (const known of taxonomy.vocabulary) {
    if (known.length < 4 || known[0] !== term[0]) continue;
    if (!editDistanceAtMost(term, known, max)) continue;
    if (found !== null && found !== known) return term;
    found = known;
  }
  return found ?? term;
}

// Colloquial Persian endings ("گوشیمو" = گوشی + م + و, "خونه" = خانه, "ماهشه" = ماه + ش + ه):
// tried, longest first, only when what remains is a word of the tenant's own documents.
const FA_COLLOQUIAL_ENDINGS = [
  "هامو",
  "هاشو",
  "مونو",
  "شونو",
  "تونو",
  "ومو",
  "مو",
  "تو",
  "شو",
  "رو",
  "شه",
  "مه",
  "ته",
  "مون",
  "تون",
  "شون",
  "هام",
  "هاش",
  "م",
  "ت",
  "ش",
  "و",
  "ه",
  "ی",
  // «استخردار» "with a pool", «پارکینگدار»: the having-suffix written without ZWNJ.
  "دار",
];

function persianVariants(term: string): string[] {
  if (!/[\u0600-\u06FF]/u.test(term)) return [];
  // Whole-word forms first («ساختمون» is «ساختمان», not «ساخت» + «مون»), then endings stripped.
  const bases = [term, term.replace(/ون(?=[^\u0600-\u06FF]|$)/u, "ان"), term.replace(/ون/u, "ان")];
  const out: string[] = [...bases];
  for (const base of bases) {
    for (const ending of FA_COLLOQUIAL_ENDINGS) {
      if (base.endsWith(ending) && base.length - ending.length >= 2) {
        const stem = base.slice(0, -ending.length);
        // A final «ه» drops before the ending in speech: «گربمو» is «گربه» + «م» + «و».
        out.push(stem, stem.replace(/ون$/u, "ان"), `${stem}ه`);
      }
    }
  }
  return out;
}

/** The tenant's own form of a term: itself, a colloquial Persian form's formal one, or its spelling. */
export function tenantForm(taxonomy: Taxonomy, term: string): string {
  if (taxonomy.vocabulary.has(term)) return term;
  for (const variant of persianVariants(term)) {
    if (taxonomy.vocabulary.has(variant)) return variant;
    // A stem with its ending stripped is a word again, analysed as the documents' words are
    // («بازسازیش» is «بازسازی», indexed as «بازساز»).
    const analysed = variant === term ? undefined : analyze(variant);
    if (analysed?.length === 1 && taxonomy.vocabulary.has(analysed[0]!)) return analysed[0]!;
  }
  return correctTerm(taxonomy, term);
}

/** Question terms the tenant's documents never use, spelling forgiven: what the documents cannot answer. */
export function absentTerms(taxonomy: Taxonomy, terms: readonly string[]): string[] {
  return terms.filter((t) => !taxonomy.vocabulary.has(tenantForm(taxonomy, t)));
}

/**
 * The words in the slots that name what a question is about: "X insurance", "insurance for X",
 * "cover X", "is X covered", «بیمه X», «X را پوشش». When one of them is a word the tenant's
 * documents never use ("pet insurance", "cover acupuncture"), the documents cannot answer, however
 * well the rest of the question matches.
 */
const FOCUS_PATTERNS: readonly RegExp[] = [
  /(?<![\p{L}])([\p{L}'-]{3,})\s+(?:insurance|insurence|insurances|cover|coverage|policy|policies)(?![\p{L}])/gu,
  /(?<![\p{L}])(?:insure|insured|cover|covers|covered|insurance for|cover for|policy for|coverage for|pay for|pays for|paid for)\s+(?:my\s+|a\s+|an\s+|the\s+|your\s+|our\s+)?([\p{L}'-]{3,})/gu,
  /(?<![\p{L}])(?:is|are)\s+(?:my\s+|a\s+|an\s+|the\s+)?([\p{L}'-]{3,})\s+(?:covered|insured|included)(?![\p{L}])/gu,
  /(?<![\p{L}])بیمه\s+([\p{L}\u200C]{2,})/gu,
  /(?<![\p{L}])([\p{L}\u200C]{2,})\s+(?:را|رو)\s+(?:پوشش|بیمه می|بیمه میکن|می\s?ده|میده|می\s?پرداز|میپرداز)/gu,
  // "the fax number", «شماره فکس»: the kind of number asked for; documents that never name it cannot give it.
  /(?<![\p{L}])([\p{L}'-]{3,})\s+(?:number|numbers|no\.)(?![\p{L}])/gu,
  /(?<![\p{L}])شماره\s+([\p{L}\u200C]{2,})/gu,
  // «برای مغازه‌ام … بیمه … دارید؟», «بیمه … برای قایقم»: what the insurance is for ("insurance for my shop").
  /(?<![\p{L}])برای\s+([\p{L}\u200C]{2,})(?:\s+[\p{L}\u200C]+){0,3}?\s+(?:بیمه|پوشش)(?![\p{L}])/gu,
  /(?<![\p{L}])(?:بیمه|پوشش)(?:\s+[\p{L}\u200C]+){0,2}?\s+برای\s+([\p{L}\u200C]{2,})/gu,
];

/**
 * A destination is what a yes/no question is about ("is it valid for a trip to Antarctica?"), but
 * only a detail of a question that asks for an amount ("the price for a 5-day trip to Muscat").
 */
const DESTINATION = /(?<![\p{L}])(?:trip|trips|travel|travelling|traveling|going|flight|flying|holiday|visit|visiting) to\s+([\p{L}'-]{3,})/gu;

const NOT_FOCUS = new Set(
  analyze(`the a an my your our this that what which it its any all every some travel home car health life your insurance cover policy
    plan plans price how much does do is are for with on of in nامه نامه هم هام چی چه این اون آن`),
);

/**
 * "Do you do pet insurance?", «بیمه عمر هم ارائه می‌دهید؟»: whether the insurer offers a kind of
 * insurance at all. Its word must name one of the tenant's products (their titles, labels and
 * concepts), not merely occur somewhere ("damage by pets" in an exclusion list).
 */
const OFFERED_PATTERNS: readonly RegExp[] = [
  /(?<![\p{L}])(?:do|does|can|could|would)\s+(?:you|u|ya|they)\s+(?:guys\s+)?(?:do|offer|sell|have|provide)\s+(?:an?\s+|any\s+)?((?:[\p{L}'-]{2,}\s+)?[\p{L}'-]{3,})\s+(?:insurance|insurence|cover|coverage|policy|policies)(?![\p{L}])/gu,
  /(?<![\p{L}])(?:is|are)\s+there\s+(?:an?\s+|any\s+)?((?:[\p{L}'-]{2,}\s+)?[\p{L}'-]{3,})\s+(?:insurance|insurence|cover|policy)(?![\p{L}])/gu,
  /(?<![\p{L}])(?:can|could)\s+i\s+(?:buy|get|take out|purchase)\s+(?:an?\s+|some\s+)?((?:[\p{L}'-]{2,}\s+)?[\p{L}'-]{3,})\s+(?:insurance|insurence|cover|policy)(?![\p{L}])/gu,
  // «بیمه تحصیلی برای آینده فرزندان دارید؟»: a few words may say what it is for.
  /(?<![\p{L}]|حق\s)بیمه\s+([\p{L}]{2,})(?:\s+[\p{L}\u200C]+){0,4}?\s+(?:هم\s+)?(?:دارید|دارین|دارد|داره|ارائه|میفروشید|می\s?فروشید)(?![\p{L}])/gu,
];

/** The kinds asked about, each as its terms with the head last ("term life" → term, life). */
export function offeredKinds(text: string): string[][] {
  const folded = foldForMatch(text);
  const out = new Map<string, string[]>();
  for (const pattern of OFFERED_PATTERNS) {
    for (const m of folded.matchAll(pattern)) {
      const terms = analyze(m[1] ?? "").filter((t) => !ASKING.has(t));
      if (terms.length > 0) out.set(terms.join(" "), terms);
    }
  }
  return [...out.values()];
}

/** Two words where a focus word stands («بیمه ساعت هوشمند», "smart watch insurance"): one thing, when the lexicon says so. */
const FOCUS_PAIRS: readonly RegExp[] = [
  /(?<![\p{L}])بیمه\s+([\p{L}\u200C]{2,}\s+[\p{L}\u200C]{2,})/gu,
  /(?<![\p{L}])([\p{L}'-]{3,}\s+[\p{L}'-]{3,})\s+(?:insurance|insurence|cover|coverage|policy)(?![\p{L}])/gu,
];

export function focusPhrases(text: string): string[] {
  const folded = text.toLowerCase();
  return [...new Set(FOCUS_PAIRS.flatMap((pattern) => [...folded.matchAll(pattern)].map((m) => m[1]!)))];
}

/**
 * A name that owns what is asked about ("Is Desjardins' roadside assistance any good?", "Aviva's
 * home cover"): capitalised and possessive, it says whose product the question is about.
 */
// Not at a sentence's start, where "What's", "There's", "Today's" are capitalised by position.
const OWNER = /(?<![\p{L}]|^\s*|[.!?؟]\s*)(\p{Lu}[\p{L}-]{2,})(?:['’]s|s['’])(?![\p{L}])/gu;

export function focusTerms(text: string, asksAmount = false): string[] {
  const folded = text.toLowerCase();
  const out: string[] = [];
  for (const m of text.matchAll(OWNER)) for (const term of analyze(m[0].replace(/['’]s?$/u, ""))) if (!NOT_FOCUS.has(term)) out.push(term);
  for (const pattern of asksAmount ? FOCUS_PATTERNS : [...FOCUS_PATTERNS, DESTINATION]) {
    for (const m of folded.matchAll(pattern)) {
      for (const term of analyze(m[1] ?? "")) if (!NOT_FOCUS.has(term) && !ASKING.has(term)) out.push(term);
    }
  }
  return [...new Set(out)];
}

/**
 * "I keep a 24ft speedboat at Dubai Marina. Can you insure it?": the thing a message says the
 * customer has, when its question asks to insure or cover "it". The rewrite keeps the question
 * only; what "it" is stays the question's focus.
 */
const OWNED = [
  /(?<![\p{L}])(?:i|we)\s+(?:have|keep|own|bought|got|drive|ride|use|just bought)\s+(?:an?|my|our|the|two|2)\s+((?:[\p{L}\d'-]+\s+){0,2}?[\p{L}'-]{3,})(?=\s+(?:at|in|on|that|which|and|for|from|with)(?![\p{L}])|\s*[,.;:!?]|\s*$)/gu,
  /(?<![\p{L}])(?:یه|یک)\s+([\p{L}\u200C]{2,}(?:\s+[\p{L}\u200C]{2,})?)\s+دارم(?![\p{L}])/gu,
];
const REFERS_BACK =
  /(?<![\p{L}])(?:(?:insure|cover|covers|insuring|covering)\s+(?:it|them)|(?:insurance|cover|policy)\s+for\s+(?:it|them))(?![\p{L}])|بیمه\s?(?:اش|ش)(?![\p{L}])|بیمش(?![\p{L}])/u;

export function ownedFocus(text: string): string[] {
  const folded = text.toLowerCase();
  if (!REFERS_BACK.test(foldForMatch(text))) return [];
  const out = new Set<string>();
  for (const pattern of OWNED)
    for (const m of folded.matchAll(pattern))
      for (const term of analyze(m[1] ?? "")) if (term.length >= 3 && !/^\d/u.test(term) && !NOT_FOCUS.has(term) && !ASKING.has(term)) out.add(term);
  return [...out];
}

/**
 * Whether a reply to a clarifying question gives retrieval something the pending question lacks: a
 * figure, or a word of the tenant's documents that most of them do not use. "the insurance",
 * "whatever", "the normal one" add nothing; "for my wife, she's 34" or "the Gold plan" do.
 */
export function addsToQuestion(reply: string, pending: string, taxonomy: Taxonomy): boolean {
  if (/\d/u.test(toAsciiDigits(reply))) return true;
  const before = new Set(questionTerms(pending).map((t) => tenantForm(taxonomy, t)));
  return questionTerms(reply)
    .map((t) => tenantForm(taxonomy, t))
    .some((t) => !before.has(t) && taxonomy.vocabulary.has(t) && (taxonomy.documentFrequency.get(t) ?? 0) <= taxonomy.documents * COMMON_SHARE);
}

/** A word more than this share of the tenant's documents use says nothing of which product or case is meant. */
const COMMON_SHARE = 0.35;
