import { analyze } from "./analysis/index.js";

/**
 * A concept lexicon: words and phrases of both languages grouped by what they mean in an
 * insurance question ("stolen", "theft", «سرقت» are one concept; "excess", "deductible", «فرانشیز»
 * another). Retrieval indexes a text's concepts beside its terms and the reader counts a concept
 * as a match, so a question finds the passage that says it in other words — or in the other
 * language. The lexicon is general insurance vocabulary (data/lexicon, written without reading
 * any insurer's documents); a deployment may point FRONTDESK_LEXICON_FILE at its own.
 *
 * Format: one concept per line, `id<TAB>english | words<TAB>persian | words`, optionally a fourth
 * field naming broader concepts (`dog … <TAB>pet`: a dog is a pet); `#` comments.
 * Words and phrases are analysed like any text, so they match whatever the analyzer makes of
 * user text and documents (stems, ZWNJ compounds, normalised letters).
 */
export interface ConceptLexicon {
  /** The concepts a text names, each once, in order of first appearance. */
  conceptsOf(text: string): string[];
  /** The concept that an analysed term names on its own, if any. */
  conceptOfTerm(term: string): string | undefined;
  /**
   * The concepts a concept is a kind of ("pet" for "dog"): a passage about pets speaks of a dog,
   * not the other way round. One level, as the lexicon states it.
   */
  broaderOf(concept: string): readonly string[];
  /** The concepts of already analysed terms (one pass of the analyzer for both). */
  conceptsOfTerms(terms: readonly string[]): string[];
  /** A text's analysed terms followed by its concepts' index tokens ("~theft"): what the sparse index and the lexical reranker see. */
  indexTerms(text: string): string[];
  /** Concepts in the lexicon. */
  readonly size: number;
  /** Short fingerprint of the content (FNV-1a of the entries), so an index can say which lexicon it was built with. */
  readonly fingerprint: string;
}

export class LexiconError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`concept lexicon: ${problems.length} problem(s): ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? "; …" : ""}`);
    this.name = "LexiconError";
  }
}

/** The prefix of a concept's index token: not a character the analyzer ever leaves in a term. */
export const CONCEPT_TOKEN_PREFIX = "~";

interface Phrase {
  terms: string[];
  concept: string;
}

const ID = /^[a-z0-9][a-z0-9_]*$/u;

/**
 * Parses a lexicon. A term that two concepts both claim (after analysis: "fine" and "fines" may
 * stem alike) belongs to neither — an ambiguous word must not join two meanings. Throws
 * LexiconError listing every malformed line.
 */
export function parseConceptLexicon(text: string, source = "lexicon"): ConceptLexicon {
  const problems: string[] = [];
  const single = new Map<string, { concept: string; rank: number }>();
  const contested = new Set<string>();
  const phrases = new Map<string, Phrase[]>();
  const ids = new Set<string>();
  const broader = new Map<string, string[]>();
  const broaderAt = new Map<string, string>();
  let hash = 0x811c9dc5;
  for (const [index, raw] of text.split(/\r?\n/u).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const at = `${source}:${index + 1}`;
    const fields = raw.split("\t");
    if (fields.length !== 3 && fields.length !== 4) {
      problems.push(`${at}: expected 3 or 4 tab-separated fields (id, english, persian[, broader ids]), got ${fields.length}`);
      continue;
    }
    const [id = "", english = "", persian = "", kindOf = ""] = fields.map((f) => f.trim());
    if (!ID.test(id)) {
      problems.push(`${at}: concept id "${id.slice(0, 40)}" is not a lower-case slug`);
      continue;
    }
    if (ids.has(id)) {
      problems.push(`${at}: concept "${id}" is defined twice`);
      continue;
    }
    ids.add(id);
    const parents = kindOf.split(/\s+/u).filter((b) => b !== "");
    if (parents.length > 0) {
      broader.set(id, parents);
      broaderAt.set(id, at);
    }
    for (const char of `${id}\t${english}\t${persian}${parents.length > 0 ? `\t${parents.join(" ")}` : ""}\n`)
      hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
    const words = [...english.split("|"), ...persian.split("|")].map((w) => w.trim()).filter((w) => w !== "");
    if (words.length === 0) {
      problems.push(`${at}: concept "${id}" has no words`);
      continue;
    }
    for (const word of words) {
      const terms = analyze(word);
      // A phrase the analyzer shrinks to one term lost a word that carried its meaning ("not
      // covered" → "cover"): it cannot claim that term.
      const spoken = word.split(/[\s\u200C]+/u).filter((w) => w !== "").length;
      if (terms.length === 0 || (terms.length === 1 && spoken > 1 && analyze(word.replace(/\u200C/gu, "")).length !== 1)) continue;
      if (terms.length === 1) {
        // A word that is its own term ("screen") outranks one that only stems to it ("screening").
        const term = terms[0]!;
        const rank = word.toLowerCase() === term ? 2 : 1;
        const owner = single.get(term);
        if (owner === undefined || owner.rank < rank) {
          single.set(term, { concept: id, rank });
          contested.delete(term);
        } else if (owner.concept !== id && owner.rank === rank) contested.add(term);
        continue;
      }
      const list = phrases.get(terms[0]!) ?? [];
      if (!list.some((p) => p.concept === id && p.terms.join(" ") === terms.join(" "))) list.push({ terms, concept: id });
      phrases.set(terms[0]!, list);
    }
  }
  for (const [id, parents] of broader) {
    for (const parent of parents) {
      if (!ids.has(parent) || parent === id) problems.push(`${broaderAt.get(id)}: broader concept "${parent.slice(0, 40)}" of "${id}" is not another concept of the lexicon`);
    }
  }
  if (problems.length > 0) throw new LexiconError(problems);
  for (const term of contested) single.delete(term);
  // Longest phrase first, so "sum insured" wins over "sum".
  for (const list of phrases.values()) list.sort((a, b) => b.terms.length - a.terms.length);
  const owners = new Map([...single].map(([term, owner]) => [term, owner.concept]));
  return createLexicon(owners, phrases, broader, ids.size, hash.toString(16).padStart(8, "0"));
}

const NONE: readonly string[] = [];

// A Persian possessive ending closes the whole phrase it follows («صفحه گوشیم», my phone's
// screen, is «صفحه گوشی»): it is read off a phrase's last word, never off a word alone («مردم»).
const POSSESSIVE = /^(\p{Script=Arabic}{2,})(?:مان|تان|شان|مون|تون|شون|م|ت|ش)$/u;

function withoutPossessive(term: string | undefined): string | undefined {
  return term === undefined ? undefined : POSSESSIVE.exec(term)?.[1];
}

function createLexicon(
  single: ReadonlyMap<string, string>,
  phrases: ReadonlyMap<string, Phrase[]>,
  broader: ReadonlyMap<string, readonly string[]>,
  size: number,
  fingerprint: string,
): ConceptLexicon {
  const conceptsOfTerms = (terms: readonly string[]): string[] => {
    const found: string[] = [];
    const add = (concept: string) => {
      if (!found.includes(concept)) found.push(concept);
    };
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      for (const phrase of phrases.get(term) ?? []) {
        if (phrase.terms.every((t, k) => terms[i + k] === t || (k === phrase.terms.length - 1 && withoutPossessive(terms[i + k]) === t))) add(phrase.concept);
      }
      const concept = single.get(term);
      if (concept !== undefined) add(concept);
    }
    return found;
  };
  return {
    conceptsOf: (text) => conceptsOfTerms(analyze(text)),
    conceptsOfTerms,
    conceptOfTerm: (term) => single.get(term),
    broaderOf: (concept) => broader.get(concept) ?? NONE,
    // Only a text's own concepts: indexing their broader ones too (a question about a dog finding
    // every passage about pets) cost more answers than it found (docs/reading.md).
    indexTerms: (text) => {
      const terms = analyze(text);
      return size === 0 ? terms : [...terms, ...conceptsOfTerms(terms).map((c) => `${CONCEPT_TOKEN_PREFIX}${c}`)];
    },
    size,
    fingerprint,
  };
}

/** No concepts: every text's terms stand alone (tests, and a deployment that turns the lexicon off). */
export const EMPTY_LEXICON: ConceptLexicon = createLexicon(new Map(), new Map(), new Map(), 0, "00000000");
