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

/** A list as parsed, before flattening: each item's own text and its nested lists. */
export interface ListTree {
  ordered: boolean;
  items: { text: string; lists: ListTree[] }[];
}

/**
 * A list's items as flat texts. In a bulleted list a nested item becomes an item of its own with
 * its parent as context ("Baggage — lost in transit"), because alone it may not say what it is
 * about. In a numbered list the nested items are folded into their step ("Send the form — with
 * the invoices; with the report"), so the steps keep their numbers.
 */
export function flattenList(list: ListTree, context: string | null = null): string[] {
  const out: string[] = [];
  for (const item of list.items) {
    const own = collapse(item.text);
    const text = context === null ? own : own === "" ? context : `${context} — ${own}`;
    if (list.ordered) {
      const details = item.lists.flatMap((nested) => flattenList(nested));
      const step = details.length === 0 ? text : text === "" ? details.join("; ") : `${text} — ${details.join("; ")}`;
      if (step !== "") out.push(step);
      continue;
    }
    if (own !== "") out.push(text);
    for (const nested of item.lists) out.push(...flattenList(nested, text === "" ? null : text));
  }
  return out;
}
