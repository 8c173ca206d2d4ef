import { describe, expect, it } from "vitest";
import { COPY_KEYS, RESTRICTED_CATEGORIES } from "../../src/agent/bundle.js";
import type { GateClass, GateReading, Gates } from "../../src/agent/gates.js";
import { compilePhrase, findPhrase, ruleWords } from "../../src/agent/phrases.js";
import { ESCALATION_REASONS, type TurnResult } from "../../src/domain/turn.js";
import { GATE_CLASSES } from "../../src/learn/index.js";
import type { TurnAttempt } from "../../src/service/types.js";
import { bundle, fakeRetriever, harness, scriptedModels, turn } from "./support.js";

/**
 * What the customer reads never carries the gates' internals: no reason code, no class name,
 * no phrase of a policy list, no prompt text. The decision is for the human (node summary,
 * handoff detail), not for the customer.
 */

const lists = bundle.policy;
const listPhrases = [
  lists.handoffRequest,
  lists.frustration,
  lists.account,
  ...RESTRICTED_CATEGORIES.map((c) => lists.restrictedIntents[c]),
  ...RESTRICTED_CATEGORIES.map((c) => lists.restrictedTopics[c]),
].flatMap((l) => [...l.en, ...l.fa]);
const promptLines = Object.values(bundle.prompts)
  .flatMap((role) => Object.values(role as Record<string, string>))
  .flatMap((part) => part.split("\n"))
  .map((line) => line.trim())
  .filter((line) => line.length >= 24 && !line.includes("{"));

/** Every way the customer's text could betray a gate: the problems found, empty when clean. */
function leaks(text: string): string[] {
  const problems: string[] = [];
  const lower = text.toLowerCase();
  for (const code of ESCALATION_REASONS) if (lower.includes(code)) problems.push(`reason code ${code}`);
  for (const c of GATE_CLASSES) if (c.includes("_") || c.includes(":") ? lower.includes(c) : false) problems.push(`class ${c}`);
  if (/restricted:|p=\d|classifier|threshold/u.test(lower)) problems.push("gate wording");
  const words = ruleWords(text);
  for (const phrase of listPhrases) if (findPhrase(compilePhrase(phrase), words) !== null) problems.push(`policy phrase "${phrase}"`);
  for (const line of promptLines) if (text.includes(line)) problems.push(`prompt line "${line}"`);
  return problems;
}

describe("no leaks through the gates", () => {
  it("no escalation, refusal or chitchat copy in either language echoes a reason code, class, policy phrase or prompt text", () => {
    const customerFacing = Object.keys(COPY_KEYS).filter((k) => k.startsWith("escalation.") || k === "out_of_scope.reply" || k.startsWith("clarify."));
    for (const key of customerFacing) {
      for (const language of ["en", "fa"] as const) {
        expect({ key, language, leaks: leaks(bundle.copy[key as keyof typeof COPY_KEYS][language]) }).toEqual({ key, language, leaks: [] });
      }
    }
  });

  it("a turn decided by any gate shows the customer only the copy; the decision is in the detail", async () => {
    const decided: Array<{ label: GateClass; text: string }> = [
      { label: "handoff_request", text: "could you put a real human on the line" },
      ...RESTRICTED_CATEGORIES.map((c) => ({ label: `restricted:${c}` as GateClass, text: "about that thing from last week, sort it out" })),
      { label: "account", text: "has the assessor been booked for my claim yet" },
      { label: "frustration", text: "this bot is hopeless and keeps looping" },
      { label: "chitchat", text: "cheers, have a good one" },
      { label: "out_of_scope", text: "who scored in the derby last night" },
    ];
    for (const { label, text } of decided) {
      const scores = Object.fromEntries(GATE_CLASSES.map((c) => [c, c === label ? 0.97 : 0.003])) as GateReading["scores"];
      const gates: Gates = { read: () => ({ label, probability: 0.97, confident: true, scores }) };
      const h = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => []), gates });
      const attempt: TurnAttempt = await h.service.runTurn(turn(text));
      if (attempt.kind !== "completed") throw new Error(attempt.kind);
      const result: TurnResult = attempt.result;
      const shown = result.outcome.kind === "escalate" ? result.outcome.message : result.outcome.kind === "answer" ? result.outcome.text : result.outcome.question;
      expect({ label, leaks: leaks(shown) }).toEqual({ label, leaks: [] });
      if (result.outcome.kind === "escalate") expect(result.outcome.detail).toContain(label);
    }
  });

  it("the leak check itself finds what it looks for", () => {
    expect(leaks("restricted_intent")).toContain("reason code restricted_intent");
    expect(leaks("classifier: restricted:payout p=0.97")).toContain("gate wording");
    expect(leaks("I want to file a complaint")).toContain('policy phrase "want ... file a complaint"');
  });
});
