/** Why a model call failed. Retry policy is decided by kind, never by message text. */
export type ModelErrorKind = "timeout" | "rate_limited" | "server" | "malformed_output" | "client" | "configuration";

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(["timeout", "rate_limited", "server", "malformed_output"]);

export class ModelError extends Error {
  override readonly name = "ModelError";
  constructor(
    readonly kind: ModelErrorKind,
    readonly role: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}
