import { ModelError, type ModelErrorKind } from "../errors.js";

/**
 * Maps what @langchain/google-genai (and the @google/generative-ai client under it) throws to a
 * ModelError kind, which alone decides retries: 429 → rate_limited, 5xx and an unreachable
 * endpoint → server, 408 → timeout, other 4xx (bad key, unknown model, refused request) →
 * client, an empty or blocked reply → malformed_output (or client when the prompt itself was
 * blocked: asking again cannot help). Timeouts and aborts are decided by the caller, which
 * knows which of its signals fired.
 */
export function geminiErrorKind(error: unknown): ModelErrorKind {
  const status = statusOf(error);
  if (status !== undefined) {
    if (status === 429) return "rate_limited";
    if (status === 408) return "timeout";
    if (status >= 500) return "server";
    if (status >= 400) return "client";
  }
  if (error instanceof Error) {
    if (error.name === "EmptyContentError") return "blockReason" in error && error.blockReason !== undefined ? "client" : "malformed_output";
    if (error.name === "OutputParserException") return "malformed_output";
    // The client wraps a failed fetch (refused connection, reset, DNS) in a plain error with no
    // status; only its message says so. Transient like a 503: retried.
    if (error.message.startsWith("[GoogleGenerativeAI Error]: Error fetching from")) return "server";
    if (error.message.startsWith("[GoogleGenerativeAI Error]")) return "malformed_output";
  }
  return "client";
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("status" in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === "number" && Number.isInteger(status) ? status : undefined;
}

/** A safe one-line description: the status, never the request (which holds user text). */
export function toModelError(role: string, error: unknown): ModelError {
  const kind = geminiErrorKind(error);
  const status = statusOf(error);
  const what = status !== undefined ? `HTTP ${status}` : error instanceof Error ? error.name : "error";
  return new ModelError(kind, role, `gemini ${role} call failed (${kind}, ${what})`, { cause: error });
}
