import type { ClarifyInput, ClarifyOutput } from "../roles.js";
import { normalizeText } from "../../text/index.js";

/**
 * The clarifying question names the options retrieval produced, in their order, and nothing
 * else: the options themselves are fixed by the agent and shown as buttons.
 */

/** The schema's limit on the question's length. */
const MAX_QUESTION_CHARS = 400;

function list(options: readonly string[], comma: string, or: string): string {
  if (options.length <= 1) return options.join("");
  return `${options.slice(0, -1).join(comma)} ${or} ${options[options.length - 1]}`;
}

export function clarify(input: ClarifyInput): ClarifyOutput {
  const options = input.options.map((o) => normalizeText(o)).filter((o) => o !== "");
  const fa = input.language === "fa";
  let question: string;
  if (options.length === 0) {
    question = fa ? "لطفاً بفرمایید منظورتان کدام بیمه است؟" : "Which insurance product do you mean?";
  } else if (options.length === 1) {
    question = fa ? `منظورتان ${options[0]} است؟` : `Do you mean ${options[0]}?`;
  } else {
    question = fa ? `منظورتان کدام است: ${list(options, "، ", "یا")}؟` : `Which one do you mean: ${list(options, ", ", "or")}?`;
  }
  // Too many long labels: ask without naming them; the options are still shown as buttons.
  if (question.length > MAX_QUESTION_CHARS) {
    question = fa ? "منظورتان کدام یک از گزینه‌های زیر است؟" : "Which of the following options do you mean?";
  }
  return { question };
}
