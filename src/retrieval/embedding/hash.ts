/**
 * Fixed, documented hashes. Feature hashing (the local embedder) and Qdrant sparse-vector
 * indices must give the same numbers on every machine and in every language we might port them
 * to, so they are defined over the UTF-8 bytes of a string, not over JS UTF-16 code units.
 */

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * 32-bit FNV-1a over the UTF-8 bytes of `text`; an unsigned integer in [0, 2^32). The UTF-8
 * encoding is done inline (no TextEncoder allocation): this runs for every feature of every
 * chunk at index time. A lone surrogate is encoded as U+FFFD, as TextEncoder would.
 */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET_BASIS;
  const mix = (byte: number): void => {
    hash = Math.imul(hash ^ byte, FNV_PRIME);
  };
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) {
      mix(code);
    } else if (code < 0x800) {
      mix(0xc0 | (code >> 6));
      mix(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      mix(0xe0 | (code >> 12));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    } else {
      mix(0xf0 | (code >> 18));
      mix(0x80 | ((code >> 12) & 0x3f));
      mix(0x80 | ((code >> 6) & 0x3f));
      mix(0x80 | (code & 0x3f));
    }
  }
  return hash >>> 0;
}

/**
 * MurmurHash3's 32-bit finaliser. FNV-1a's low bits are weakly mixed; running them through
 * fmix32 before taking a sign bit keeps the sign independent of the bucket (h mod dimension).
 */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
