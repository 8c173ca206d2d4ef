import { ModelError } from "../models/errors.js";
import type { Role, RoleIO } from "../models/roles.js";
import { withRetry } from "../models/retry.js";
import type { AgentDeps } from "./deps.js";
import type { AgentStateValue, PendingEscalation } from "./state.js";
import type { RoleUsage } from "./types.js";

/** The accounting a node returns with its own update after a model call. */
export interface ModelAccounting {
  modelCalls: number;
  usage: Record<string, RoleUsage>;
}

export type ModelCallResult<R extends Role> =
  | { kind: "ok"; output: RoleIO[R]["output"]; accounting: ModelAccounting }
  /** The turn's model-call budget is spent: the call was not made. */
  | { kind: "budget_exhausted"; escalation: PendingEscalation; accounting: ModelAccounting }
  /** The call failed after its retries: hand off rather than guess. */
  | { kind: "failed"; escalation: PendingEscalation; accounting: ModelAccounting };

function addUsage(usage: Record<string, RoleUsage>, role: Role, inputTokens: number, outputTokens: number): Record<string, RoleUsage> {
  const previous = usage[role] ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
  return {
    ...usage,
    [role]: {
      calls: previous.calls + 1,
      inputTokens: previous.inputTokens + inputTokens,
      outputTokens: previous.outputTokens + outputTokens,
    },
  };
}

/**
 * Every model call of the graph goes through here: the per-turn budget is checked first (the
 * ADR's ~8 calls), retries follow the policy, and each attempt counts against the budget.
 * Aborts (client cancel, deadline) propagate untouched; they are not failures to hand off.
 */
export async function callModel<R extends Role>(
  deps: AgentDeps,
  state: Pick<AgentStateValue, "modelCalls" | "usage">,
  role: R,
  input: RoleIO[R]["input"],
  signal?: AbortSignal,
): Promise<ModelCallResult<R>> {
  const budget = deps.settings.budgets.modelCalls;
  let accounting: ModelAccounting = { modelCalls: state.modelCalls, usage: state.usage };
  if (accounting.modelCalls >= budget) {
    return {
      kind: "budget_exhausted",
      escalation: { reason: "budget_exhausted", detail: `model-call budget of ${budget} per turn spent before ${role}` },
      accounting,
    };
  }
  try {
    const response = await withRetry(
      async () => {
        if (accounting.modelCalls >= budget) {
          throw new ModelError("client", role, `model-call budget of ${budget} per turn spent during retries`);
        }
        accounting = { ...accounting, modelCalls: accounting.modelCalls + 1 };
        const result = await deps.models.invoke(role, input, signal ? { signal } : {});
        accounting = { ...accounting, usage: addUsage(accounting.usage, role, result.usage.inputTokens, result.usage.outputTokens) };
        return result;
      },
      deps.settings.retry,
      signal ? { signal } : {},
    );
    return { kind: "ok", output: response.output, accounting };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    deps.logger.warn({ err: error, role }, "model call failed after retries; the turn escalates");
    const kind = error instanceof ModelError ? error.kind : "unknown";
    const budgetSpent = accounting.modelCalls >= budget && error instanceof ModelError && error.kind === "client";
    return {
      kind: "failed",
      escalation: budgetSpent
        ? { reason: "budget_exhausted", detail: `model-call budget of ${budget} per turn spent while retrying ${role}` }
        : { reason: "dependency_failure", detail: `${role} model call failed (${kind}) after retries` },
      accounting,
    };
  }
}
