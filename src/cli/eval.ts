import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { pino } from "pino";
import { createLogger } from "../app/logger.js";
import { ConfigError, loadConfig, PACKAGE_ROOT } from "../config/config.js";
import { buildReport, gateProblems, type EvalReport } from "../eval/metrics.js";
import { renderComparison, renderFailures, renderMetrics } from "../eval/report.js";
import { runScenarios, type EvalTargets } from "../eval/runner.js";
import { loadScenarios, ScenarioError, type Scenario } from "../eval/scenario.js";
import { bundledSet, insurerSet, redteamSet, SPLITS, UnknownSetError, type EvalSet, type Split } from "../eval/sets.js";
import type { CommandIo } from "./chat.js";
import { oneLine } from "./serve.js";

export const DEFAULT_SCENARIOS = path.join(PACKAGE_ROOT, "eval/scenarios");
/** Test-only documents (e.g. one carrying a prompt injection); never part of the shipped corpus. */
export const DEFAULT_FIXTURES = path.join(PACKAGE_ROOT, "eval/fixtures/corpus");

export const EVAL_HELP = `Usage: frontdesk eval [options]

Runs the evaluation scenarios (JSONL conversations with expected outcomes) and prints outcome
accuracy, per-reason escalation precision and recall, over-ask and false-escalation rates,
ungrounded answers, citation accuracy, obeyed injections, language accuracy, model calls and
latency per turn, then a report of every failed scenario.

Options:
  --insurer NAME      evaluate on an insurer of eval/insurers/NAME: its corpus as its own tenant,
                      its scenarios (default: the bundled corpus and eval/scenarios)
  --set redteam       the red-team set (eval/redteam): adversarial turns and planted documents
  --split dev|sealed  with --insurer: the half to run (default dev). A sealed half prints its
                      figures, counts per category and failure categories, never a conversation
  --scenarios PATH    JSONL file or directory, repeatable (default: the set's scenarios)
  --strict            only the strict scenarios (issue 2's table-driven suite)
  --only TEXT         only scenarios whose id contains TEXT or whose category is TEXT, repeatable
  --target HOST:PORT  evaluate a running server through the generated client (default: in-process,
                      with the configuration from the environment and threads in memory)
  --api-key KEY       API key for --target (prefer FRONTDESK_API_KEY)
  --corpus DIR        the corpus the target serves, to check citations against (default:
                      FRONTDESK_CORPUS_DIR or the bundled corpus)
  --fixtures DIR      test-only documents for injection scenarios (default: eval/fixtures/corpus)
  --with-fixtures     with --target: the server also serves --fixtures (else those scenarios are skipped)
  --concurrency N     conversations in flight at once; turns of one conversation stay in order (default 4)
  --json FILE         also write the report as JSON (the format of eval/baseline.json)
  --compare FILE      print the deltas against a baseline report; exit 1 if the CI gate fails
  --no-failures       do not print the failure report
  -h, --help          show this help

Exit status: 0 when the run completed (and the gate passed with --compare), 1 when the gate
failed, 2 for a usage, configuration or scenario error.
`;

export interface EvalFlags {
  set: EvalSet;
  scenarios: string[];
  strict: boolean;
  only: string[];
  target?: string;
  apiKey?: string;
  corpus?: string;
  fixtures: string;
  withFixtures: boolean;
  concurrency: number;
  json?: string;
  compare?: string;
  failures: boolean;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parseEvalFlags(argv: string[], env: Record<string, string | undefined>): EvalFlags | "help" {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenarios: { type: "string", multiple: true },
      insurer: { type: "string" },
      set: { type: "string" },
      split: { type: "string" },
      strict: { type: "boolean" },
      only: { type: "string", multiple: true },
      target: { type: "string" },
      "api-key": { type: "string" },
      corpus: { type: "string" },
      fixtures: { type: "string" },
      "with-fixtures": { type: "boolean" },
      concurrency: { type: "string" },
      json: { type: "string" },
      compare: { type: "string" },
      "no-failures": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) return "help";
  const concurrency = Number(values.concurrency ?? "4");
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError("--concurrency must be an integer from 1 to 64");
  if (values["with-fixtures"] && values.target === undefined) throw new UsageError("--with-fixtures only applies with --target");
  if (values.split !== undefined && values.insurer === undefined) throw new UsageError("--split only applies with --insurer");
  if (values.split !== undefined && !(SPLITS as readonly string[]).includes(values.split)) throw new UsageError(`--split must be one of: ${SPLITS.join(", ")}`);
  if (values.set !== undefined && values.set !== "redteam") throw new UsageError(`--set must be redteam, got "${values.set}"`);
  if (values.set !== undefined && values.insurer !== undefined) throw new UsageError("--set cannot be combined with --insurer");
  let set: EvalSet;
  try {
    set = values.set !== undefined ? redteamSet() : values.insurer === undefined ? bundledSet() : insurerSet(values.insurer, (values.split ?? "dev") as Split);
  } catch (error) {
    if (error instanceof UnknownSetError) throw new UsageError(error.message);
    throw error;
  }
  if (set.sealed && values.scenarios !== undefined) throw new UsageError("--scenarios cannot be combined with a sealed split");
  if (set.sealed && values.only !== undefined) throw new UsageError("--only cannot be combined with a sealed split: its ids are not shown");
  const flags: EvalFlags = {
    set,
    scenarios: values.scenarios ?? set.scenarios,
    strict: values.strict === true,
    only: values.only ?? [],
    fixtures: values.fixtures ?? (values.set !== undefined ? set.fixturesDir : DEFAULT_FIXTURES),
    withFixtures: values["with-fixtures"] === true,
    concurrency,
    failures: values["no-failures"] !== true,
  };
  if (values.target !== undefined) flags.target = values.target;
  const apiKey = values["api-key"] ?? env["FRONTDESK_API_KEY"];
  if (apiKey !== undefined && apiKey !== "") flags.apiKey = apiKey;
  if (values.corpus !== undefined) flags.corpus = values.corpus;
  else if (set.corpusDir !== undefined) flags.corpus = set.corpusDir;
  if (values.json !== undefined) flags.json = values.json;
  if (values.compare !== undefined) flags.compare = values.compare;
  return flags;
}

/** "host:port" or a URL, as the Connect transport wants it. */
export function targetUrl(target: string): string {
  if (/^https?:\/\//u.test(target)) return target;
  if (!/^[^\s/]+:\d{1,5}$/u.test(target)) throw new UsageError(`--target must be HOST:PORT or a URL, got "${target}"`);
  return `http://${target}`;
}

export function selectScenarios(all: readonly Scenario[], flags: Pick<EvalFlags, "strict" | "only">): Scenario[] {
  return all.filter((s) => (!flags.strict || s.strict) && (flags.only.length === 0 || flags.only.some((o) => s.id.includes(o) || s.category === o)));
}

async function readBaseline(file: string): Promise<EvalReport> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--compare ${file}: ${(error as Error).message}`);
  }
  const report = parsed as Partial<EvalReport>;
  if (report.version !== 1 || typeof report.metrics !== "object" || !Array.isArray(report.failures)) {
    throw new UsageError(`--compare ${file}: not an evaluation report (version 1)`);
  }
  return report as EvalReport;
}

/** Builds the targets the flags ask for. In-process modules load only here. */
async function openTargets(flags: EvalFlags, env: Record<string, string | undefined>, io: Pick<CommandIo, "env">): Promise<{ targets: EvalTargets; close(): Promise<void> }> {
  if (flags.target !== undefined) {
    const { createRemoteTarget, loadChunkIndex } = await import("../eval/remote.js");
    const corpus = flags.corpus ?? loadConfig(env).retrieval.corpusDir;
    const chunks = await loadChunkIndex(flags.withFixtures ? [corpus, flags.fixtures] : [corpus]);
    const fixtures = new Set(flags.withFixtures ? chunks.documentIds[1] : []);
    const target = createRemoteTarget({ baseUrl: targetUrl(flags.target), chunks, fixtures, ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}) });
    return { targets: { plain: target, fixtures: flags.withFixtures ? target : null }, close: () => target.close() };
  }
  const { openInProcessSet } = await import("../eval/open.js");
  const set: EvalSet = flags.corpus !== undefined && flags.corpus !== flags.set.corpusDir ? { ...flags.set, corpusDir: flags.corpus } : flags.set;
  // Logs go to stderr so that stdout stays the report.
  const logger = createLogger(io.env["FRONTDESK_LOG_LEVEL"] ?? "silent", pino.destination(2));
  const opened = await openInProcessSet({ ...set, fixturesDir: flags.fixtures }, env, logger);
  return opened;
}

export async function evalCommand(argv: string[], io: CommandIo): Promise<number> {
  let flags: EvalFlags;
  let scenarios: Scenario[];
  let baseline: EvalReport | null = null;
  try {
    const parsed = parseEvalFlags(argv, io.env);
    if (parsed === "help") {
      io.stdout.write(EVAL_HELP);
      return 0;
    }
    flags = parsed;
    scenarios = selectScenarios(await loadScenarios(flags.scenarios), flags);
    if (scenarios.length === 0) throw new UsageError("no scenario matches the selection");
    if (flags.compare !== undefined) baseline = await readBaseline(flags.compare);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ScenarioError) {
      io.stderr.write(`frontdesk eval: ${error.message}\n`);
      return 2;
    }
    throw error;
  }

  let opened: Awaited<ReturnType<typeof openTargets>>;
  try {
    opened = await openTargets(flags, io.env, io);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      io.stderr.write(`frontdesk eval: ${oneLine(error.message)}\n`);
      return 2;
    }
    throw error;
  }
  let report: EvalReport;
  try {
    const turns = scenarios.reduce((n, s) => n + s.turns.length, 0);
    const setName = flags.set.name === "bundled" ? "" : ` of ${flags.set.name}`;
    io.stderr.write(`evaluating ${scenarios.length} conversations${setName} (${turns} turns) on ${opened.targets.plain.label}, concurrency ${flags.concurrency}\n`);
    const results = await runScenarios({
      scenarios,
      targets: opened.targets,
      concurrency: flags.concurrency,
      runId: randomBytes(4).toString("hex"),
    });
    report = buildReport(results, opened.targets.plain.label, { sealed: flags.set.sealed, categories: true });
    // A sealed set never shows a conversation: its failures are told by category only.
    if (flags.failures && !flags.set.sealed) io.stdout.write(`${renderFailures(results)}\n\n`);
  } finally {
    await opened.close();
  }

  io.stdout.write(`${renderMetrics(report)}\n`);
  if (flags.json !== undefined) {
    await writeFile(flags.json, `${JSON.stringify(report, null, 2)}\n`);
    io.stdout.write(`\nreport written to ${flags.json}\n`);
  }
  if (baseline === null) return 0;
  io.stdout.write(`\n${renderComparison(report, baseline)}\n`);
  const problems = gateProblems(report.metrics, baseline.metrics);
  if (problems.length === 0) {
    io.stdout.write("\ngate: passed\n");
    return 0;
  }
  io.stdout.write(`\ngate: FAILED\n${problems.map((p) => `  - ${p}`).join("\n")}\n`);
  return 1;
}
