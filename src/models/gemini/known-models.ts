/**
 * Gemini model ids a model profile may name: text models of the Generative Language API that
 * accept a response schema (structured output), as known to @langchain/google-genai 2.3.2.
 * Kept in code, not in the bundle, so that a typo in a profile ("gemini-2.5-flahs") is refused
 * at start-up instead of failing every model call with a 404. Adding a model is a code change
 * on purpose: it should come with a run of the live smoke test.
 */
export const KNOWN_GEMINI_MODELS = [
  "gemini-2.0-flash",
  "gemini-2.0-flash-lite",
  "gemini-2.5-flash",
  "gemini-2.5-flash-lite",
  "gemini-2.5-pro",
  "gemini-3-flash-preview",
  "gemini-3-pro-preview",
  "gemini-flash-latest",
  "gemini-flash-lite-latest",
] as const;

export type KnownGeminiModel = (typeof KNOWN_GEMINI_MODELS)[number];

export function isKnownGeminiModel(model: string): model is KnownGeminiModel {
  return (KNOWN_GEMINI_MODELS as readonly string[]).includes(model);
}
