import { ModelError } from "../models/errors.js";
import type { TokenUsage } from "../models/provider.js";
import type { Role, RoleIO } from "../models/roles.js";
import { withRetry } from "../dependency/retry.js";
import type { AgentDeps } from "./deps.js";
import type { AgentStateValue, PendingEscalation } from "./state.js";
import type { RoleUsage } from "../domain/turn.js";

/** The accounting a node returns with its own update after a model call. */
export interface ModelAccounting {
  modelCalls: number;
  usage: Record<string, RoleUsage>;
}

export type ModelCallResult<R extends Role> =
  | { kind: "ok"; output: RoleIO[R]["output"]; accounting: ModelAccounting }
  /** The turn's model-call budget is spent: the call was not made. */
  | { kind: "budget_exhausted"; escalation: PendingEscalation; accounting: ModelAccounting }
  /** The call failed after its retries, or the turn's time for model calls ran out: hand off rather than guess. */
  | { kind: "failed"; escalation: PendingEscalation; accounting: ModelAccounting };

/** An attempt that was not made: the budget or the turn's time is spent. Never retried. */
class AttemptRefused extends Error {
  override readonly name = "AttemptRefused";
  constructor(readonly reason: "budget" | "deadline") {
    super(`model call refused: ${reason}`);
  }
}

function addUsage(usage: Record<string, RoleUsage>, role: Role, tokens: TokenUsage | undefined): Record<string, RoleUsage> {
  const previous = usage[role] ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
  return {
    ...usage,
    [role]: {
      calls: previous.calls + 1,
      inputTokens: previous.inputTokens + (tokens?.inputTokens ?? 0),
      outputTokens: previous.outputTokens + (tokens?.outputTokens ?? 0),
    },
  };
}

/**
 * Every model call of the graph goes through here: the per-turn budget is checked first (the
 * ADR's ~8 calls), retries follow the policy, and each attempt counts against the budget and in
 * the role's stats (with the tokens a failed attempt still used). When the turn has a deadline,
 * attempts get only the time left before it (minus the hand-off reserve) and no retry starts
 * that could not finish in time, so a hanging model ends in an escalation, not in a deadline
 * error. Aborts (client cancel, deadline) propagate untouched; they are not failures to hand off.
 */
export async function callModel<R extends Role>(
  deps: AgentDeps,
  state: Pick<AgentStateValue, "modelCalls" | "usage" | "turn">,
  role: R,
  input: RoleIO[R]["input"],
  signal?: AbortSignal,
): Promise<ModelCallResult<R>> {
  const budget = deps.settings.budgets.modelCalls;
  const deadlineAtMs = state.turn?.deadlineAtMs;
  const modelDeadline = deadlineAtMs === undefined ? undefined : deadlineAtMs - deps.settings.handoffReserveMs;
  let accounting: ModelAccounting = { modelCalls: state.modelCalls, usage: state.usage };
  if (accounting.modelCalls >= budget) {
    return {
      kind: "budget_exhausted",
      escalation: { reason: "budget_exhausted", detail: `model-call budget of ${budget} per turn spent before ${role}` },
      accounting,
    };
  }
  let attempts = 0;
  try {
    const response = await withRetry(
      async () => {
        if (accounting.modelCalls >= budget) throw new AttemptRefused("budget");
        const timeLeft = modelDeadline === undefined ? undefined : modelDeadline - deps.now();
        if (timeLeft !== undefined && timeLeft <= 0) throw new AttemptRefused("deadline");
        attempts++;
        accounting = { ...accounting, modelCalls: accounting.modelCalls + 1 };
        try {
          const result = await deps.models.invoke(role, input, { ...(signal ? { signal } : {}), ...(timeLeft !== undefined ? { timeoutMs: timeLeft } : {}) });
          accounting = { ...accounting, usage: addUsage(accounting.usage, role, result.usage) };
          return result;
        } catch (error) {
          accounting = { ...accounting, usage: addUsage(accounting.usage, role, error instanceof ModelError ? error.usage : undefined) };
          throw error;
        }
      },
      deps.settings.retry,
      {
        ...(signal ? { signal } : {}),
        onRetry: () => deps.telemetry?.metrics.modelRetries.inc({ role, provider: deps.models.id }),
        allowRetry: (delayMs) => modelDeadline === undefined || deps.now() + delayMs < modelDeadline,
      },
    );
    return { kind: "ok", output: response.output, accounting };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    deps.logger.warn({ err: error, role, attempts }, "model call failed after retries; the turn escalates");
    let escalation: PendingEscalation;
    if (error instanceof AttemptRefused && error.reason === "budget") {
      escalation = { reason: "budget_exhausted", detail: `model-call budget of ${budget} per turn spent while retrying ${role}` };
    } else if (error instanceof AttemptRefused) {
      escalation = { reason: "dependency_failure", detail: `${role} model call: the turn's time for model calls ran out after ${attempts} attempt(s)` };
    } else {
      const kind = error instanceof ModelError ? error.kind : "unknown";
      escalation = { reason: "dependency_failure", detail: `${role} model call failed (${kind}) after ${attempts} attempt(s)` };
    }
    return { kind: "failed", escalation, accounting };
  }
}
