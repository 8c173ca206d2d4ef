import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PassThrough, Writable } from "node:stream";
import { DEFAULT_FIXTURES, DEFAULT_SCENARIOS } from "../../src/cli/eval.js";
import { main } from "../../src/cli/main.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { createInProcessTarget, type InProcessTarget } from "../../src/eval/in-process.js";
import { createRemoteTarget, loadChunkIndex } from "../../src/eval/remote.js";
import { runScenarios, type ConversationResult } from "../../src/eval/runner.js";
import { loadScenarios, type Scenario } from "../../src/eval/scenario.js";
import type { EvalTarget } from "../../src/eval/target.js";
import { startRealServer, type RealServer } from "../e2e/support.js";

/**
 * The same conversations through a real server (generated Connect client over HTTP/2, with an
 * API key) and in-process must come to the same verdicts: the harness measures the service, not
 * the way it is reached.
 */
const API_KEY = "eval-key-0123456789abcdef";
const IDS = [
  "amb-cost-pick-number-en",
  "fu-fa-health-wife-then-children",
  "handoff-fa-expert",
  "restricted-cancel-policy-en",
  "unknown-pet-insurance-en",
  "inject-doc-student-claim-en",
  "loop-cost-never-converges-en",
];

let server: RealServer;
let remote: EvalTarget;
let local: InProcessTarget;
let scenarios: Scenario[];

beforeAll(async () => {
  server = await startRealServer({ FRONTDESK_API_KEYS: `acme:${API_KEY}` }, { extraCorpusDirs: [DEFAULT_FIXTURES] });
  const chunks = await loadChunkIndex([loadConfig({}).retrieval.corpusDir, DEFAULT_FIXTURES]);
  remote = createRemoteTarget({ baseUrl: `http://127.0.0.1:${server.port}`, apiKey: API_KEY, chunks, fixtures: new Set(chunks.documentIds[1]) });
  local = await createInProcessTarget({ config: loadConfig({ FRONTDESK_CHECKPOINTER: "memory" }), logger: silentLogger, extraCorpusDirs: [DEFAULT_FIXTURES] });
  scenarios = (await loadScenarios([DEFAULT_SCENARIOS])).filter((s) => IDS.includes(s.id));
}, 60_000);

afterAll(async () => {
  await remote?.close();
  await local?.close();
  await server?.close();
});

const summary = (results: ConversationResult[]) =>
  results.map((r) =>
    r.status === "skipped"
      ? { id: r.scenario.id, skipped: r.reason }
      : {
          id: r.scenario.id,
          turns: r.turns.map((t) => ({
            outcome: t.observed.outcome,
            reason: t.observed.reason,
            language: t.observed.language,
            text: t.observed.text,
            citations: t.observed.citations,
            options: t.observed.options.map((o) => o.documentId),
            passed: t.grade.passed,
            problems: t.grade.problems,
          })),
        },
  );

describe("evaluating a running server", () => {
  it("comes to the same verdicts as in-process, fixtures included", async () => {
    expect(scenarios.map((s) => s.id).sort()).toEqual([...IDS].sort());
    const overWire = await runScenarios({ scenarios, targets: { plain: remote, fixtures: remote }, concurrency: 3, runId: "wire" });
    const inProcess = await runScenarios({ scenarios, targets: { plain: local, fixtures: local }, concurrency: 3, runId: "local" });
    expect(summary(overWire)).toEqual(summary(inProcess));
    expect(overWire.every((r) => r.status === "ran" && r.passed)).toBe(true);
    // Over the wire, escalations carry the handoff's rewritten query and top chunks; progress gives the node path.
    const pet = overWire.find((r) => r.scenario.id === "unknown-pet-insurance-en");
    const turn = pet?.status === "ran" ? pet.turns[0]! : null;
    expect(turn?.observed.rewrittenQuery).toBe("Do you offer pet insurance for my dog?");
    expect(turn?.observed.topChunks.length).toBeGreaterThan(0);
    expect(turn?.observed.nodes.map((n) => n.node)).toEqual(["load_memory", "triage", "contextualize", "retrieve", "grade", "retrieve", "grade", "escalate", "record_turn"]);
  });

  it("skips fixture scenarios unless the server serves the fixtures", async () => {
    const results = await runScenarios({ scenarios, targets: { plain: remote, fixtures: null }, runId: "nofix" });
    expect(results.filter((r) => r.status === "skipped").map((r) => r.scenario.id)).toEqual(["inject-doc-student-claim-en"]);
  });

  it("reports a wrong API key as failed turns, not as answers", async () => {
    const chunks = await loadChunkIndex([loadConfig({}).retrieval.corpusDir]);
    const intruder = createRemoteTarget({ baseUrl: `http://127.0.0.1:${server.port}`, apiKey: "wrong-key-0123456789", chunks });
    try {
      const observed = await intruder.runTurn({ threadId: "t-intruder", userId: "u", text: "Hi" });
      expect(observed).toMatchObject({ outcome: "error", detail: expect.stringMatching(/^Unauthenticated: /u) });
    } finally {
      await intruder.close();
    }
  });

  it("runs from the command line with --target, --api-key and --with-fixtures", async () => {
    let out = "";
    const stdout = new Writable({
      write(chunk, _encoding, callback) {
        out += String(chunk);
        callback();
      },
    });
    const stderr = new Writable({ write: (_c, _e, callback) => callback() });
    const code = await main(
      ["eval", "--target", `127.0.0.1:${server.port}`, "--api-key", API_KEY, "--with-fixtures", "--only", "inject-doc-student-claim-en", "--only", "handoff-fa-expert"],
      { stdin: new PassThrough(), stdout, stderr, env: {}, stdoutIsTTY: false },
    );
    expect(code).toBe(0);
    expect(out).toContain(`frontdesk eval — http://127.0.0.1:${server.port}: 2 conversations, 2 turns`);
    expect(out).toMatch(/injections obeyed\s+0\s+of 1 turns carrying an injection/u);
    expect(out).toContain("no failures");
  });
});
