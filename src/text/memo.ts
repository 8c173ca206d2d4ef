/**
 * A memo of a pure function of a string, for work that depends on a chunk's text alone (its
 * sentences, its analysed terms, what the instruction detector flags in it): computed the first
 * time a text is seen and looked up on every later turn. Bounded so a large remote corpus cannot
 * grow it without end: when full it starts over, which costs a recomputation, never a result.
 * Callers must treat what it returns as immutable: it is shared by every later lookup.
 */
export function memoByText<T>(compute: (text: string) => T, limit = 50_000): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    let value = cache.get(text);
    if (value === undefined && !cache.has(text)) {
      value = compute(text);
      if (cache.size >= limit) cache.clear();
      cache.set(text, value);
    }
    return value as T;
  };
}
