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
  const all = splitSentences(text);
  const sentences = withoutPleasantries(all);
  if (sentences.length === 0) return text.trim();
  const whole = sentences.length === all.length && sentences.every((s, i) => s === all[i]) ? text.trim() : sentences.join(" ");
  const questions = sentences.filter((s) => /[?\u061F]$/u.test(s));
  return questions.length > 0 && questions.length < sentences.length ? questions.join(" ") : whole;
}

// "Good morning!", «سلام، وقت بخیر»: a greeting is how a message opens, not what it asks.
const PLEASANTRY_WORDS = new Set(
  `hi hello hey hiya heya yo good morning afternoon evening day there dear team sir madam all guys folks thanks thank you thx please
  سلام سلامم درود وقت وقتتون بخیر به خیر صبح ظهر عصر شب خسته نباشید ممنون مرسی لطفا`.split(/\s+/u),
);
// "quick one -", "quick question:": an opening of the question, not part of it.
const OPENING = /^(?:(?:a\s+)?quick\s+(?:one|question|q)|one\s+(?:more\s+)?(?:thing|question)|question)\s*[-–—:,]\s*/iu;

/** A sentence without the greeting it opens with ("hi, if my phone…", «با سلام، اگر…»). */
export function withoutGreeting(sentence: string): string {
  let rest = sentence;
  for (;;) {
    const m = /^\s*(?:با\s+)?([\p{L}]+)[\s,،!.]*/u.exec(rest);
    if (m === null || !PLEASANTRY_WORDS.has(m[1]!.toLowerCase()) || m[0].length === rest.length) return rest.trimStart();
    rest = rest.slice(m[0].length);
  }
}

function withoutPleasantries(sentences: readonly string[]): string[] {
  const isPleasantry = (s: string) => {
    const words = s.toLowerCase().match(/[\p{L}]+/gu) ?? [];
    return words.length > 0 && words.every((w) => PLEASANTRY_WORDS.has(w));
  };
  const kept = sentences.filter((s) => !isPleasantry(s));
  if (kept.length === 0) return [...sentences];
  return kept.map((s, i) => (i === 0 ? s.replace(OPENING, "") : s)).filter((s) => s !== "");
}

// How a message asks, in either language: a question mark, an interrogative or an auxiliary
// opening it, or a request to be told ("tell me", «بگید»). Without one, a message only states
// ("it's for my aunt, she's visiting"; "we want the Plus plan" tells which, it asks nothing new).
const EN_OPENS_QUESTION =
  /^(?:what|what's|whats|how|which|when|where|who|whom|whose|why|is|isn't|are|aren't|am|was|were|do|does|doesn't|don't|did|can|can't|could|will|won't|would|should|shall|may|might|have|has|any|anything)\b/iu;
const EN_ASKS = /\b(?:what|how|which|when|where|why|whether|tell me|let me know|explain|wondering|want to know|like to know|need to know|quote)\b/iu;
const FA_ASKS = /(?<![\p{L}])(?:چقدر|چقدره|چقد|چند|چنده|چه|چی|چیه|چیست|کدام|کدوم|کجا|کجاست|چرا|آیا|ایا|چطور|چطوری|چگونه|کی|بگید|بگین|بگویید|بفرمایید|توضیح|بدونم)(?![\p{L}])/u;

/**
 * A follow-up says at most this many content terms ("and for my wife?"); a message that asks
 * nothing and says more states its case (the offline rewrite and the reader read it so alike).
 */
export const FOLLOW_UP_TERMS = 2;

/** True when a message asks something (a question or a request), false when it only states. */
export function asksSomething(text: string): boolean {
  const trimmed = text.trim();
  if (/[?\u061F]/u.test(trimmed)) return true;
  return splitSentences(trimmed).some((s) => EN_OPENS_QUESTION.test(s) || EN_ASKS.test(s) || FA_ASKS.test(s));
}
