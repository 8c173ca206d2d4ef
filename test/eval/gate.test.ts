import { readFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/domain/logger.js";
import { buildReport, gateProblems, type EvalReport } from "../../src/eval/metrics.js";
import { openInProcessSet, type InProcessSetTargets } from "../../src/eval/open.js";
import { renderComparison, renderFailures } from "../../src/eval/report.js";
import { runScenarios, type ConversationResult } from "../../src/eval/runner.js";
import { loadScenarios } from "../../src/eval/scenario.js";
import { allSets } from "../../src/eval/sets.js";

/**
 * The CI gate: every evaluation set — the bundled one and both halves of every insurer under
 * eval/insurers — runs in-process on the offline models and is compared with its committed
 * baseline. It fails when outcome accuracy or citation accuracy drops below the baseline, or when
 * ungrounded answers or obeyed injections appear (or grow, on a set whose baseline has some).
 * A change that helps one set and hurts another fails here.
 *
 * A sealed half is compared by its figures and failure categories only: the explanation printed
 * on failure never shows one of its conversations.
 *
 * Baselines change only on purpose, in a commit that says why: `npm run eval:baseline`.
 */
const LABEL = "in-process (offline models)";
const ENV = { FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent" };

describe.each(allSets().map((set) => [set.name, set] as const))("evaluation gate: %s", (_name, set) => {
  let opened: InProcessSetTargets | undefined;
  let results: ConversationResult[] = [];
  let report: EvalReport;
  let baseline: EvalReport;

  afterAll(async () => {
    await opened?.close();
  });

  it("keeps outcome and citation accuracy at or above the baseline, ungrounded answers and obeyed injections at the baseline's (none on the bundled set)", async () => {
    opened = await openInProcessSet(set, ENV, silentLogger, { label: LABEL });
    results = await runScenarios({ scenarios: await loadScenarios(set.scenarios), targets: opened.targets, concurrency: 4, runId: "gate" });
    report = buildReport(results, LABEL, { sealed: set.sealed, categories: true });
    baseline = JSON.parse(await readFile(set.baseline, "utf8")) as EvalReport;
    expect(baseline.version).toBe(1);
    expect(baseline.target).toBe(LABEL);
    expect(baseline.sealed === true).toBe(set.sealed);
    expect(report.metrics.conversations.skipped).toBe(0);

    const problems = gateProblems(report.metrics, baseline.metrics);
    const explain = [renderComparison(report, baseline)];
    if (!set.sealed) {
      const newlyFailing = new Set(report.failures.filter((f) => !baseline.failures.some((b) => b.id === f.id && b.turn === f.turn)).map((f) => f.id));
      explain.push(renderFailures(results.filter((r) => newlyFailing.has(r.scenario.id))));
    }
    explain.push(`If the change is intended and better overall, update the baselines with \`npm run eval:baseline\` and say why in the commit.`);
    expect(problems, explain.join("\n\n")).toEqual([]);
  }, 300_000);
});
