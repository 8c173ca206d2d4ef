/**
 * The only text changes the document model makes: whitespace collapse and splitting at sentence
 * or word boundaries. Everything else stays verbatim, so a cited unit shows exactly what the
 * insurer wrote (Persian digits included).
 */

/** Collapses runs of whitespace (including no-break spaces and line breaks) to one space. */
export function collapse(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

// Latin and Arabic full stops, question and exclamation marks, then whitespace. A decimal point
// ("1.5") is followed by a digit, not whitespace, so it never splits.
const SENTENCE_END = /(?<=[.!?\u061F\u06D4])\s+(?=\S)/u;

/** The sentences of one collapsed paragraph, verbatim. */
export function sentencesOf(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
}

/**
 * Packs sentences into pieces of at most `maxChars`; a longer sentence is cut at the last space
 * that fits (a word longer than a piece is cut, never between surrogate halves).
 */
export function splitToFit(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const pieces: string[] = [];
  let current = "";
  for (const sentence of sentencesOf(text)) {
    for (const part of sentence.length <= maxChars ? [sentence] : hardSplit(sentence, maxChars)) {
      if (current === "") current = part;
      else if (current.length + 1 + part.length <= maxChars) current = `${current} ${part}`;
      else {
        pieces.push(current);
        current = part;
      }
    }
  }
  if (current !== "") pieces.push(current);
  return pieces;
}

function hardSplit(text: string, maxChars: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    let cut = rest.lastIndexOf(" ", maxChars);
    if (cut <= 0) {
      cut = maxChars;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== "") out.push(rest);
  return out;
}

/** Whether two headings or titles say the same thing, ignoring case and spacing. */
export function sameText(a: string, b: string): boolean {
  return collapse(a).toLowerCase() === collapse(b).toLowerCase();
}
