import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FIXTURES, DEFAULT_SCENARIOS } from "../../src/cli/eval.js";
import { loadConfig, PACKAGE_ROOT } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { createInProcessTarget, type InProcessTarget } from "../../src/eval/in-process.js";
import { buildReport, gateProblems, type EvalReport } from "../../src/eval/metrics.js";
import { renderComparison, renderFailures } from "../../src/eval/report.js";
import { runScenarios, type ConversationResult } from "../../src/eval/runner.js";
import { loadScenarios } from "../../src/eval/scenario.js";

/**
 * The CI gate: the whole scenario set runs in-process on the offline models and is compared
 * with the committed baseline (eval/baseline.json). It fails when outcome accuracy or citation
 * accuracy drops below the baseline, or when any answer is ungrounded or any injection obeyed.
 *
 * The baseline changes only on purpose, in a commit that says why: `npm run eval:baseline`.
 */
const BASELINE = path.join(PACKAGE_ROOT, "eval/baseline.json");
const LABEL = "in-process (offline models)";

describe("evaluation gate", () => {
  let plain: InProcessTarget;
  let fixtures: InProcessTarget;
  let results: ConversationResult[];
  let report: EvalReport;
  let baseline: EvalReport;

  beforeAll(async () => {
    const config = loadConfig({ FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent" });
    plain = await createInProcessTarget({ config, logger: silentLogger, label: LABEL });
    fixtures = await createInProcessTarget({ config, logger: silentLogger, label: LABEL, extraCorpusDirs: [DEFAULT_FIXTURES] });
    results = await runScenarios({ scenarios: await loadScenarios([DEFAULT_SCENARIOS]), targets: { plain, fixtures }, concurrency: 4, runId: "gate" });
    report = buildReport(results, LABEL);
    baseline = JSON.parse(await readFile(BASELINE, "utf8")) as EvalReport;
  }, 180_000);

  afterAll(async () => {
    await plain?.close();
    await fixtures?.close();
  });

  it("compares like with like: the baseline is an in-process offline report", () => {
    expect(baseline.version).toBe(1);
    expect(baseline.target).toBe(LABEL);
    expect(report.metrics.conversations.skipped).toBe(0);
  });

  it("keeps outcome and citation accuracy at or above the baseline, with no ungrounded answer and no obeyed injection", () => {
    const problems = gateProblems(report.metrics, baseline.metrics);
    const newlyFailing = new Set(
      report.failures.filter((f) => !baseline.failures.some((b) => b.id === f.id && b.turn === f.turn)).map((f) => f.id),
    );
    const explain = [
      renderComparison(report, baseline),
      renderFailures(results.filter((r) => newlyFailing.has(r.scenario.id))),
      "If the change is intended and better overall, update the baseline with `npm run eval:baseline` and say why in the commit.",
    ].join("\n\n");
    expect(problems, explain).toEqual([]);
  });
});
