import path from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { distribution, formatDistribution, loadScenarios, runScenarios } from "../../../bench/scenarios.js";
import { createApp } from "../../../src/app/index.js";
import { loadConfig, PACKAGE_ROOT } from "../../../src/config/config.js";

/**
 * Live smoke test: the conversation fixtures through the whole application on real Gemini.
 * Runs only when GOOGLE_API_KEY is set (it needs the network and spends tokens); otherwise it
 * is skipped and says why. It prints the model-call distribution, outcomes and tokens, and
 * asserts what must hold whatever the model answers: every turn completes (a failing model
 * hands off, it never throws), the budget holds, and rule-bound turns never reach the model.
 */

const apiKey = process.env["GOOGLE_API_KEY"];
const skipReason = apiKey === undefined || apiKey === "" ? "GOOGLE_API_KEY is not set; the live Gemini smoke test needs a real key and network access" : null;
if (skipReason !== null) console.warn(`[live Gemini smoke test skipped] ${skipReason}`);

describe("live Gemini smoke test", () => {
  it.skipIf(skipReason !== null)(
    `runs the conversation fixtures against real Gemini and prints its metrics${skipReason !== null ? ` (skipped: ${skipReason})` : ""}`,
    async () => {
      const env: Record<string, string | undefined> = {
        FRONTDESK_CHECKPOINTER: "memory",
        FRONTDESK_LOG_LEVEL: "silent",
        FRONTDESK_MODEL_PROVIDER: "gemini",
        GOOGLE_API_KEY: apiKey,
        FRONTDESK_GEMINI_BASE_URL: process.env["FRONTDESK_GEMINI_BASE_URL"],
        FRONTDESK_CONFIG_DIR: process.env["FRONTDESK_CONFIG_DIR"],
      };
      const app = await createApp(loadConfig(env), pino({ level: "silent" }));
      try {
        const scenarios = loadScenarios([path.join(PACKAGE_ROOT, "test/fixtures/conversations.jsonl")]);
        const started = performance.now();
        const records = await runScenarios(app.turnService, scenarios, { threadPrefix: `live-${Date.now()}` });
        const d = distribution(records);
        const outcomes: Record<string, number> = {};
        for (const r of records) {
          const key = r.reason !== undefined ? `${r.outcome}/${r.reason}` : r.outcome;
          outcomes[key] = (outcomes[key] ?? 0) + 1;
        }
        const latencies = records
          .filter((r) => r.ran)
          .map((r) => r.ms)
          .sort((a, b) => a - b);
        console.log(formatDistribution("live Gemini", d));
        console.log(`  outcomes: ${JSON.stringify(outcomes)}`);
        console.log(
          `  latency per turn: median ${latencies[Math.floor(latencies.length / 2)]?.toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
        expect(d.turns + d.refused).toBe(records.length);
        expect(d.max).toBeLessThanOrEqual(8);
        for (const r of records.filter((x) => ["handoff", "restricted", "account"].includes(x.kind) && x.outcome === "escalate")) {
          expect([r.scenario, r.modelCalls]).toEqual([r.scenario, 0]);
        }
        const failures = records.filter((r) => r.reason === "dependency_failure");
        if (failures.length > 0) console.warn(`  ${failures.length} turn(s) handed off after model failures: ${failures.map((f) => f.scenario).join(", ")}`);
      } finally {
        await app.close();
      }
    },
    600_000,
  );
});
