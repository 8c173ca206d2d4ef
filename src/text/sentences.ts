/**
 * Splits text into sentences for extractive answers and per-sentence verification. Splits at
 * sentence punctuation (Latin and Arabic) followed by whitespace, and at line breaks, so
 * markdown list items are sentences of their own. Decimal points ("1.5") never split.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/u)) {
    const cleaned = line
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/u, "")
      .replace(/^#+\s*/u, "")
      .trim();
    if (cleaned === "") continue;
    for (const part of cleaned.split(/(?<=[.!?\u061F\u06D4])\s+(?=\S)/u)) {
      const sentence = part.trim();
      if (sentence !== "") out.push(sentence);
    }
  }
  return out;
}

/**
 * What a message asks: its question sentences when it mixes statements and questions ("I drive a
 * Peugeot 206. What is the deductible?"). The statements are context (memory keeps them); their
 * words (a car model, a city) would only dilute a retrieval query.
 */
export function questionOf(text: string): string {
  const sentences = splitSentences(text);
  const questions = sentences.filter((s) => /[?\u061F]$/u.test(s));
  return questions.length > 0 && questions.length < sentences.length ? questions.join(" ") : text.trim();
}
