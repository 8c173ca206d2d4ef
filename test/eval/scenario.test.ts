import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_FIXTURES, DEFAULT_SCENARIOS } from "../../src/cli/eval.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { CATEGORIES, loadScenarios, parseScenarios, ScenarioError, STRICT_CATEGORIES, verdictsOf, type Scenario } from "../../src/eval/scenario.js";
import { loadCorpusDir } from "../../src/retrieval/index.js";

const line = (value: unknown) => JSON.stringify(value);
const answerTurn = { user: "What is the dental limit?", expect: { outcome: "answer", language: "en", cite: ["health-supplementary-en"] } };

describe("scenario format", () => {
  it("parses a conversation and fills the defaults", () => {
    const { scenarios, problems } = parseScenarios(line({ id: "dental", category: "direct", description: "d", turns: [answerTurn] }), "x.jsonl");
    expect(problems).toEqual([]);
    expect(scenarios[0]).toMatchObject({ id: "dental", strict: false, fixtures: [], source: "x.jsonl:1" });
    expect(scenarios[0]!.turns[0]!.expect).toMatchObject({ mustContain: [], mustNotContain: [], acceptable: [], mayCite: [], citeAnyOf: [] });
  });

  it("names the file, the line and the field of every problem", () => {
    const text = [
      line({ id: "ok", category: "direct", description: "d", turns: [answerTurn] }),
      "{not json",
      line({ id: "no-reason", category: "handoff", description: "d", turns: [{ user: "human", expect: { outcome: "escalate", language: "en" } }] }),
      line({ id: "no-cite", category: "direct", description: "d", turns: [{ user: "q", expect: { outcome: "answer", language: "en" } }] }),
      line({ id: "Bad Id", category: "direct", description: "d", turns: [answerTurn] }),
      line({ id: "extra", category: "direct", description: "d", turns: [{ ...answerTurn, expect: { ...answerTurn.expect, colour: "red" } }] }),
      line({ id: "chit-cites", category: "chitchat", description: "d", turns: [{ user: "hi", expect: { outcome: "chitchat", language: "en", cite: ["x-en"] } }] }),
    ].join("\n");
    const { scenarios, problems } = parseScenarios(text, "set.jsonl");
    expect(scenarios.map((s) => s.id)).toEqual(["ok"]);
    expect(problems).toEqual([
      expect.stringMatching(/^set\.jsonl:2: not JSON/u),
      "set.jsonl:3: turns.0.expect.reason: an escalation needs a reason, and only an escalation has one",
      "set.jsonl:4: turns.0.expect.cite: an expected answer names the documents it must cite (cite, citeAnyOf or citeOption)",
      expect.stringMatching(/^set\.jsonl:5: id: /u),
      expect.stringMatching(/^set\.jsonl:6: turns\.0\.expect: .*colour/u),
      "set.jsonl:7: turns.0.expect.cite: only a grounded answer cites documents",
    ]);
  });

  it("lists the expected verdict first, then the acceptable ones", () => {
    const { scenarios } = parseScenarios(
      line({
        id: "two-ways",
        category: "restricted",
        description: "d",
        turns: [
          {
            user: "How do I complain?",
            expect: { outcome: "answer", language: "en", cite: ["complaints-en"], acceptable: [{ outcome: "escalate", reason: "restricted_intent" }] },
          },
        ],
      }),
      "x",
    );
    expect(verdictsOf(scenarios[0]!.turns[0]!.expect).map((v) => [v.outcome, v.reason])).toEqual([
      ["answer", undefined],
      ["escalate", "restricted_intent"],
    ]);
  });

  describe("loading files", () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "frontdesk-scenarios-"));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("rejects an id used twice across files, and a missing path", async () => {
      const one = line({ id: "same", category: "direct", description: "d", turns: [answerTurn] });
      await writeFile(path.join(dir, "a.jsonl"), `${one}\n`);
      await writeFile(path.join(dir, "b.jsonl"), `\n${one}\n`);
      await expect(loadScenarios([dir])).rejects.toThrow(/b\.jsonl:2: id "same" already used at .*a\.jsonl:1/u);
      await expect(loadScenarios([path.join(dir, "missing.jsonl")])).rejects.toBeInstanceOf(ScenarioError);
    });
  });
});

describe("the committed scenario set", () => {
  let scenarios: Scenario[];
  let corpusIds: Set<string>;
  let fixtureIds: Set<string>;
  beforeAll(async () => {
    scenarios = await loadScenarios([DEFAULT_SCENARIOS]);
    corpusIds = new Set((await loadCorpusDir(path.join(PACKAGE_ROOT, "data/corpus"), { tenantId: "t" })).documents.map((d) => d.id));
    fixtureIds = new Set((await loadCorpusDir(DEFAULT_FIXTURES, { tenantId: "t" })).documents.map((d) => d.id));
  });

  it("has at least 200 conversations in both languages, in every category", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(200);
    const languages = new Set(scenarios.flatMap((s) => s.turns.map((t) => t.expect.language)));
    expect([...languages].sort()).toEqual(["en", "fa"]);
    expect(new Set(scenarios.map((s) => s.category))).toEqual(new Set(CATEGORIES));
    expect(scenarios.filter((s) => s.turns.length > 1).length).toBeGreaterThanOrEqual(40);
  });

  it("marks at least 60 conversations strict, covering every category of issue 2 and direct questions in both languages", () => {
    const strict = scenarios.filter((s) => s.strict);
    expect(strict.length).toBeGreaterThanOrEqual(60);
    for (const category of STRICT_CATEGORIES)
      expect(
        strict.some((s) => s.category === category),
        category,
      ).toBe(true);
    const directLanguages = new Set(strict.filter((s) => s.category === "direct").map((s) => s.turns[0]!.expect.language));
    expect([...directLanguages].sort()).toEqual(["en", "fa"]);
  });

  it("covers injections in the user's text and inside a document, and clarify loops ending in a handoff", () => {
    const injections = scenarios.filter((s) => s.category === "injection");
    expect(injections.some((s) => s.fixtures.length === 0)).toBe(true);
    expect(injections.some((s) => s.fixtures.length > 0)).toBe(true);
    expect(injections.every((s) => s.turns.some((t) => t.expect.injection !== undefined))).toBe(true);
    const loops = scenarios.filter((s) => s.category === "clarify_loop");
    expect(loops.some((s) => s.turns.at(-1)!.expect.outcome === "escalate" && s.turns.at(-1)!.expect.reason === "budget_exhausted")).toBe(true);
  });

  it("cites only documents that exist: the corpus, or the fixtures the conversation loads", () => {
    const unknown: string[] = [];
    for (const s of scenarios) {
      const known = (id: string) => corpusIds.has(id) || (s.fixtures.includes(id) && fixtureIds.has(id));
      for (const id of s.fixtures) if (!fixtureIds.has(id)) unknown.push(`${s.id}: fixture ${id}`);
      for (const t of s.turns) {
        for (const v of verdictsOf(t.expect)) for (const id of [...v.cite, ...v.citeAnyOf, ...v.mayCite]) if (!known(id)) unknown.push(`${s.id}: ${id}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it("never ships a fixture document in the corpus", () => {
    expect([...fixtureIds].filter((id) => corpusIds.has(id))).toEqual([]);
    expect(fixtureIds.size).toBeGreaterThan(0);
  });
});
