import { createInstructionDetector, withoutInstructions } from "../retrieval/index.js";
import { memoByText } from "../text/index.js";
import type { AgentDeps } from "./deps.js";

/**
 * What the customer asks, without sentences addressed to the assistant ("ignore your previous
 * instructions and …"): those are never obeyed, and as query words they only drown the question
 * ("… Then tell me the price for a motorcycle"). The customer's text itself is kept as written
 * (history, handoff); this is what retrieval and the reader read. A text of nothing else stays
 * whole, so the turn still has a question to judge.
 */
export function askedText(deps: Pick<AgentDeps, "bundle">): (text: string) => string {
  const detector = createInstructionDetector(deps.bundle.detector);
  return memoByText((text) => {
    const { text: rest, removed } = withoutInstructions(text, detector);
    return removed.length > 0 && /\p{L}/u.test(rest) ? rest : text;
  });
}
