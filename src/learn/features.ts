import { createHash } from "node:crypto";
import { analyze, detectLanguage, foldForMatch } from "../text/index.js";
import { ln } from "./detmath.js";

/**
 * Text → sparse feature vector for the linear classifier. The text is folded with src/text's
 * foldForMatch (Persian letter variants, Persian/Arabic-Indic digits, diacritics, ZWNJ as a
 * space, lower case), split into words, and hashed into 2^hashBits buckets:
 *
 * - word family: unigrams, bigrams, and each adjacent pair joined into one word, so that
 *   "می‌خواهم" (ZWNJ, folded to "می خواهم") and "میخواهم" share a feature, as do "log in" and "login";
 * - char family: n-grams of each word padded with boundary markers ("<بیمه>"), which carry
 *   Persian morphology (prefixes, plural and possessive suffixes) and survive typos;
 * - a language indicator (src/text's detectLanguage), so one bilingual model keeps a class
 *   prior per language, as two separate models would.
 *
 * Each family gets sublinear tf (1 + ln tf) and its own L2 normalisation, then the families are
 * scaled to share a unit norm: char n-grams outnumber words ten to one and would otherwise
 * drown them. Digits hash as "0", so policy numbers and amounts generalise by their shape.
 */

export interface FeatureConfig {
  /** What the text goes through before hashing; bump when the steps here change. */
  normalization: "fold-v1";
  /** FNV-1a 32-bit over the UTF-16LE bytes of the feature string, xor-folded to hashBits. */
  hash: "fnv1a32-utf16le";
  /** log2 of the feature space. Default 20 (1,048,576 buckets: few collisions, 4 MB index). */
  hashBits: number;
  /** Word features, or null for none. Default { maxN: 2, joinPairs: true }. */
  word: { maxN: 1 | 2; joinPairs: boolean } | null;
  /** Character n-grams within word boundaries, or null for none. Default { minN: 2, maxN: 5 }. */
  char: { minN: number; maxN: number } | null;
  /** Add the detected language as a feature. Default true. */
  languageFeature: boolean;
  /**
   * Symbol tokens in the word family: each emoji or pictograph, a run of two or more ? or !
   * ("??", "?!!!": one token), and shouting (mostly capital Latin letters, which folding
   * lower-cases away). They carry tone that letters do not ("😡", "hello??", "WHY"). Default
   * absent (false), so artefacts trained before the option existed keep their features.
   */
  symbols?: boolean;
  /**
   * A third family: the retrieval analyser's terms (src/text/analysis: stopwords dropped, English
   * stemmed, Persian plural/comparative and verb-prefix forms and ZWNJ compounds folded), as
   * unigrams and, with maxN 2, bigrams of adjacent terms. One stem stands for the spelling
   * variants the surface words and char n-grams only half share. Default absent (off), so
   * artefacts trained without it keep their features and their fingerprint.
   */
  terms?: { maxN: 1 | 2 };
}

export const DEFAULT_FEATURES: FeatureConfig = {
  normalization: "fold-v1",
  hash: "fnv1a32-utf16le",
  hashBits: 20,
  word: { maxN: 2, joinPairs: true },
  char: { minN: 2, maxN: 5 },
  languageFeature: true,
};

export const MIN_HASH_BITS = 10;
export const MAX_HASH_BITS = 22;

/** A sparse vector: strictly increasing bucket indices and their values. */
export interface SparseVector {
  indices: Int32Array;
  values: Float64Array;
}

/** A view on a featurizer's own buffers: valid only until its next call. */
export interface SharedVector extends SparseVector {
  length: number;
}

export interface Featurizer {
  readonly config: FeatureConfig;
  /** The text's features, sorted by bucket, in arrays the caller owns. */
  featurize(text: string): SparseVector;
  /** The same without copying, for the classify hot path (see SharedVector). */
  featurizeShared(text: string): SharedVector;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** One UTF-16 code unit into an FNV-1a 32-bit state, as its two little-endian bytes. */
function feed(h: number, unit: number): number {
  h = Math.imul(h ^ (unit & 0xff), FNV_PRIME);
  return Math.imul(h ^ (unit >>> 8), FNV_PRIME);
}

/** FNV-1a 32-bit of a string's UTF-16LE bytes, as an unsigned integer. */
export function fnv1a32(text: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) h = feed(h, text.charCodeAt(i));
  return h >>> 0;
}

// Namespace tags, fed first, so a word and a char n-gram with the same letters differ.
const TAG_WORD = 0x77; // w
const TAG_CHAR = 0x63; // c
const TAG_LANG = 0x6c; // l
const TAG_TERM = 0x74; // t
const SPACE = 0x20;
const WORD_START = 0x3c; // <
const WORD_END = 0x3e; // >
const ZERO = 0x30;

// Runs of letters and digits (\p{L}, \p{N}) are words; ? and ! are one-character tokens
// (questions, anger). A table over the BMP instead of a regex: tokenising then allocates
// nothing, which keeps long documents from feeding the garbage collector. Outside the BMP
// (emoji, historic scripts) nothing is a word. Built once, on first use (~10 ms).
let wordCharTable: Uint8Array | undefined;
function wordChars(): Uint8Array {
  if (wordCharTable === undefined) {
    const letterOrDigit = /[\p{L}\p{N}]/u;
    wordCharTable = new Uint8Array(0x10000);
    for (let c = 0; c < 0x10000; c++) {
      if ((c < 0xd800 || c > 0xdfff) && letterOrDigit.test(String.fromCharCode(c))) wordCharTable[c] = 1;
    }
  }
  return wordCharTable;
}
const QUESTION = 0x3f;
const EXCLAMATION = 0x21;
// Symbol tokens (config.symbols) hash these tags instead of text.
const SYMBOL_RUN = 0x2a; // a run of ? and ! of two or more
const SYMBOL_SHOUT = 0x5e; // shouting

/** Emoji and pictographs: the common emoji blocks and the BMP's dingbats and symbols. */
const isPictograph = (cp: number) => (cp >= 0x1f000 && cp <= 0x1faff && !(cp >= 0x1f3fb && cp <= 0x1f3ff)) || (cp >= 0x2600 && cp <= 0x27bf) || (cp >= 0x2b50 && cp <= 0x2b55);

/** Mostly capital Latin letters (at least four letters, 70% capitals): the text shouts. */
export function isShouting(text: string): boolean {
  let letters = 0;
  let capitals = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      letters++;
      capitals++;
    } else if (c >= 0x61 && c <= 0x7a) letters++;
  }
  return letters >= 4 && capitals >= 0.7 * letters;
}

const TF_TABLE = Array.from({ length: 256 }, (_, count) => (count === 0 ? 0 : 1 + ln(count)));
const tf = (count: number) => (count < TF_TABLE.length ? TF_TABLE[count]! : 1 + ln(count));

// Counts of both families share one array: word counts in the low 16 bits, char counts in the
// high 16 bits (each saturating at 65,535, far beyond any text the service accepts).
const HALF = 0xffff;

/** Problems with a feature configuration (empty when valid). */
export function featureConfigProblems(config: FeatureConfig): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(config.hashBits) || config.hashBits < MIN_HASH_BITS || config.hashBits > MAX_HASH_BITS) {
    problems.push(`features.hashBits: must be an integer in [${MIN_HASH_BITS}, ${MAX_HASH_BITS}], got ${config.hashBits}`);
  }
  if (config.char !== null) {
    const { minN, maxN } = config.char;
    if (!Number.isInteger(minN) || !Number.isInteger(maxN) || minN < 1 || maxN < minN || maxN > 8) {
      problems.push(`features.char: needs integers 1 ≤ minN ≤ maxN ≤ 8, got ${minN}..${maxN}`);
    }
  }
  if (config.word === null && config.char === null) problems.push("features: needs word or char features (both are null)");
  if (config.terms !== undefined && config.terms.maxN !== 1 && config.terms.maxN !== 2) problems.push(`features.terms.maxN: must be 1 or 2, got ${config.terms.maxN}`);
  return problems;
}

export function createFeaturizer(config: FeatureConfig = DEFAULT_FEATURES): Featurizer {
  const problems = featureConfigProblems(config);
  if (problems.length > 0) throw new Error(problems.join("; "));
  const size = 1 << config.hashBits;
  const mask = size - 1;
  const bits = config.hashBits;
  const bucketOf = (h: number) => ((h >>> bits) ^ h) & mask;
  const langBucket = { fa: bucketOf(feed(feed(FNV_OFFSET, TAG_LANG), 0x66)), en: bucketOf(feed(feed(FNV_OFFSET, TAG_LANG), 0x65)) };
  const wordMaxN = config.word?.maxN ?? 0;
  const joinPairs = config.word?.joinPairs ?? false;
  const charMinN = config.char?.minN ?? 0;
  const charMaxN = config.char?.maxN ?? 0;

  const termMaxN = config.terms?.maxN ?? 0;

  // Shared scratch, sized once: counts are zeroed again after every call. Term counts have
  // their own array (the word and char halves of `counts` are taken).
  const counts = new Uint32Array(size);
  const termCounts = termMaxN > 0 ? new Uint16Array(size) : null;
  let touched = new Int32Array(1024);
  let nTouched = 0;
  let outValues = new Float64Array(1024);
  let starts = new Int32Array(64);
  let ends = new Int32Array(64);
  // 0: a word or a single ? / !; otherwise the tag a symbol token hashes instead of its text.
  let isWord = new Uint8Array(64);
  let symbol = new Int32Array(64);
  const symbols = config.symbols === true;

  const pushTouched = (bucket: number) => {
    if (nTouched === touched.length) {
      const grown = new Int32Array(touched.length * 2);
      grown.set(touched);
      touched = grown;
    }
    touched[nTouched++] = bucket;
  };
  const untouched = (bucket: number) => counts[bucket] === 0 && (termCounts === null || termCounts[bucket] === 0);
  const touch = (bucket: number, shift: 0 | 16) => {
    const c = counts[bucket]!;
    if (untouched(bucket)) pushTouched(bucket);
    if (((c >>> shift) & HALF) !== HALF) counts[bucket] = c + (1 << shift);
  };

  const feedDigitShaped = (h: number, unit: number) => feed(h, unit >= ZERO && unit <= 0x39 ? ZERO : unit);
  const feedToken = (h: number, s: string, t: number) => {
    const tag = symbol[t]!;
    if (tag !== 0) return feed(feed(h, SYMBOL_RUN), tag);
    for (let i = starts[t]!; i < ends[t]!; i++) h = feedDigitShaped(h, s.charCodeAt(i));
    return h;
  };

  const isWordChar = wordChars();
  const pushToken = (n: number, start: number, end: number, word: 0 | 1, tag = 0) => {
    if (n === starts.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, make: (len: number) => T) => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      starts = grow(starts, (l) => new Int32Array(l));
      ends = grow(ends, (l) => new Int32Array(l));
      isWord = grow(isWord, (l) => new Uint8Array(l));
      symbol = grow(symbol, (l) => new Int32Array(l));
    }
    starts[n] = start;
    ends[n] = end;
    isWord[n] = word;
    symbol[n] = tag;
  };

  function tokenize(s: string, original: string): number {
    let n = 0;
    for (let i = 0; i < s.length; ) {
      const c = s.charCodeAt(i);
      if (isWordChar[c] === 1) {
        const start = i;
        while (i < s.length && isWordChar[s.charCodeAt(i)] === 1) i++;
        pushToken(n++, start, i, 1);
      } else if (c === QUESTION || c === EXCLAMATION) {
        pushToken(n++, i, i + 1, 0);
        const bang = (j: number) => j >= 0 && j < s.length && (s.charCodeAt(j) === QUESTION || s.charCodeAt(j) === EXCLAMATION);
        // The first mark of a run of two or more also starts one run token.
        if (symbols && !bang(i - 1) && bang(i + 1)) pushToken(n++, i, i + 1, 0, 1);
        i++;
      } else if (symbols && (isPictograph(c) || (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length))) {
        const cp = s.codePointAt(i)!;
        const width = cp > 0xffff ? 2 : 1;
        // The code point itself is the tag: one token per emoji, whatever its neighbours.
        if (isPictograph(cp)) pushToken(n++, i, i + width, 0, cp);
        i += width;
      } else i++;
    }
    if (symbols && isShouting(original)) pushToken(n++, 0, 0, 0, SYMBOL_SHOUT);
    return n;
  }

  function wordFeatures(s: string, nTokens: number) {
    for (let t = 0; t < nTokens; t++) {
      touch(bucketOf(feedToken(feed(FNV_OFFSET, TAG_WORD), s, t)), 0);
      if (wordMaxN < 2 || t + 1 >= nTokens || isWord[t] === 0 || isWord[t + 1] === 0) continue;
      const left = feedToken(feed(FNV_OFFSET, TAG_WORD), s, t);
      touch(bucketOf(feedToken(feed(left, SPACE), s, t + 1)), 0);
      if (joinPairs) touch(bucketOf(feedToken(left, s, t + 1)), 0);
    }
  }

  function charFeatures(s: string, nTokens: number) {
    for (let t = 0; t < nTokens; t++) {
      if (isWord[t] === 0) continue;
      const start = starts[t]!;
      // Positions -1 and len are the boundary markers.
      const len = ends[t]! - start;
      for (let i = -1; i <= len; i++) {
        let h = feed(FNV_OFFSET, TAG_CHAR);
        for (let n = 1; n <= charMaxN && i + n - 1 <= len; n++) {
          const pos = i + n - 1;
          h = feedDigitShaped(h, pos === -1 ? WORD_START : pos === len ? WORD_END : s.charCodeAt(start + pos));
          if (n >= charMinN) touch(bucketOf(h), 16);
        }
      }
    }
  }

  const feedTerm = (h: number, term: string) => {
    for (let i = 0; i < term.length; i++) h = feedDigitShaped(h, term.charCodeAt(i));
    return h;
  };
  function termFeatures(text: string, tc: Uint16Array) {
    const terms = analyze(text);
    const touchTerm = (bucket: number) => {
      if (untouched(bucket)) pushTouched(bucket);
      if (tc[bucket] !== HALF) tc[bucket] = tc[bucket]! + 1;
    };
    for (let t = 0; t < terms.length; t++) {
      const left = feedTerm(feed(FNV_OFFSET, TAG_TERM), terms[t]!);
      touchTerm(bucketOf(left));
      if (termMaxN >= 2 && t + 1 < terms.length) touchTerm(bucketOf(feedTerm(feed(left, SPACE), terms[t + 1]!)));
    }
  }

  function featurizeShared(text: string): SharedVector {
    const folded = foldForMatch(text);
    const nTokens = tokenize(folded, text);
    nTouched = 0;
    if (wordMaxN > 0) wordFeatures(folded, nTokens);
    if (charMaxN > 0) charFeatures(folded, nTokens);
    if (termCounts !== null) termFeatures(text, termCounts);
    let lang = -1;
    if (config.languageFeature && nTokens > 0) {
      const guess = detectLanguage(text);
      if (guess.confidence > 0) lang = langBucket[guess.language];
    }
    // A slot with zero counts that only carries the language (unless a feature hashed there).
    if (lang >= 0 && untouched(lang)) pushTouched(lang);

    let wordSq = 0;
    let charSq = 0;
    let termSq = 0;
    for (let i = 0; i < nTouched; i++) {
      const c = counts[touched[i]!]!;
      const w = tf(c & HALF);
      const ch = tf(c >>> 16);
      wordSq += w * w;
      charSq += ch * ch;
      if (termCounts !== null) {
        const te = tf(termCounts[touched[i]!]!);
        termSq += te * te;
      }
    }
    // Each non-empty family gets norm 1/√(families), so the whole vector has norm 1.
    const families = (wordSq > 0 ? 1 : 0) + (charSq > 0 ? 1 : 0) + (termSq > 0 ? 1 : 0);
    const wordScale = wordSq > 0 ? 1 / Math.sqrt(wordSq * families) : 0;
    const charScale = charSq > 0 ? 1 / Math.sqrt(charSq * families) : 0;
    const termScale = termSq > 0 ? 1 / Math.sqrt(termSq * families) : 0;

    const indices = touched.subarray(0, nTouched).sort();
    if (outValues.length < nTouched) outValues = new Float64Array(touched.length);
    for (let i = 0; i < nTouched; i++) {
      const b = indices[i]!;
      const c = counts[b]!;
      outValues[i] = tf(c & HALF) * wordScale + tf(c >>> 16) * charScale + (b === lang ? 1 : 0);
      counts[b] = 0;
      if (termCounts !== null) {
        outValues[i] = outValues[i]! + tf(termCounts[b]!) * termScale;
        termCounts[b] = 0;
      }
    }
    return { indices, values: outValues.subarray(0, nTouched), length: nTouched };
  }

  return {
    config,
    featurizeShared,
    featurize(text) {
      const shared = featurizeShared(text);
      return { indices: shared.indices.slice(), values: shared.values.slice() };
    },
  };
}

/**
 * Texts that exercise every normalisation and feature step. Their features, hashed, are the
 * artefact's fingerprint: when src/text's folding or this file changes what a text becomes,
 * a model trained before no longer matches, and loading it fails instead of silently scoring
 * different features than it was trained on.
 */
const PROBES = [
  "بيمه تكميلي ۱۲۳ ٤٥٦",
  "می‌خواهم بیمه‌نامه‌ام را لغو کنم!",
  "مُدیریَت بـیـمـه",
  "ﺑﯿﻤﻪ",
  "I WANT to talk to a Human?? Policy 12-3456",
  "Is بیمه the word for insurance?",
  "",
];
/** Probed only when symbol tokens are on, so artefacts without them keep their fingerprint. */
const SYMBOL_PROBE = "WHY?!! 😡😡 ❤️ 👍🏽 ok?";

export function featureFingerprint(config: FeatureConfig): string {
  const featurizer = createFeaturizer(config);
  const hash = createHash("sha256");
  for (const probe of config.symbols === true ? [...PROBES, SYMBOL_PROBE] : PROBES) {
    const v = featurizer.featurize(probe);
    hash.update(`${Array.from(v.indices).join(",")}|${Array.from(v.values, (x) => x.toPrecision(12)).join(",")}\n`);
  }
  return hash.digest("hex").slice(0, 16);
}
