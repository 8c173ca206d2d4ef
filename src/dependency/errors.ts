/**
 * Failures of the services frontdesk calls (model APIs, embedders, rerankers, vector stores),
 * shared by every layer that calls one. Retry policy is decided by kind, never by message text.
 */
export type DependencyErrorKind = "timeout" | "rate_limited" | "server" | "malformed_output" | "client" | "configuration" | "unavailable";

const RETRYABLE: ReadonlySet<DependencyErrorKind> = new Set(["timeout", "rate_limited", "server", "malformed_output"]);

export class DependencyError extends Error {
  override readonly name: string = "DependencyError";

  constructor(
    readonly kind: DependencyErrorKind,
    /** What was called, for logs and the handoff's detail: "gemini triage", "reranker", "qdrant". */
    readonly dependency: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}
