/**
 * Rewrites the committed baseline of every evaluation set (npm run eval:baseline): the bundled
 * set and both halves of every insurer, from one in-process offline run each. Commit the result
 * with the reason. A sealed half's baseline holds figures and failure categories only.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { silentLogger } from "../src/domain/logger.js";
import { buildReport } from "../src/eval/metrics.js";
import { openInProcessSet } from "../src/eval/open.js";
import { renderMetrics } from "../src/eval/report.js";
import { runScenarios } from "../src/eval/runner.js";
import { loadScenarios } from "../src/eval/scenario.js";
import { allSets } from "../src/eval/sets.js";

const LABEL = "in-process (offline models)";
const only = process.argv.slice(2);
for (const set of allSets().filter((s) => only.length === 0 || only.includes(s.name))) {
  const opened = await openInProcessSet(set, { ...process.env, FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent" }, silentLogger, { label: LABEL });
  try {
    const results = await runScenarios({ scenarios: await loadScenarios(set.scenarios), targets: opened.targets, concurrency: 4, runId: "baseline" });
    const report = buildReport(results, LABEL, { sealed: set.sealed, categories: true });
    await writeFile(set.baseline, `${JSON.stringify(report, null, 2)}\n`);
    const m = report.metrics;
    process.stdout.write(
      `${set.name}: outcome ${m.outcomeAccuracy.count}/${m.outcomeAccuracy.of}, citations ${m.citationAccuracy.count}/${m.citationAccuracy.of} → ${path.relative(process.cwd(), set.baseline)}\n`,
    );
    if (process.env["VERBOSE"] === "1") process.stdout.write(`${renderMetrics(report)}\n\n`);
  } finally {
    await opened.close();
  }
}
