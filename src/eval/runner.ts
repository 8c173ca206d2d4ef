import { gradeTurn, type TurnGrade } from "./grade.js";
import type { Expectation, Scenario } from "./scenario.js";
import type { EvalTarget, ObservedTurn } from "./target.js";

export interface TurnRecord {
  /** 1-based. */
  index: number;
  user: string;
  expect: Expectation;
  observed: ObservedTurn;
  grade: TurnGrade;
}

export type ConversationResult = { scenario: Scenario; status: "ran"; passed: boolean; turns: TurnRecord[] } | { scenario: Scenario; status: "skipped"; reason: string };

/** Where conversations run: plain scenarios on one target, fixture scenarios on one serving the test-only documents. */
export interface EvalTargets {
  plain: EvalTarget;
  /** null: fixture scenarios are skipped (a remote server without the eval fixtures). */
  fixtures: EvalTarget | null;
}

export interface RunOptions {
  scenarios: readonly Scenario[];
  targets: EvalTargets;
  /** Conversations in flight at once; each conversation's turns stay sequential. Default 4. */
  concurrency?: number;
  /** Makes thread and user ids unique to this run (a remote server keeps its threads). */
  runId: string;
}

/** Runs one conversation turn by turn on its own thread and user, grading each turn. */
export async function runConversation(scenario: Scenario, target: EvalTarget, runId: string): Promise<ConversationResult> {
  const threadId = `eval-${runId}-${scenario.id}`;
  const userId = `eval-${runId}-${scenario.id}`;
  const turns: TurnRecord[] = [];
  let previousOptions: ObservedTurn["options"] = [];
  for (const [i, turn] of scenario.turns.entries()) {
    const observed = await target.runTurn({
      threadId,
      userId,
      text: turn.user,
      ...(scenario.domain !== undefined ? { domain: scenario.domain } : {}),
    });
    const grade = gradeTurn(turn.expect, observed, { previousOptions, getChunk: (id) => target.getChunk(id) });
    turns.push({ index: i + 1, user: turn.user, expect: turn.expect, observed, grade });
    previousOptions = observed.options;
  }
  return { scenario, status: "ran", passed: turns.every((t) => t.grade.passed), turns };
}

type Placement = { kind: "run"; target: EvalTarget } | { kind: "skip"; reason: string };

function place(scenario: Scenario, targets: EvalTargets): Placement {
  if (scenario.fixtures.length === 0) return { kind: "run", target: targets.plain };
  const served = targets.fixtures?.fixtures ?? new Set<string>();
  const missing = scenario.fixtures.filter((id) => !served.has(id));
  if (targets.fixtures === null || missing.length > 0) {
    return { kind: "skip", reason: `needs the test-only documents ${(missing.length > 0 ? missing : scenario.fixtures).join(", ")}, which this target does not serve` };
  }
  return { kind: "run", target: targets.fixtures };
}

/** Runs every scenario with bounded concurrency; results come back in scenario order. */
export async function runScenarios(options: RunOptions): Promise<ConversationResult[]> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const results: ConversationResult[] = new Array(options.scenarios.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < options.scenarios.length) {
      const index = next++;
      const scenario = options.scenarios[index]!;
      const placement = place(scenario, options.targets);
      results[index] = placement.kind === "skip" ? { scenario, status: "skipped", reason: placement.reason } : await runConversation(scenario, placement.target, options.runId);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, options.scenarios.length) }, () => worker()));
  return results;
}
