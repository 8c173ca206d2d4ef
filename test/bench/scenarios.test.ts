import path from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { distribution, loadScenarios, parseScenarios, quantile, runScenarios, type TurnRecord } from "../../bench/scenarios.js";
import { createApp } from "../../src/app/index.js";
import { loadConfig, PACKAGE_ROOT } from "../../src/config/config.js";

const record = (modelCalls: number, patch: Partial<TurnRecord> = {}): TurnRecord => ({
  scenario: "s",
  kind: "knowledge",
  turn: 1,
  text: "q",
  outcome: "answer",
  modelCalls,
  roles: { triage: Math.min(1, modelCalls), generate: Math.max(0, modelCalls - 1) },
  inputTokens: 10,
  outputTokens: 2,
  ms: 1,
  ran: true,
  ...patch,
});

describe("scenario files", () => {
  it("reads conversations as strings or objects, one-turn lines, and labels", () => {
    const scenarios = parseScenarios(
      [
        '{"id":"a","kind":"follow-up","turns":["first",{"text":"second","domain":"motor"}]}',
        "",
        '{"text":"single","category":"chitchat"}',
        '{"id":"c","turns":[{"user":"from an eval set","locale":"fa"}]}',
      ].join("\n"),
      "x.jsonl",
    );
    expect(scenarios).toEqual([
      { id: "a", kind: "follow-up", turns: [{ text: "first" }, { text: "second", domain: "motor" }] },
      { id: "x.jsonl#3", kind: "chitchat", turns: [{ text: "single" }] },
      { id: "c", kind: "unlabelled", turns: [{ text: "from an eval set", locale: "fa" }] },
    ]);
    expect(() => parseScenarios('{"turns":[{"nope":1}]}', "bad.jsonl")).toThrow('bad.jsonl:1 turn 1: a turn must be a string or an object with "text"');
    expect(() => parseScenarios("{oops", "bad.jsonl")).toThrow(/^bad\.jsonl:1: not JSON/u);
  });
});

describe("the call distribution", () => {
  it("takes nearest-rank quantiles: always an observed value", () => {
    expect(quantile([0, 1, 2, 3], 0.5)).toBe(1);
    expect(quantile([0, 1, 2, 3, 9], 0.5)).toBe(2);
    expect(quantile([...Array(19).fill(2), 7], 0.95)).toBe(2);
    expect(quantile([...Array(18).fill(2), 7, 7], 0.95)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it("counts turns per number of calls, per role and per kind, leaving refused turns out", () => {
    const d = distribution([record(0, { kind: "handoff", roles: {} }), record(2), record(2), record(3), record(0, { ran: false, outcome: "thread_closed", roles: {} })]);
    expect(d).toMatchObject({ turns: 4, refused: 1, median: 2, p95: 3, max: 3, mean: 1.75, inputTokens: 40, outputTokens: 8 });
    expect(d.histogram).toEqual([
      { calls: 0, turns: 1 },
      { calls: 1, turns: 0 },
      { calls: 2, turns: 2 },
      { calls: 3, turns: 1 },
    ]);
    expect(d.byRole).toEqual({ triage: 3, generate: 4 });
    expect(d.byKind).toEqual({ handoff: { turns: 1, median: 0 }, knowledge: { turns: 3, median: 2 } });
  });
});

describe("model calls over the conversation fixtures (offline model, real application)", () => {
  it("keeps the median at 3 or fewer, and rule-bound turns at zero", async () => {
    const app = await createApp(loadConfig({ FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent" }), pino({ level: "silent" }));
    try {
      const scenarios = loadScenarios([path.join(PACKAGE_ROOT, "test/fixtures/conversations.jsonl")]);
      expect(scenarios.length).toBeGreaterThanOrEqual(50);
      const records = await runScenarios(app.turnService, scenarios);
      const d = distribution(records);
      expect(d.median).toBeLessThanOrEqual(3);
      expect(d.max).toBeLessThanOrEqual(8);
      for (const kind of ["handoff", "restricted", "frustration", "account"]) {
        // The escalations of these scenarios are decided by rules ("fr-repeat-en" first asks a normal question).
        const turns = records.filter((r) => r.kind === kind && r.outcome === "escalate");
        expect(turns.length, kind).toBeGreaterThan(0);
        for (const r of turns) expect([r.scenario, r.modelCalls]).toEqual([r.scenario, 0]);
      }
    } finally {
      await app.close();
    }
  });
});
