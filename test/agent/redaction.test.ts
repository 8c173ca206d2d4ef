import { describe, expect, it } from "vitest";
import type { AgentBundle } from "../../src/agent/bundle.js";
import { recordTurnNode } from "../../src/agent/nodes/record-turn.js";
import { createRedactor, DEFAULT_REDACTION, type KindActions, type RedactionField, type RedactionPolicy } from "../../src/agent/redaction.js";
import { freshTurnState, turnDefaults, type AgentStateValue } from "../../src/agent/state.js";
import type { NodeProgressEvent, TurnOutcome, TurnResult } from "../../src/domain/turn.js";
import { threadKey } from "../../src/persistence/index.js";
import { fa, leakedValues, VALUES } from "../support/pii.js";
import { bundle, chunk, fakeRetriever, harness, scriptedModels, turn, type Harness, completed } from "./support.js";

const all = (action: "keep" | "mask" | "drop"): KindActions => ({ national_id: action, mobile: action, card: action, iban: action, email: action });
const withPolicy = (fields: Partial<Record<RedactionField, KindActions>>): AgentBundle => ({ ...bundle, redaction: { ...DEFAULT_REDACTION, ...fields } });

/** Two turns the gates and a scripted triage answer without retrieval, then a request for a person. */
const MESSAGES = [
  `Hi there, my mobile is 0912 123 4567 and my e-mail ${VALUES.email}`,
  `کد ملی من ${fa(VALUES.nationalId)} و کارتم ${fa("6037 9911 9999 9990")} است`,
  `I want to talk to a human. Sheba ${VALUES.iban}, mobile +98 935 111 2233`,
];

async function converse(agentBundle: AgentBundle = bundle): Promise<{ h: Harness; results: TurnResult[] }> {
  const models = scriptedModels({ triage: () => ({ intent: "chitchat", confidence: 0.9 }) });
  const h = harness({ models, retriever: fakeRetriever(() => []), bundle: agentBundle, settings: { limits: { historyTurns: 2, summaryMaxChars: 1_200, replayRecords: 20 } } });
  const results: TurnResult[] = [];
  for (const [i, text] of MESSAGES.entries()) results.push(completed(await h.service.runTurn(turn(text, { requestId: `req-${i}` }))));
  return { h, results };
}

/** The thread's checkpoint as stored: every channel value, serialised. */
async function storedState(h: Harness): Promise<string> {
  const tuple = await h.persistence.saver.getTuple({ configurable: { thread_id: threadKey("default", "thread-1") } });
  if (tuple === undefined) throw new Error("no checkpoint");
  return JSON.stringify(tuple.checkpoint.channel_values);
}

const replyOf = (result: TurnResult) => (result.outcome.kind === "answer" ? result.outcome.text : "");

const handoffOf = (result: TurnResult) => {
  if (result.outcome.kind !== "escalate") throw new Error(`expected a handoff, got ${result.outcome.kind}`);
  return result.outcome.handoff;
};

describe("redaction in the turn graph", () => {
  it("by default masks every value in what the checkpoint keeps, the handoff and GetThread", async () => {
    const { h, results } = await converse();
    const stored = await storedState(h);
    expect(leakedValues(stored)).toEqual([]);
    for (const mask of ["[mobile ••••4567]", "[email]", "[national-id]", "[card]", "[iban]", "[mobile ••••2233]"]) expect(stored).toContain(mask);

    const handoff = handoffOf(results[2]!);
    expect(handoff.lastUserMessage).toBe("I want to talk to a human. Sheba [iban], mobile [mobile ••••2233]");
    expect(handoff.conversationSummary).toBe(
      [
        `[answer] user: Hi there, my mobile is [mobile ••••4567] and my e-mail [email] | agent: ${replyOf(results[0]!)}`,
        `[answer] user: کد ملی من [national-id] و کارتم [card] است | agent: ${replyOf(results[1]!)}`,
      ].join("\n"),
    );
    expect(leakedValues(JSON.stringify(results))).toEqual([]);

    const view = await h.service.getThread("default", "thread-1");
    expect(view?.recentTurns.map((t) => t.userText)).toEqual(["کد ملی من [national-id] و کارتم [card] است", "I want to talk to a human. Sheba [iban], mobile [mobile ••••2233]"]);
    expect(view?.summary).toBe(`[answer] user: Hi there, my mobile is [mobile ••••4567] and my e-mail [email] | agent: ${replyOf(results[0]!)}`);
    expect(leakedValues(JSON.stringify(view))).toEqual([]);
  });

  it("a retry gets the stored, masked result; the same request_id with other text is still a conflict", async () => {
    const { h, results } = await converse();
    const replayed = await h.service.runTurn(turn(MESSAGES[0]!, { requestId: "req-0" }));
    expect(replayed).toEqual({ kind: "replayed", result: results[0] });
    expect(await h.service.runTurn(turn("something else", { requestId: "req-0" }))).toEqual({ kind: "request_conflict" });
  });

  it("keeps last_user_message only when the policy says so, everything stored stays masked", async () => {
    const { h, results } = await converse(withPolicy({ "handoff.last_user_message": all("keep") }));
    const handoff = handoffOf(results[2]!);
    expect(handoff.lastUserMessage).toBe(MESSAGES[2]);
    expect(leakedValues(handoff.conversationSummary)).toEqual([]);
    // The thread's latch keeps the handoff as sent; the turns themselves are masked.
    const view = await h.service.getThread("default", "thread-1");
    expect(view?.handoff?.handoff.lastUserMessage).toBe(MESSAGES[2]);
    expect(leakedValues(JSON.stringify(view?.recentTurns))).toEqual([]);
    expect(JSON.parse(await storedState(h)).turn.text).toBe("I want to talk to a human. Sheba [iban], mobile [mobile ••••2233]");
  });

  it("acts kind by kind: a mobile kept for the agent to call back, a card masked, an IBAN dropped", async () => {
    const { results } = await converse(withPolicy({ "handoff.last_user_message": { ...all("mask"), mobile: "keep", iban: "drop" } }));
    expect(handoffOf(results[2]!).lastUserMessage).toBe("I want to talk to a human. Sheba, mobile +98 935 111 2233");
  });

  it("a stricter derived field treats again what its source kept: history kept, GetThread and the handoff masked, the summary dropped", async () => {
    const { h, results } = await converse(withPolicy({ history: all("keep"), summary: all("drop"), get_thread: all("mask") }));
    const stored = JSON.parse(await storedState(h)) as AgentStateValue;
    expect(stored.history.map((e) => e.user)).toEqual([MESSAGES[1], MESSAGES[2]]);
    expect(stored.summary).toBe(`[answer] user: Hi there, my mobile is and my e-mail | agent: ${replyOf(results[0]!)}`);
    const view = await h.service.getThread("default", "thread-1");
    expect(view?.recentTurns.map((t) => t.userText)).toEqual(["کد ملی من [national-id] و کارتم [card] است", "I want to talk to a human. Sheba [iban], mobile [mobile ••••2233]"]);
    expect(leakedValues(handoffOf(results[2]!).conversationSummary)).toEqual([]);
    expect(handoffOf(results[2]!).conversationSummary).toContain("کد ملی من [national-id] و کارتم [card] است");
  });

  it("masks the query in progress lines and keeps the user's values out of the reader's reasons", async () => {
    const models = scriptedModels({ triage: () => ({ intent: "knowledge", confidence: 0.9 }), contextualize: (input) => ({ query: input.text }) });
    const unrelated = chunk("travel-en#4", "A 7-day trip costs 1,200,000 rials for a traveller under 60.", { title: "Travel Insurance", product: "travel", domain: "travel" });
    const h = harness({ models, retriever: fakeRetriever(() => [{ chunk: unrelated, score: 0.3 }]), settings: { gradeWithModel: false } });
    const events: NodeProgressEvent[] = [];
    const result = completed(
      await h.service.runTurn(turn(`My mobile is 0912 123 4567 and card ${VALUES.card}; what does glass cover cost?`), { onProgress: (e) => events.push(e) }),
    );
    const query = events.find((e) => e.node === "contextualize" && e.phase === "completed")?.summary;
    expect(query).toBe('query: "My mobile is [mobile ••••4567] and card [card]; what does glass cover cost?"');
    expect(result.outcome.kind).toBe("escalate");
    const detail = result.outcome.kind === "escalate" ? result.outcome.detail : "";
    // The reader names the question's terms no document has: the user's values are not among them.
    expect(detail).toMatch(/glass/u);
    expect(detail).not.toMatch(/0912|123|4567|6037|9990/u);
    expect(leakedValues(JSON.stringify(events))).toEqual([]);
  });
});

describe("record_turn: the agent's words", () => {
  const insurerMail = "complaints@arman-insurance.example";
  const evidence = chunk("complaints-en#2", `Send complaints to ${insurerMail}. Refunds go to the card on file.`, { title: "Complaints", product: "complaints" });

  function stateWith(text: string, outcome: TurnOutcome, policy: RedactionPolicy = DEFAULT_REDACTION): { state: AgentStateValue; bundle: AgentBundle } {
    const base = {
      ...turnDefaults(),
      threadStatus: "active",
      handoff: null,
      history: [],
      summary: "",
      turnCount: 0,
      clarifyStreak: 0,
      pendingClarify: null,
      replay: [],
      profile: {},
    };
    const state = {
      ...base,
      ...freshTurnState({ turnId: "t1", tenantId: "default", threadId: "thread-1", userId: "u", text, requestId: "r1", locale: "", domain: "", startedAtMs: 0 }),
      language: "en",
      rewrittenQuery: text,
      hits: [{ chunk: evidence, score: 0.9, neighbors: [] }],
      outcome,
    } as AgentStateValue;
    return { state, bundle: { ...bundle, redaction: policy } };
  }

  const answer = (text: string): TurnOutcome => ({
    kind: "answer",
    answerKind: "grounded",
    text,
    claims: [{ text, chunkIds: ["complaints-en#2"] }],
    citations: [],
    confidence: 0.9,
  });

  it("masks the user's own values an answer repeats and keeps the insurer's, quoted from its documents", async () => {
    const { state, bundle: b } = stateWith(
      `Refund to card ${VALUES.card} please, or mail me at ${VALUES.email}`,
      answer(`We will refund card ${VALUES.card}; write to ${insurerMail}, not ${VALUES.email}.`),
    );
    const update = await recordTurnNode({ bundle: b, now: () => 10, settings: { limits: { historyTurns: 6, summaryMaxChars: 1_200, replayRecords: 20 } } } as never)(state, {});
    const expected = `We will refund card [card]; write to ${insurerMail}, not [email].`;
    expect(update.result?.outcome).toMatchObject({ kind: "answer", text: expected, claims: [{ text: expected }] });
    expect(update.replay?.[0]?.result.outcome).toMatchObject({ text: expected });
    // Queries (read by the next turn's contextualize and retrieval) lose the values: no mask word becomes a search term.
    expect(update.history?.[0]).toMatchObject({
      user: "Refund to card [card] please, or mail me at [email]",
      reply: expected,
      rewrittenQuery: "Refund to card please, or mail me at",
    });
    expect(update.turn?.text).toBe("Refund to card [card] please, or mail me at [email]");
    expect(update.rewrittenQuery).toBe("Refund to card please, or mail me at");
    // The hash is of the raw text, so a retry of this very request still replays.
    expect(update.replay?.[0]?.textHash).toMatch(/^[0-9a-f]{64}$/u);
  });

  it("keeps an answer's values when the replay policy keeps them", async () => {
    const { state, bundle: b } = stateWith(`card ${VALUES.card}`, answer(`card ${VALUES.card}`), { ...DEFAULT_REDACTION, replay: all("keep") });
    const update = await recordTurnNode({ bundle: b, now: () => 10, settings: { limits: { historyTurns: 6, summaryMaxChars: 1_200, replayRecords: 20 } } } as never)(state, {});
    expect(update.result?.outcome).toMatchObject({ text: `card ${VALUES.card}` });
    expect(update.history?.[0]?.reply).toBe("card [card]");
  });
});

describe("createRedactor", () => {
  it("user text: every value; agent text: only the user's; tighten: only what the target is stricter about", () => {
    const policy: RedactionPolicy = { ...DEFAULT_REDACTION, history: { ...all("mask"), mobile: "keep" }, get_thread: all("mask") };
    const r = createRedactor(policy, [`mine: ${VALUES.mobile}`]);
    expect(r.user("summary", `call ${VALUES.mobile} or 0935 111 2233`)).toBe("call [mobile ••••4567] or [mobile ••••2233]");
    expect(r.agent("summary", `call ${VALUES.mobile} or 0935 111 2233`)).toBe("call [mobile ••••4567] or 0935 111 2233");
    expect(r.user("history", `call ${VALUES.mobile}, card ${VALUES.card}`)).toBe(`call ${VALUES.mobile}, card [card]`);
    expect(r.tighten("history", "get_thread", `call ${VALUES.mobile}, card [card]`)).toBe("call [mobile ••••4567], card [card]");
    expect(r.tighten("history", "summary", `call ${VALUES.mobile}`)).toBe("call [mobile ••••4567]");
    expect(r.tighten("get_thread", "history", `call ${VALUES.mobile}`)).toBe(`call ${VALUES.mobile}`);
    expect(r.query("history", `call ${VALUES.mobile}, card ${VALUES.card} today`)).toBe(`call ${VALUES.mobile}, card today`);
  });
});
