import type { Role, RoleIO } from "./roles.js";

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelResponse<T> {
  output: T;
  usage: TokenUsage;
}

export interface ModelCallOptions {
  /** The turn's signal: aborted when the client cancels or its deadline passes. */
  signal?: AbortSignal;
  /**
   * At most this long for this call (what is left of the turn's time for model calls); the
   * provider's own per-call timeout applies when it is shorter. Exceeding it is a "timeout".
   */
  timeoutMs?: number;
}

/**
 * Every model call of a turn goes through this interface: one method, one typed and validated
 * output per role. Implementations: the deterministic offline provider (embedded default, tests)
 * and Gemini. A failed call throws ModelError; an aborted one rethrows the abort.
 */
export interface ModelProvider {
  /** "offline" or "gemini": reported in logs and stats. */
  readonly id: string;
  invoke<R extends Role>(role: R, input: RoleIO[R]["input"], options?: ModelCallOptions): Promise<ModelResponse<RoleIO[R]["output"]>>;
}
