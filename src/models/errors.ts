import { DependencyError, type DependencyErrorKind } from "../dependency/errors.js";
import type { TokenUsage } from "./provider.js";

/**
 * Why a model call failed: the dependency kinds (retry is decided by kind). "unavailable" is the
 * provider's circuit refusing the call without making it (circuit.ts): not retried.
 */
export type ModelErrorKind = DependencyErrorKind;

/** A failed model call of one role. */
export class ModelError extends DependencyError {
  override readonly name = "ModelError";
  /** Tokens the failed call still used (a reply that failed its schema was generated and billed). */
  readonly usage?: TokenUsage;

  constructor(
    override readonly kind: ModelErrorKind,
    readonly role: string,
    message: string,
    options?: { cause?: unknown; usage?: TokenUsage },
  ) {
    super(kind, `model ${role}`, message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.usage !== undefined) this.usage = options.usage;
  }
}
