import { analyze } from "../text/analysis/index.js";
import type { ConceptLexicon } from "../text/concepts.js";
import { detectLanguage, type Language } from "../text/language.js";
import { foldForMatch } from "../text/normalize.js";
import { parseQuantities, type Quantity } from "../text/quantities.js";
import { deniedTerms } from "./negation.js";

/**
 * What a question asks and what it constrains, from its words alone: the asked attribute (a
 * price, a limit, a deductible, a waiting period, a deadline, an age rule, whether something is
 * covered or excluded, how to do something, contact details, opening hours, a definition) and the
 * quantities it states (ages, durations, amounts). The cue words are the language's, not a
 * corpus's: they hold for any insurer's documents.
 */
export type Attribute =
  | "price"
  | "limit"
  | "deductible"
  | "waiting"
  | "deadline"
  | "age"
  | "covered"
  | "excluded"
  | "how"
  | "contact"
  | "hours"
  | "definition"
  | "discount"
  | "documents"
  | "refund"
  | "duration";

export interface QuestionAnalysis {
  language: Language;
  /** Asked attributes, the most specific first; empty when no cue is present. */
  asked: Attribute[];
  quantities: Quantity[];
  /** Analysed content terms (stopwords dropped, stemmed), in order. */
  terms: string[];
  /** Terms that are a respelling of a word the documents never use: guesses, weighed as common words. */
  guessed?: ReadonlySet<string>;
  /** Words of one meaning in both languages: a passage naming a term's concept covers the term. */
  lexicon?: ConceptLexicon;
  /**
   * In a follow-up, the query's terms that the customer's own message says (by word or concept):
   * "What about my kids?" asks about children, not again about the riding and the injury.
   */
  turnFocus?: ReadonlySet<string>;
  /**
   * The tenant's spellings in the other script of the question's names ("gadgetguard" for
   * «گجت‌گارد», «پلاس» for "plus"): a passage with one covers the term (Taxonomy.scriptNames).
   */
  aliases?: ReadonlyMap<string, readonly string[]>;
  /** Quantities a follow-up carries from the conversation, not said in its own words: they count only where a passage states one of their kind (score.ts quantityAgreement). */
  carriedQuantities?: readonly Quantity[];
  /** Terms a concept of the lexicon carries (alone or in a phrase: «صفحه» of «صفحه گوشی»), so a passage in the other language can say them. */
  carried?: ReadonlySet<string>;
  /** Of those, the ones carried only as part of a phrase, with the phrase's concept (context.ts phraseConcepts). */
  phraseConcepts?: ReadonlyMap<string, string>;
  /** The question asks by how much something rises or differs ("how much more…?", "extra for a young driver?"). */
  change?: boolean;
  /**
   * Terms of a statement the customer added to an earlier question ("it's for my aunt, she's
   * visiting"): they are not asked about, so a unit lacking them loses nothing, but one that
   * speaks of them fits the case better (they count where covered).
   */
  stated?: ReadonlySet<string>;
  /**
   * Terms of the case a question supposes ("If a fire makes the flat unliveable, how much…?"):
   * what happened, not what is asked, so a passage stating the asked benefit need not say them.
   */
  conditions?: ReadonlySet<string>;
  /** Terms the customer says are not so ("I don't smoke", «سابقه خسارت ندارم»): src/reading/negation.ts. */
  denied?: ReadonlySet<string>;
}

/**
 * "the whole amount", "in full", «کل مبلغ»: asking whether all of a sum is paid, a limit. The
 * reader also drops these words from the ones a passage must say (evidence-terms.ts).
 */
export const WHOLE_SUM = "(?:the\\s+)?(?:whole|full|entire|total)\\s+(?:amount|cost|value|price|sum)|in\\s+full|(?:کل|تمام|همه)\\s+(?:مبلغ|هزینه|پول)";

const W = (words: string) => `(?<![\\p{L}])(?:${words})(?![\\p{L}])`;

/**
 * Cues per attribute on folded text (lower case, Persian letters unified, ZWNJ as a space).
 * Order matters: the first attributes are the more specific ones.
 */
const CUES: ReadonlyArray<[Attribute, RegExp]> = [
  // «فرانشیزش», "its deductible" in speech: the possessive written on without a space. (Every
  // cue taking such endings was tried: «مدته», «بازه» and the like are other words, and it lost answers.)
  ["deductible", new RegExp(W("deductibles?|excess(?:es)?|franchise|co-?pay(?:ment)?s?|own share|فرانشیز(?:ش|شون)?|فرانشيز|سهم بیمه شده|سهم خودم"), "u")],
  [
    "waiting",
    new RegExp(
      W("waiting periods?|wait(?:ing)?|before (?:cover|coverage) starts|when does (?:the )?cover(?:age)? start|دوره انتظار|دوره ی انتظار|انتظار|از کی پوشش|از چه زمانی پوشش"),
      "u",
    ),
  ],
  [
    "deadline",
    new RegExp(
      W(
        "deadlines?|within how (?:many|long)|how (?:many days|long) do i have|how soon|time limit|notify|report(?:ing)? (?:a|the|an)? ?(?:claim|accident|theft|loss)|submit|مهلت|ظرف چند|چند روز وقت|تا چند روز|اعلام|گزارش",
      ),
      "u",
    ),
  ],
  ["discount", new RegExp(W("discounts?|cheaper|reduction|no[- ]claims? bonus|تخفیف|ارزان تر|ارزانتر"), "u")],
  ["refund", new RegExp(W("refunds?|refundable|money back|reimburs\\w*|استرداد|برگشت پول|بازپرداخت"), "u")],
  ["documents", new RegExp(W("documents?|paperwork|papers|what do i need to (?:send|submit|provide)|مدارک|مدرک|چه مدارکی"), "u")],
  // «ساعت» alone is as often a watch or a count of hours («۴۸ ساعت») as opening hours: only its asking phrases count.
  [
    "hours",
    new RegExp(
      W("opening hours|hours|open|opens|close|closes|what time|until when|(?:what|which) days|ساعات|ساعت کاری|ساعت چند|باز|تعطیل|چه ساعتی|تا ساعت چند|چه روزهایی|چه روزی"),
      "u",
    ),
  ],
  // "phone" alone is as often the insured device as a way to call: only its contact phrases count.
  [
    "contact",
    new RegExp(
      W(
        "(?:phone|telephone|contact|hotline|helpline|whatsapp) (?:number|line)s?|telephone|hotline|helpline|call (?:you|us|them|the)|number to call|email|e-mail|address|whatsapp|contact|branch(?:es)?|تلفن|شماره تماس|شماره تلفن|تماس|ایمیل|آدرس|نشانی|شعبه|شعب|واتساپ",
      ),
      "u",
    ),
  ],
  ["definition", new RegExp(W("what does .{1,40} mean|what is meant by|define|definition|meaning of|یعنی چی|یعنی چه|به چه معناست|منظور از|تعریف"), "u")],
  [
    "age",
    new RegExp(W("age limits?|how old|too old|maximum age|minimum age|eligible|eligibility|can (?:he|she|they|i) (?:get|buy)|سن|حداکثر سن|حداقل سن|چند سالگی|شرایط سنی"), "u"),
  ],
  [
    "excluded",
    new RegExp(W("excluded|exclusions?|not covered|doesn't cover|does not cover|isn't covered|استثنا|استثنائات|پوشش نمی دهد|پوشش نمیده|شامل نمی شود|تحت پوشش نیست"), "u"),
  ],
  [
    "limit",
    new RegExp(
      W(
        `limits?|maximum|max|ceiling|cap|up to how much|how many(?= (?!(?:days?|weeks?|months?|years?|hours?|nights?)(?![\\p{L}])))|${WHOLE_SUM}|fully covered|how much (?:do|does|will|would) (?!(?:i|we|me|my|our)\\b)(?:\\w+ ){1,3}?pay(?!ment)|how much (?:\\w+ ){0,4}(?:is|are) (?:covered|insured|included)|سقف|حداکثر|تا چه مبلغی|چند بار|چند مرتبه|چند دفعه|چقدر میده|چقدر می دهد|چقدر میدن|چقدر می دهند|چقدر می ?پردازد|چقدر می ?پردازند|چقدر پرداخت`,
      ),
      "u",
    ),
  ],
  [
    "price",
    new RegExp(
      W(
        "price|prices|cost|costs|premiums?|rates?|how much|fee|fees|quote|tariff|monthly|yearly|annual|per year|per month|قیمت|هزینه|حق بیمه|نرخ|چقدره|چقدر|چنده|چند میشه|چند است|تعرفه|ماهی|سالی|سالانه|ماهانه",
      ),
      "u",
    ),
  ],
  ["duration", new RegExp(W("how long|how many days|for how long|duration|valid for|grace period|مهلت ارفاقی|چه مدت|چند روز|چند وقت|مدت|چقدر طول|طول می کشه|طول میکشه"), "u")],
  ["covered", new RegExp(W("covered|cover|covers|include|includes|pay for|pays for|will .{1,30} pay|is .{1,30} included|پوشش|شامل|تحت پوشش|پرداخت می کند|میده"), "u")],
  // "Where can I file a claim?": the channels to do it by, as much as the steps.
  [
    "how",
    new RegExp(
      W(
        "how (?:do|can|should) i|how to|steps|procedure|process|what should i do|where (?:can|do|should|could) (?:i|we)|where to|چطور|چگونه|چه کار کنم|چیکار کنم|مراحل|روال|کجا می ?تونم|کجا می ?توانم|کجا باید",
      ),
      "u",
    ),
  ],
];

const OWN_DETAILS = new RegExp(
  `${W("my|our")}\\s+(?:(?:new|old|home|postal|mailing|current|registered)\\s+)?(?:(?:phone|telephone|mobile|cell|contact|whatsapp|email|e-mail)\\s+)?(?:address|number|email|e-mail|phone|telephone|mobile|contact details|details)(?![\\p{L}])` +
    `|(?<![\\p{L}])(?:آدرس|نشانی|شماره(?:\\s+(?:تلفن|تماس|موبایل|همراه))?|ایمیل|تلفن)(?:\\s+(?:خونه|خانه|جدید))?\\s+(?:من|ما)(?![\\p{L}])`,
  "gu",
);

export function analyzeQuestion(text: string, language?: Language): QuestionAnalysis {
  const folded = foldForMatch(text);
  const asked: Attribute[] = [];
  // "change my address", «شماره تلفن من»: the customer's own details are what the question is
  // about, not the insurer's contact details it would ask for.
  const own = folded.replace(OWN_DETAILS, " ");
  for (const [attribute, cue] of CUES) if (attribute === "contact" ? cue.test(own) : cue.test(folded)) asked.push(attribute);
  // "Does it cover an emergency toothache? how much?": a bare "how much" asked of what is covered
  // asks what it pays, not what the policy costs.
  const priced = asked.indexOf("price");
  if (priced >= 0 && asked.includes("covered") && !asked.includes("limit") && !PRICE_WORDS.test(folded)) asked.splice(priced, 1, "limit");
  return {
    language: language ?? detectLanguage(text).language,
    asked,
    quantities: parseQuantities(text),
    terms: analyze(text),
    change: asksChange(text),
    denied: deniedTerms(text),
  };
}

/** Words that ask what a policy costs, beside a bare "how much". */
const PRICE_WORDS = new RegExp(
  W(
    "price|prices|priced|cost|costs|premiums?|rates?|fee|fees|quote|tariff|monthly|yearly|annual|per year|per month|do i pay|would i pay|will i pay|قیمت|حق بیمه|نرخ|تعرفه|ماهانه|سالانه|ماهی|سالی|بپردازم|بدم",
  ),
  "u",
);

/** True when the text asks by how much something rises or differs (QuestionAnalysis.change). */
export function asksChange(text: string): boolean {
  return CHANGE.test(foldForMatch(text));
}

const CHANGE = new RegExp(
  W("more|extra|additional|surcharges?|loading|increases?|rises?|adds?|added|higher|cheaper|less|difference|اضافه|اضافی|بیشتر|افزایش|گرونتر|گرانتر|ارزانتر|کمتر|تفاوت|فرق"),
  "u",
);

/** True when the attribute is answered by a figure (an amount, a count, a duration). */
export function asksForFigure(asked: readonly Attribute[]): boolean {
  return asked.some(
    (a) => a === "price" || a === "limit" || a === "deductible" || a === "waiting" || a === "deadline" || a === "discount" || a === "duration" || a === "age" || a === "hours",
  );
}
