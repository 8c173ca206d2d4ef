import { analyze, analyzeWord, words } from "../../text/analysis/index.js";
import type { Embedder } from "../types.js";
import { fmix32, fnv1a32 } from "./hash.js";
import { normalize } from "./normalize.js";

export interface LocalEmbedderOptions {
  /** Vector length. Default 384 (the size of small sentence-embedding models). */
  dimension?: number;
  /** Weight of the character n-gram block against the term block (weight 1). Default 0.5. */
  ngramWeight?: number;
  /** Shortest character n-gram. Default 3. */
  minGram?: number;
  /** Longest character n-gram. Default 5. */
  maxGram?: number;
}

/**
 * A deterministic embedding that needs no model: signed feature hashing of two blocks.
 *
 * - Terms: `analyze()` terms (stemmed, stopwords removed, ZWNJ compounds), feature `t:<term>`.
 * - Character n-grams (3..5 by default) of each non-stopword, normalised, unstemmed word
 *   wrapped in `<` `>`, feature `g:<gram>`. They give morphology and typo tolerance in both
 *   scripts: "بیمهنامه" (ZWNJ dropped) shares most n-grams with "بیمه" + "نامه".
 *
 * Each feature's count is damped (1 + ln tf), hashed with FNV-1a-32 over its UTF-8 bytes to a
 * bucket (hash mod dimension) and a sign (top bit of fmix32(hash)), so collisions cancel in
 * expectation instead of piling up. Each block is L2-normalised, the n-gram block is scaled by
 * `ngramWeight`, and the sum is L2-normalised again: without the per-block normalisation the
 * ~20 n-grams of every word would drown the one term feature. A pure function of the text.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): Embedder {
  const config = resolveLocalOptions(options);
  return {
    id: `local-hash-v1:d${config.dimension}:g${config.minGram}-${config.maxGram}:w${config.ngramWeight}`,
    dimension: config.dimension,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      return texts.map((text) => embedLocal(text, config));
    },
  };
}

function resolveLocalOptions(options: LocalEmbedderOptions): Required<LocalEmbedderOptions> {
  const config = {
    dimension: options.dimension ?? 384,
    ngramWeight: options.ngramWeight ?? 0.5,
    minGram: options.minGram ?? 3,
    maxGram: options.maxGram ?? 5,
  };
  if (!Number.isInteger(config.dimension) || config.dimension < 8) throw new RangeError(`dimension must be an integer >= 8, got ${config.dimension}`);
  if (!(config.ngramWeight >= 0)) throw new RangeError(`ngramWeight must be >= 0, got ${config.ngramWeight}`);
  if (!Number.isInteger(config.minGram) || config.minGram < 1 || !Number.isInteger(config.maxGram) || config.maxGram < config.minGram) {
    throw new RangeError(`need integers 1 <= minGram <= maxGram, got ${config.minGram}..${config.maxGram}`);
  }
  return config;
}

/** The local embedding of one text (see `createLocalEmbedder`). The zero vector for a text without terms. */
export function embedLocal(text: string, options: LocalEmbedderOptions = {}): Float32Array {
  const { dimension, ngramWeight, minGram, maxGram } = resolveLocalOptions(options);
  const terms = new Map<string, number>();
  const grams = new Map<string, number>();
  for (const term of analyze(text)) increment(terms, `t:${term}`);
  for (const word of words(text)) {
    if (analyzeWord(word) === null) continue; // stopwords add no n-grams either
    const padded = `<${word}>`;
    // Grams are taken over code points so one never splits a surrogate pair; words without
    // surrogates (all Persian and English text) take the faster string-slice path.
    const units: string | string[] = /[\uD800-\uDFFF]/.test(padded) ? [...padded] : padded;
    for (let n = minGram; n <= maxGram; n++) {
      for (let i = 0; i + n <= units.length; i++) {
        increment(grams, `g:${typeof units === "string" ? units.slice(i, i + n) : units.slice(i, i + n).join("")}`);
      }
    }
  }
  const vector = new Float32Array(dimension);
  addBlock(vector, hashBlock(terms, dimension), 1);
  addBlock(vector, hashBlock(grams, dimension), ngramWeight);
  return normalize(vector);
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function hashBlock(counts: ReadonlyMap<string, number>, dimension: number): Float64Array {
  const block = new Float64Array(dimension);
  for (const [feature, tf] of counts) {
    const hash = fnv1a32(feature);
    const sign = fmix32(hash) >>> 31 === 0 ? 1 : -1;
    block[hash % dimension] = (block[hash % dimension] ?? 0) + sign * (1 + Math.log(tf));
  }
  return block;
}

function addBlock(target: Float32Array, block: Float64Array, weight: number): void {
  let norm = 0;
  for (const value of block) norm += value * value;
  if (norm === 0 || weight === 0) return;
  const scale = weight / Math.sqrt(norm);
  for (let i = 0; i < block.length; i++) target[i] = (target[i] ?? 0) + (block[i] ?? 0) * scale;
}
