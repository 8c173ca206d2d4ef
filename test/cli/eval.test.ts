import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIo } from "../../src/cli/chat.js";
import { parseEvalFlags, selectScenarios, targetUrl } from "../../src/cli/eval.js";
import { main } from "../../src/cli/main.js";
import type { EvalReport } from "../../src/eval/metrics.js";
import { loadScenarios } from "../../src/eval/scenario.js";

/** `frontdesk eval` in-process on a small scenario file: the table, the JSON report, the gate. */

function capture(): { stream: Writable; text: () => string } {
  let out = "";
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      out += String(chunk);
      callback();
    },
  });
  return { stream, text: () => out };
}

function io(env: Record<string, string | undefined> = {}) {
  const stdout = capture();
  const stderr = capture();
  const value: CommandIo = { stdin: new PassThrough(), stdout: stdout.stream, stderr: stderr.stream, env, stdoutIsTTY: false };
  return { io: value, stdout: stdout.text, stderr: stderr.text };
}

const conversations = [
  {
    id: "dental-limit",
    category: "direct",
    description: "answered",
    turns: [
      {
        user: "What is the dental limit in supplementary health insurance?",
        expect: { outcome: "answer", language: "en", cite: ["health-supplementary-en"], mustContain: ["150,000,000"] },
      },
    ],
  },
  {
    id: "human",
    category: "handoff",
    description: "handoff",
    turns: [{ user: "I want to talk to a human.", expect: { outcome: "escalate", reason: "user_requested", language: "en" } }],
  },
  {
    // Deliberately wrong: a clear question expected to hand off, so the failure report shows.
    id: "wrong-on-purpose",
    category: "direct",
    description: "fails",
    turns: [{ user: "What are the call centre opening hours?", expect: { outcome: "escalate", reason: "insufficient_retrieval", language: "en" } }],
  },
];

describe("frontdesk eval", () => {
  let dir: string;
  let scenarios: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "frontdesk-eval-"));
    scenarios = path.join(dir, "set.jsonl");
    await writeFile(scenarios, conversations.map((c) => JSON.stringify(c)).join("\n"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs in-process, prints the table and the failure report, and writes the JSON report", async () => {
    const json = path.join(dir, "report.json");
    const run = io({ FRONTDESK_LOG_LEVEL: "silent" });
    const code = await main(["eval", "--scenarios", scenarios, "--concurrency", "2", "--json", json], run.io);
    expect(code).toBe(0);
    const out = run.stdout();
    expect(out).toContain("frontdesk eval — in-process (offline models): 3 conversations, 3 turns");
    expect(out).toMatch(/outcome accuracy\s+66\.7%\s+2\/3 turns/u);
    expect(out).toMatch(/user_requested\s+1\s+1\s+1\s+100\.0%\s+100\.0%/u);
    // The failure report: conversation, expected and actual outcome, rewritten query, top chunks.
    expect(out).toContain("✗ wrong-on-purpose (direct;");
    expect(out).toContain("expected: escalate (insufficient_retrieval) · language en");
    expect(out).toMatch(/actual:\s+answer · citing contact-hours-en#[0-9a-f]{12}/u);
    expect(out).toContain('rewritten query: "What are the call centre opening hours?"');
    expect(out).toMatch(/top chunks:\n\s+\d\.\d{3}\s+contact-hours-en#[0-9a-f]{12}\s+Contact Channels and Opening Hours/u);
    expect(out).not.toContain("✗ dental-limit");
    const report = JSON.parse(await readFile(json, "utf8")) as EvalReport;
    expect(report.metrics.outcomeAccuracy).toEqual({ count: 2, of: 3, rate: 2 / 3 });
    expect(report.failures).toEqual([{ id: "wrong-on-purpose", turn: 1, problems: [expect.stringMatching(/^outcome: expected escalate/u)] }]);
    expect(run.stderr()).toContain("evaluating 3 conversations (3 turns) on in-process (offline models), concurrency 2");
  });

  it("compares with a baseline and exits 1 when the gate fails", async () => {
    const better = path.join(dir, "better.json");
    const json = path.join(dir, "report.json");
    const report = JSON.parse(await readFile(json, "utf8")) as EvalReport;
    report.metrics.outcomeAccuracy = { count: 3, of: 3, rate: 1 };
    report.failures = [];
    await writeFile(better, JSON.stringify(report));

    const failing = io({ FRONTDESK_LOG_LEVEL: "silent" });
    expect(await main(["eval", "--scenarios", scenarios, "--compare", better, "--no-failures"], failing.io)).toBe(1);
    expect(failing.stdout()).toMatch(/outcome accuracy\s+100\.0%\s+66\.7%\s+-33\.3 pt/u);
    expect(failing.stdout()).toContain("newly failing (1): wrong-on-purpose turn 1");
    expect(failing.stdout()).toContain("gate: FAILED\n  - outcome accuracy dropped: 66.7% (2/3) against the baseline's 100.0% (3/3)");
    expect(failing.stdout()).not.toContain("✗ wrong-on-purpose");

    const same = io({ FRONTDESK_LOG_LEVEL: "silent" });
    expect(await main(["eval", "--scenarios", scenarios, "--compare", json, "--no-failures"], same.io)).toBe(0);
    expect(same.stdout()).toContain("gate: passed");
  });

  it("refuses bad usage with exit code 2 and a clear message", async () => {
    const bad = path.join(dir, "bad.jsonl");
    await writeFile(bad, '{"id":"x","category":"direct","description":"d","turns":[{"user":"q","expect":{"outcome":"answer","language":"en"}}]}\n');
    const cases: Array<[string[], RegExp]> = [
      [["--concurrency", "0"], /--concurrency must be an integer from 1 to 64/u],
      [["--with-fixtures"], /--with-fixtures only applies with --target/u],
      [["--scenarios", bad], /bad\.jsonl:1: turns\.0\.expect\.cite: an expected answer names the documents/u],
      [["--scenarios", scenarios, "--only", "nothing-matches"], /no scenario matches the selection/u],
      [["--scenarios", scenarios, "--compare", scenarios], /--compare .*set\.jsonl/u],
      [["--scenarios", scenarios, "--target", "not a target"], /--target must be HOST:PORT or a URL/u],
    ];
    for (const [args, message] of cases) {
      const run = io();
      expect(await main(["eval", ...args], run.io), args.join(" ")).toBe(2);
      expect(run.stderr()).toMatch(message);
    }
  });

  it("parses flags with their defaults, and selects strict scenarios or by id and category", async () => {
    const flags = parseEvalFlags([], { FRONTDESK_API_KEY: "k".repeat(20) });
    expect(flags).toMatchObject({ strict: false, only: [], concurrency: 4, withFixtures: false, failures: true, apiKey: "k".repeat(20) });
    expect(targetUrl("127.0.0.1:8080")).toBe("http://127.0.0.1:8080");
    expect(targetUrl("https://frontdesk.example:443")).toBe("https://frontdesk.example:443");
    const all = await loadScenarios([scenarios]);
    expect(selectScenarios(all, { strict: false, only: ["handoff"] }).map((s) => s.id)).toEqual(["human"]);
    expect(selectScenarios(all, { strict: false, only: ["dental"] }).map((s) => s.id)).toEqual(["dental-limit"]);
    expect(selectScenarios(all, { strict: true, only: [] })).toEqual([]);
  });
});
