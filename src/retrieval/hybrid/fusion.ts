/**
 * Reciprocal-rank fusion (Cormack, Clarke & Büttcher, 2009): score(d) = Σ_lists 1 / (k + rank),
 * rank counted from 1. It uses ranks only, so BM25 scores (unbounded) and cosines (-1..1) fuse
 * without calibration; k = 60 is the paper's value and damps the weight of the very top ranks.
 */

export interface FusedItem {
  id: string;
  score: number;
  /** 1-based rank of the id in each input list, `undefined` where it is absent. */
  ranks: (number | undefined)[];
}

/**
 * Fuses ranked lists of ids, best first. Ties (equal fused score) go to the id with the better
 * best rank, then to the id seen first (lists in order, each from its top), so the output is a
 * pure function of the input. A repeated id within one list counts at its first position only.
 */
export function rrf(lists: readonly (readonly string[])[], k = 60): FusedItem[] {
  if (!(k >= 0)) throw new RangeError(`k must be >= 0, got ${k}`);
  const items = new Map<string, FusedItem & { firstSeen: number; bestRank: number }>();
  let seen = 0;
  lists.forEach((list, listIndex) => {
    list.forEach((id, position) => {
      let item = items.get(id);
      if (item === undefined) {
        item = { id, score: 0, ranks: new Array<number | undefined>(lists.length).fill(undefined), firstSeen: seen++, bestRank: Infinity };
        items.set(id, item);
      }
      if (item.ranks[listIndex] !== undefined) return;
      const rank = position + 1;
      item.ranks[listIndex] = rank;
      item.score += 1 / (k + rank);
      item.bestRank = Math.min(item.bestRank, rank);
    });
  });
  return [...items.values()].sort((a, b) => b.score - a.score || a.bestRank - b.bestRank || a.firstSeen - b.firstSeen).map(({ id, score, ranks }) => ({ id, score, ranks }));
}
