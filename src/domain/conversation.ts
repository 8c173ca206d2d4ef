import type { Language } from "../text/language.js";

/** One completed exchange, as the model roles see recent history. */
export interface HistoryLine {
  user: string;
  /** What the agent replied (answer text, clarify question or escalation message). */
  reply: string;
  outcome: "answer" | "clarify" | "escalate";
  language: Language;
  /** The standalone query retrieval ran for this turn, when it ran. */
  rewrittenQuery?: string;
  /** Products of the chunks cited or offered in this turn, to resolve follow-ups. */
  products?: string[];
}
