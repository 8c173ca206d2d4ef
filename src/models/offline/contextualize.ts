import { asksSomething, FOLLOW_UP_TERMS, questionOf } from "../../text/sentences.js";
import { ruledOutWords } from "../../text/ruled-out.js";
import type { HistoryLine } from "../../domain/conversation.js";
import { detectLanguage, foldForMatch, normalizeText, type Language } from "../../text/index.js";
import { renderQuantity, statedQuantities, withProfileHint } from "./carried-facts.js";
import type { ContextualizeInput, ContextualizeOutput } from "../roles.js";
import {
  ELLIPSIS_END,
  ELLIPSIS_START,
  EN_ANAPHORA,
  FA_ANAPHORA,
  FA_KNOWN_NOUNS,
  FAMILY_CANONICAL,
  FAMILY_PHRASES,
  FOLLOW_UP_FILLERS,
  GENERIC_TERMS,
  isTopicCompanion,
  topicDomain,
  type FamilyRole,
} from "./lexicon.js";
import { analyzeTerms, isPersianTerm, suffixVariants } from "./terms.js";
import { CURRENCY_WORDS } from "../../text/currency.js";
import { ATTRIBUTE_TERMS } from "../../text/attribute-words.js";

/**
 * History-aware query rewriting without a model. A short, elliptical turn ("what about for my
 * wife?", «قیمتش چقدر است؟») is merged with the most recent standalone query: the previous
 * query's topic (product words) is kept, and the new turn's content replaces the aspect it
 * changes (family member, or the asked-about detail). A turn that names its own product starts a
 * new topic. Everything else is used as written.
 */

/** How far back a previous query may be to resolve a follow-up. */
const HISTORY_LOOKBACK = 3;
/** A turn with at most this many content terms and no product of its own reads as a follow-up. */
const SHORT_TURN_TERMS = FOLLOW_UP_TERMS;
/** Content terms the output never exceeds (the schema caps the query at 500 characters). */
const MAX_QUERY_CHARS = 500;

// Questions that stand on their own even when short: contact details are not a product's aspect.
const STANDALONE_TERMS = new Set(
  analyzeTerms("hours opening branch branches office contact call centre center email address phone number support شعبه ساعت تماس آدرس ایمیل پشتیبانی تلفن"),
);

type TokenKind = "topic" | "generic" | "family" | "aspect" | "quantity";

interface Token {
  text: string;
  terms: string[];
  kind: TokenKind;
  /** For topic tokens: whether the token names a product by itself. */
  names: boolean;
}

interface Turn {
  tokens: Token[];
  ownTopic: boolean;
  elliptical: boolean;
  /** Content terms after fillers are dropped. */
  size: number;
}

export function latestQueryLine(history: readonly HistoryLine[]): HistoryLine | undefined {
  for (let i = history.length - 1; i >= Math.max(0, history.length - HISTORY_LOOKBACK); i--) {
    const line = history[i];
    if (line?.rewrittenQuery !== undefined && line.rewrittenQuery.trim() !== "") return line;
  }
  return undefined;
}

/** True when folded text reads as the continuation of something said before. */
/** How a question asks for a figure: its words are stopwords, so they would not survive a rewrite. */
const ASKING = /(?<![\p{L}])(?:how much|how many|how long|how old|what is the (?:price|cost|limit|excess)|چقدر|چند)(?![\p{L}])/u;

/** "ok and our son?", «خب برای پدرم چی؟»: an acknowledgement before the follow-up itself. */
const ACKNOWLEDGEMENT = /^(?:(?:ok|okay|k|alright|all right|right|great|cool|thanks|thank you|thx|nice|got it|i see|hmm|so|well|خب|خوب|باشه|مرسی|ممنون|اوکی|آهان|اها)[\s,.!]+)+/u;

export function isElliptical(folded: string): boolean {
  const trimmed = folded.trim().replace(ACKNOWLEDGEMENT, "");
  if (ELLIPSIS_START.test(trimmed) || ELLIPSIS_END.test(trimmed) || EN_ANAPHORA.test(trimmed) || FA_ANAPHORA.test(trimmed)) {
    return true;
  }
  // «قیمتش», «سقفش»: a known noun with a third-person suffix points back at the previous topic.
  return trimmed.split(/\s+/u).some((word) => {
    const bare = word.replace(/[^\p{L}\p{N}]+$/u, "");
    return bare.endsWith("ش") && !FA_KNOWN_NOUNS.has(bare) && suffixVariants(bare).some((v) => FA_KNOWN_NOUNS.has(v));
  });
}

const FAMILY_WORDS = new Map<string, FamilyRole>();
for (const role of ["spouse", "children", "parents"] as const) {
  for (const lang of ["en", "fa"] as const) FAMILY_WORDS.set(FAMILY_CANONICAL[role][lang], role);
}

/** Replaces family phrases with their canonical term in `lang` (wife → spouse, «همسرم» → «همسر»). */
function canonicalizeFamily(folded: string, lang: Language): string {
  let out = folded;
  for (const [pattern, role] of FAMILY_PHRASES) out = out.replace(pattern, FAMILY_CANONICAL[role][lang]);
  return out;
}

// The word naming a product right after «بیمه» («بیمه زلزله») or right before "insurance"
// ("earthquake insurance") is a topic even when it is a peril elsewhere ("cover earthquake").
const FA_PRODUCT_HEAD = new Set(analyzeTerms("بیمه بیمه‌نامه"));
const EN_PRODUCT_TAIL = new Set(analyzeTerms("insurance policy"));

function tokenize(text: string, familyLang: Language, names: ReadonlySet<string>): Token[] {
  const tokens = rawTokens(text, familyLang, names);
  tokens.forEach((token, i) => {
    if (token.kind !== "aspect") return;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    const afterPersianHead = isPersianTerm(token.text) && before?.terms.every((t) => FA_PRODUCT_HEAD.has(t));
    const beforeEnglishTail = !isPersianTerm(token.text) && after !== undefined && after.terms.every((t) => EN_PRODUCT_TAIL.has(t));
    if (afterPersianHead || beforeEnglishTail) tokens[i] = { ...token, kind: "topic", names: true };
  });
  return tokens;
}

function rawTokens(text: string, familyLang: Language, names: ReadonlySet<string>): Token[] {
  const folded = canonicalizeFamily(foldForMatch(text), familyLang);
  const tokens: Token[] = [];
  for (const raw of folded.split(/\s+/u)) {
    let word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (word === "") continue;
    if (isPersianTerm(word) && !FA_KNOWN_NOUNS.has(word) && !FAMILY_WORDS.has(word)) {
      const known = suffixVariants(word).find((v) => FA_KNOWN_NOUNS.has(v));
      if (known !== undefined) word = known;
    }
    const terms = analyzeTerms(word);
    if (terms.length === 0 || terms.every((t) => FOLLOW_UP_FILLERS.has(t))) continue;
    tokens.push(classify(word, terms, names));
  }
  return tokens;
}

// A stated quantity and its unit ("10 days", «۴۷ سال»): carried into a follow-up that states none.
const QUANTITY_WORDS = new Set(analyzeTerms(`day days week weeks month months year years old aged turned turns k thousand روز روزه هفته ماه سال ساله هزار ${CURRENCY_WORDS}`));

function classify(text: string, terms: string[], names: ReadonlySet<string>): Token {
  if (FAMILY_WORDS.has(text)) return { text, terms, kind: "family", names: false };
  if (terms.every((t) => /^\d/u.test(t) || QUANTITY_WORDS.has(t))) return { text, terms, kind: "quantity", names: false };
  // The tenant's own product names ("rahvar", «همسفر») name a topic, as do words for kinds of insurance.
  if (terms.some((t) => names.has(t))) return { text, terms, kind: "topic", names: true };
  const topical = terms.filter((t) => topicDomain(t) !== undefined);
  if (topical.length > 0) return { text, terms, kind: "topic", names: true };
  if (terms.every((t) => isTopicCompanion(t))) return { text, terms, kind: "topic", names: false };
  if (terms.every((t) => GENERIC_TERMS.has(t))) return { text, terms, kind: "generic", names: false };
  return { text, terms, kind: "aspect", names: false };
}

function readTurn(text: string, familyLang: Language, names: ReadonlySet<string>): Turn {
  const tokens = tokenize(text, familyLang, names);
  return {
    tokens,
    ownTopic: tokens.some((t) => t.kind === "topic" && t.names),
    elliptical: isElliptical(foldForMatch(text)),
    size: tokens.reduce((n, t) => n + t.terms.length, 0),
  };
}

/** Joins tokens, dropping repeats of an analysed form ("cover" and "covered"). */
function join(tokens: readonly Token[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const token of tokens) {
    const key = token.terms.join(" ");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(token.text);
  }
  return out.join(" ");
}

function isFollowUp(turn: Turn, text: string): boolean {
  if (turn.ownTopic) return false;
  if (turn.elliptical) return true;
  if (turn.tokens.some((t) => t.terms.some((term) => STANDALONE_TERMS.has(term)))) return false;
  return turn.size <= SHORT_TURN_TERMS && foldForMatch(text).split(/\s+/u).length <= 8;
}

export function contextualize(input: ContextualizeInput): ContextualizeOutput {
  const text = normalizeText(input.text);
  const previous = latestQueryLine(input.history);
  // A turn that is not a follow-up stands on its own: its question, without the statements around it.
  let query = questionOf(text);

  if (previous?.rewrittenQuery !== undefined) {
    const previousQuery = normalizeText(previous.rewrittenQuery);
    const prevLang = detectLanguage(previousQuery, previous.language).language;
    const names = new Set(input.productTerms ?? []);
    const turn = readTurn(text, prevLang, names);
    // A plan the previous question ruled out ("the regular one, not the plus") is not carried.
    const ruledOut = new Set(ruledOutWords(previousQuery).flatMap((w) => analyzeTerms(w)));
    const prev = readTurn(previousQuery, prevLang, names).tokens.filter((t) => !t.terms.some((term) => ruledOut.has(term)));
    const has = (kind: TokenKind): boolean => turn.tokens.some((t) => t.kind === kind);

    // "what about platinum" after "gold windscreen limit": a label of the same table as one of the
    // previous words replaces that word only.
    const siblingsReplaced = siblingReplacement(turn.tokens, prev, input.labelGroups ?? []);
    // "How much…" carries over to "ok and our son?": what was asked, if the turn does not ask anew.
    const asking = ASKING.exec(foldForMatch(previousQuery))?.[0];
    const carryAsking = (q: string) => (asking !== undefined && !ASKING.test(foldForMatch(text)) ? `${asking} ${q}` : q);
    // "my sister is 25… how much for 30 days?" then "and for 3 months?": the age still holds.
    // An age is a person's: "and our kids?" after "my wife, she's 29" asks about other people.
    const stated = statedQuantities(previousQuery, previous.user, text, has("quantity")).filter((q) => q.kind !== "age" || !has("family"));
    const withStated = (q: string) => [q, ...stated.map((s) => renderQuantity(s, input.language))].join(" ");
    // "I'm only renting, it's my sofa that got soaked": a message that asks nothing and says more
    // than a follow-up's word or two tells more about the question before it, which still stands.
    // A product it names replaces the one asked about, when it answers a clarifying question or
    // points back ("it's"); a new product stated after an answer ("I want travel cover") stands alone.
    const tellsMore = !asksSomething(text) && turn.size > SHORT_TURN_TERMS && (previous.outcome === "clarify" || !turn.ownTopic || turn.elliptical);
    if (tellsMore) {
      const kept = turn.ownTopic ? prev.filter((t) => !(t.kind === "topic" && t.names)) : prev;
      query = withStated(carryAsking(join([...kept, ...turn.tokens])));
    } else if (isFollowUp(turn, text) && siblingsReplaced !== null) {
      query = withStated(carryAsking(join([...prev.filter((t) => !siblingsReplaced.has(t)), ...turn.tokens])));
    } else if (isFollowUp(turn, text)) {
      // Keep the previous topic; the new turn's family member or aspect replaces the old one. A
      // turn that asks no attribute and names no plan ("what if my 22-year-old son drives?") says
      // when, not what: the excess asked of Gold still is.
      const labels = new Set((input.labelGroups ?? []).flat());
      const asksAttribute = turn.tokens.some((t) => t.terms.some((term) => ATTRIBUTE_TERMS.has(term)));
      const namesLabel = turn.tokens.some((t) => t.terms.some((term) => labels.has(term)));
      const stays = (t: Token) =>
        (!asksAttribute && t.terms.every((term) => ATTRIBUTE_TERMS.has(term))) || (!namesLabel && t.terms.length > 0 && t.terms.every((term) => labels.has(term)));
      const kept = prev.filter(
        (t) =>
          t.kind === "topic" ||
          t.kind === "generic" ||
          (t.kind === "family" && !has("family")) ||
          (t.kind === "aspect" && (!has("aspect") || stays(t))) ||
          (t.kind === "quantity" && !has("quantity")),
      );
      query = withStated(carryAsking(join([...kept, ...turn.tokens])));
    } else if (turn.ownTopic && turn.elliptical) {
      // "how about travel?": a new product, asked about in the same way as before.
      // A family member asked about for one product is not carried over to another.
      const carried = prev.filter((t) => (t.kind === "generic" && !has("generic")) || (t.kind === "aspect" && !has("aspect")));
      query = join([...turn.tokens, ...carried]);
      // What the turn asks is in its question: "and for my parents? they're on Mehr while they
      // visit" asks the previous question of Mehr, its statement's words ("visit") change nothing.
      // That question is asked again in its own words, with the product swapped: a list of its
      // content words reads otherwise ("how many days … send" is no deadline).
      const asks = readTurn(questionOf(text), prevLang, names).tokens;
      if (!asks.some((t) => t.kind === "aspect")) {
        const swapped = withProductSwapped(
          previousQuery,
          prevLang,
          names,
          turn.tokens.filter((t) => t.kind === "topic" && t.names),
        );
        const family = asks.filter((t) => t.kind === "family").map((t) => t.text);
        if (swapped !== null) query = [swapped, ...family].join(" ");
      }
    }
  }

  query = withProfileHint(query, text, input.profile);
  const trimmed = query.trim().slice(0, MAX_QUERY_CHARS).trim();
  return { query: trimmed !== "" ? trimmed : text.trim() !== "" ? text.trim().slice(0, MAX_QUERY_CHARS) : "?" };
}

/**
 * The previous query's words with the products it names replaced by `named` (at the first one's
 * place) and without its family members (a person asked about for one product is not carried to
 * another); null when it names no product.
 */
function withProductSwapped(previousQuery: string, lang: Language, names: ReadonlySet<string>, named: readonly Token[]): string | null {
  const out: string[] = [];
  let swapped = false;
  for (const raw of canonicalizeFamily(foldForMatch(previousQuery), lang).split(/\s+/u)) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (FAMILY_WORDS.has(word)) continue;
    const token = word === "" ? null : classify(word, analyzeTerms(word), names);
    if (token?.kind === "topic" && token.names) {
      if (!swapped) out.push(...named.map((t) => t.text));
      swapped = true;
    } else if (raw !== "") out.push(raw);
  }
  return swapped ? out.join(" ") : null;
}

/**
 * The previous tokens a turn's aspects replace when every aspect of the turn is a label of the same
 * table as one of them ("platinum" for "gold"); null when they are not all such labels.
 */
function siblingReplacement(turn: readonly Token[], prev: readonly Token[], groups: readonly (readonly string[])[]): Set<Token> | null {
  const aspects = turn.filter((t) => t.kind === "aspect");
  if (aspects.length === 0 || groups.length === 0) return null;
  const replaced = new Set<Token>();
  for (const aspect of aspects) {
    const sibling = prev.find(
      (p) =>
        p.kind === "aspect" &&
        p.terms.length === 1 &&
        aspect.terms.length === 1 &&
        p.terms[0] !== aspect.terms[0] &&
        groups.some((g) => g.includes(p.terms[0]!) && g.includes(aspect.terms[0]!)),
    );
    if (sibling === undefined) return null;
    replaced.add(sibling);
  }
  return replaced;
}
