import { splitSentences } from "../../src/text/sentences.js";
import { chunksInPrompt, statementsInPrompt, userMessageInPrompt, type GenerateHandler } from "./fake-gemini.js";

const words = (text: string) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2));

/**
 * A plausible, naive model behind the fake Gemini: every message is a knowledge question, the
 * query is the message itself, every retrieved chunk is relevant, and the answer quotes the one
 * chunk sentence that shares the most words with the message (answered: false when none does).
 * Enough to drive real turns through the Gemini provider; it measures the graph, not a model.
 */
export function quotingResponder(): GenerateHandler {
  return (call) => {
    switch (call.role) {
      case "triage":
        return { json: { intent: "knowledge", confidence: 0.9 } };
      case "contextualize":
        return { json: { query: userMessageInPrompt(call.user) || "insurance" } };
      case "grade": {
        const ids = chunksInPrompt(call.user).map((c) => c.id);
        return { json: { verdict: ids.length > 0 ? "sufficient" : "insufficient", relevantChunkIds: ids } };
      }
      case "clarify":
        return { json: { question: "Which of these products do you mean?" } };
      case "generate": {
        const asked = words(userMessageInPrompt(call.user));
        let best: { id: string; sentence: string; overlap: number } | null = null;
        for (const chunk of chunksInPrompt(call.user)) {
          for (const sentence of splitSentences(chunk.text)) {
            const overlap = [...words(sentence)].filter((w) => asked.has(w)).length;
            if (overlap > 0 && (best === null || overlap > best.overlap)) best = { id: chunk.id, sentence, overlap };
          }
        }
        return best === null
          ? { json: { claims: [], answered: false, confidence: 0.1 } }
          : { json: { claims: [{ text: best.sentence, chunkIds: [best.id] }], answered: true, confidence: 0.8 } };
      }
      case "verify":
        return { json: { claims: statementsInPrompt(call.user).map((_, index) => ({ index, supported: true, reason: "stated in the cited chunk" })) } };
      case "extract_memory":
        return { json: { facts: {} } };
      default:
        return { status: 400, message: "the quoting responder does not know this response schema" };
    }
  };
}
