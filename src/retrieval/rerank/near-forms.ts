/**
 * Near forms for the lexical reranker: one word a prefix (≥ 4 letters) of the other, or a spelling
 * variant of about the same length (character-trigram Dice), with memoised results.
 */

const NEAR_CREDIT = 0.7;
const MIN_DICE = 0.6;
/** Query words whose similarities the reranker keeps. */
const NEAR_CACHE_WORDS = 2_000;

/**
 * Near-form similarity with memoised trigram sets and results. Candidates of one query share
 * most of their vocabulary, so one cache per rerank call removes nearly all repeated work.
 */
export class NearFormCache {
  private readonly grams = new Map<string, Set<string>>();
  private readonly results = new Map<string, Map<string, number>>();

  /** Similarities to `a`, for many words in a row. */
  row(a: string): (b: string) => number {
    const row = this.rowOf(a);
    return (b) => {
      let result = row.get(b);
      if (result === undefined) {
        result = this.compute(a, b);
        row.set(b, result);
      }
      return result;
    };
  }

  private rowOf(a: string): Map<string, number> {
    let row = this.results.get(a);
    if (row === undefined) {
      // Bounded: starting over costs recomputation, never a different result.
      if (this.results.size >= NEAR_CACHE_WORDS) {
        this.results.clear();
        this.grams.clear();
      }
      row = new Map();
      this.results.set(a, row);
    }
    return row;
  }

  private compute(a: string, b: string): number {
    if (/\d/u.test(b)) return 0;
    const [short, long] = a.length <= b.length ? [a, b] : [b, a];
    if (short.length >= 4 && long.startsWith(short)) return NEAR_CREDIT * (short.length / long.length >= 0.6 ? 1 : 0.8);
    // Typos and spelling variants change a word's length by a letter or two; longer
    // differences are affixes, which the prefix rule above handles. Skipping them saves most
    // of the trigram work.
    if (long.length - short.length > 2) return 0;
    const ga = this.trigrams(a);
    const gb = this.trigrams(b);
    let shared = 0;
    for (const gram of ga) if (gb.has(gram)) shared++;
    const dice = (2 * shared) / (ga.size + gb.size);
    return dice >= MIN_DICE ? NEAR_CREDIT * dice : 0;
  }

  private trigrams(word: string): Set<string> {
    let set = this.grams.get(word);
    if (set === undefined) {
      const chars = [...`<${word}>`];
      set = new Set<string>();
      for (let i = 0; i + 3 <= chars.length; i++) set.add(chars.slice(i, i + 3).join(""));
      this.grams.set(word, set);
    }
    return set;
  }
}

/** False when `b` cannot be a near form of `a`: lengths apart by more than 2 and neither a prefix of the other (see NearFormCache.compute). */
export function mayBeNear(a: string, b: string): boolean {
  const difference = a.length - b.length;
  if (difference <= 2 && difference >= -2) return true;
  return difference > 0 ? b.length >= 4 && a.startsWith(b) : a.length >= 4 && b.startsWith(a);
}
