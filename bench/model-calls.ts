/**
 * Model calls per turn over a scenario suite, run in-process through the real application
 * (bundled corpus, embedded retrieval, the graph, in-memory threads):
 *
 *   npm run bench:model-calls -- [--provider offline|gemini-fake|gemini]... [--scenarios PATH]... [--json FILE]
 *
 * Providers (default: offline and gemini-fake):
 *   offline      the deterministic offline model
 *   gemini-fake  the Gemini provider against a fake API on 127.0.0.1 whose model quotes the
 *                chunk sentence closest to the question (test/support/gemini-responder.ts)
 *   gemini       real Gemini: needs GOOGLE_API_KEY (network, costs tokens)
 * Scenarios (default: test/fixtures/conversations.jsonl, plus eval/scenarios when present):
 * .jsonl files or directories of them (see bench/scenarios.ts for the format).
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { pino } from "pino";
import { createApp } from "../src/app/index.js";
import { loadConfig, PACKAGE_ROOT } from "../src/config/config.js";
import { startFakeGemini, type FakeGemini } from "../test/support/fake-gemini.js";
import { quotingResponder } from "../test/support/gemini-responder.js";
import { distribution, formatDistribution, loadScenarios, runScenarios, type TurnRecord } from "./scenarios.js";

const PROVIDERS = ["offline", "gemini-fake", "gemini"] as const;
type ProviderChoice = (typeof PROVIDERS)[number];

const { values } = parseArgs({
  options: {
    provider: { type: "string", multiple: true },
    scenarios: { type: "string", multiple: true },
    json: { type: "string" },
    verbose: { type: "boolean", short: "v" },
  },
  strict: true,
});

const providers = (values.provider ?? ["offline", "gemini-fake"]).map((p) => {
  if (!(PROVIDERS as readonly string[]).includes(p)) throw new Error(`--provider must be one of ${PROVIDERS.join(", ")}, got "${p}"`);
  return p as ProviderChoice;
});
const defaultScenarios = [path.join(PACKAGE_ROOT, "test/fixtures/conversations.jsonl"), path.join(PACKAGE_ROOT, "eval/scenarios")].filter((p) => existsSync(p));
const scenarioPaths = (values.scenarios ?? defaultScenarios).map((p) => path.resolve(p));
const scenarios = loadScenarios(scenarioPaths);
const logger = pino({ level: "silent" });

async function run(provider: ProviderChoice): Promise<TurnRecord[]> {
  let fake: FakeGemini | null = null;
  const env: Record<string, string | undefined> = { FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent" };
  if (provider === "offline") env["FRONTDESK_MODEL_PROVIDER"] = "offline";
  if (provider === "gemini-fake") {
    fake = await startFakeGemini({ generate: quotingResponder() });
    Object.assign(env, { FRONTDESK_MODEL_PROVIDER: "gemini", GOOGLE_API_KEY: "fake", FRONTDESK_GEMINI_BASE_URL: fake.url });
  }
  if (provider === "gemini") {
    if (process.env["GOOGLE_API_KEY"] === undefined) throw new Error("--provider gemini needs GOOGLE_API_KEY");
    Object.assign(env, {
      FRONTDESK_MODEL_PROVIDER: "gemini",
      GOOGLE_API_KEY: process.env["GOOGLE_API_KEY"],
      FRONTDESK_GEMINI_BASE_URL: process.env["FRONTDESK_GEMINI_BASE_URL"],
      FRONTDESK_CONFIG_DIR: process.env["FRONTDESK_CONFIG_DIR"],
    });
  }
  const app = await createApp(loadConfig(env), logger);
  try {
    return await runScenarios(app.turnService, scenarios, {
      threadPrefix: provider,
      onTurn: (r) => {
        if (values.verbose) console.log(`  ${provider} ${r.scenario}#${r.turn} ${r.outcome}${r.reason ? `/${r.reason}` : ""} calls=${r.modelCalls} ${JSON.stringify(r.roles)}`);
      },
    });
  } finally {
    await app.close();
    await fake?.close();
  }
}

const report: Record<string, { distribution: ReturnType<typeof distribution>; turns: TurnRecord[] }> = {};
console.log(`${scenarios.length} conversations from ${scenarioPaths.map((p) => path.relative(process.cwd(), p) || ".").join(", ")}\n`);
for (const provider of providers) {
  const records = await run(provider);
  const d = distribution(records);
  report[provider] = { distribution: d, turns: records };
  console.log(`${formatDistribution(provider, d)}\n`);
}
if (values.json !== undefined) {
  writeFileSync(values.json, `${JSON.stringify({ scenarios: scenarioPaths, report }, null, 2)}\n`);
  console.log(`wrote ${values.json}`);
}
