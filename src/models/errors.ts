import type { TokenUsage } from "./provider.js";

/** Why a model call failed. Retry policy is decided by kind, never by message text. */
export type ModelErrorKind = "timeout" | "rate_limited" | "server" | "malformed_output" | "client" | "configuration";

const RETRYABLE: ReadonlySet<ModelErrorKind> = new Set(["timeout", "rate_limited", "server", "malformed_output"]);

export class ModelError extends Error {
  override readonly name = "ModelError";
  /** Tokens the failed call still used (a reply that failed its schema was generated and billed). */
  readonly usage?: TokenUsage;

  constructor(
    readonly kind: ModelErrorKind,
    readonly role: string,
    message: string,
    options?: { cause?: unknown; usage?: TokenUsage },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.usage !== undefined) this.usage = options.usage;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}
