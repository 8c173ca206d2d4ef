import { describe, expect, it } from "vitest";
import type { GateClass, GateReading, Gates } from "../../src/agent/gates.js";
import { GATE_CLASSES } from "../../src/learn/index.js";
import { bundleGates, chunk, fakeRetriever, harness, scriptedModels, turn, completed } from "./support.js";

/**
 * The learned gate in the graph: each class routes where the ADR says, acting alone when it is
 * sure and through the triage model (knowledge against the rest) when it is not; the policy
 * lists stay explicit overrides. Fixed readings test the routing; the shipped classifier is
 * checked on a few clear messages of each kind.
 */

const deductible = chunk("motor-body-en#3", "The deductible is 10% of the assessed damage. The minimum deductible is 5,000,000 rials.", {
  title: "Motor Body Insurance",
  product: "motor-body",
});

/** Gates that always read `label` with probability `p`, sure or not. */
function fixedGates(label: GateClass, p: number, confident: boolean): Gates {
  const rest = (1 - p) / (GATE_CLASSES.length - 1);
  const scores = Object.fromEntries(GATE_CLASSES.map((c) => [c, c === label ? p : rest])) as GateReading["scores"];
  return { read: () => ({ label, probability: p, confident, scores }) };
}

async function run(h: ReturnType<typeof harness>, text: string) {
  const summaries: string[] = [];
  const path: string[] = [];
  const attempt = await h.service.runTurn(turn(text), {
    onProgress: (e) => {
      if (e.phase !== "completed") return;
      path.push(e.node);
      if (e.node === "triage") summaries.push(e.summary);
    },
  });
  return { result: completed(attempt), path, triage: summaries[0] ?? "" };
}

const answering = () =>
  scriptedModels({
    generate: () => ({ claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 }),
  });

describe("the learned gates route each class, acting alone when sure", () => {
  it.each([
    ["handoff_request", "user_requested"],
    ["account", "account_specific"],
    ["frustration", "frustration"],
  ] as const)("%s → escalate (%s), the decision in the summary and the detail, no model call", async (label, reason) => {
    const models = scriptedModels({});
    const h = harness({ models, retriever: fakeRetriever(() => []), gates: fixedGates(label, 0.97, true) });
    const { result, path, triage } = await run(h, "some message the lists do not know");
    expect(path).toEqual(["load_memory", "triage", "escalate", "record_turn"]);
    expect(result.outcome).toMatchObject({ kind: "escalate", reason, detail: `classifier: ${label} p=0.97` });
    expect(triage).toBe(`classifier: ${label} p=0.97 → escalate (${reason})`);
    expect(models.calls).toEqual([]);
  });

  it.each(["claim_dispute", "complaint", "cancellation", "payout", "legal"] as const)(
    "restricted:%s → escalate (restricted_intent), the category in the detail",
    async (category) => {
      const h = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => []), gates: fixedGates(`restricted:${category}`, 0.99, true) });
      const { result } = await run(h, "some message the lists do not know");
      expect(result.outcome).toMatchObject({
        kind: "escalate",
        reason: "restricted_intent",
        detail: `${category.replace("_", " ")} (classifier: restricted:${category} p=0.99) is never automated`,
      });
    },
  );

  it("chitchat → the bundle's reply, with the kind of chitchat the lists see in it", async () => {
    const h = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => []), gates: fixedGates("chitchat", 0.9, true) });
    const thanks = await run(h, "cheers mate, ta very much");
    expect(thanks.path).toEqual(["load_memory", "triage", "generate", "record_turn"]);
    expect(thanks.result.outcome).toMatchObject({ kind: "answer", answerKind: "chitchat", text: "You're welcome! Is there anything else I can help you with?" });
  });

  it("knowledge → retrieval, without a triage model call", async () => {
    const models = answering();
    const h = harness({ models, retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.8 }]), gates: fixedGates("knowledge", 0.95, true) });
    const { result, path } = await run(h, "What is the minimum deductible?");
    expect(path).toEqual(["load_memory", "triage", "contextualize", "retrieve", "grade", "generate", "verify", "write_memory", "record_turn"]);
    expect(result.outcome).toMatchObject({ kind: "answer", answerKind: "grounded" });
    expect(models.calls).toEqual(["generate"]);
  });

  it("out_of_scope is confirmed by retrieval: nothing good enough → the bundle's reply; a strong match → an answer", async () => {
    const refused = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.2 }]), gates: fixedGates("out_of_scope", 0.9, true) });
    const off = await run(refused, "who scored in the derby last night");
    expect(off.path).toEqual(["load_memory", "triage", "contextualize", "retrieve", "grade", "generate", "record_turn"]);
    expect(off.result.outcome).toMatchObject({ kind: "answer", answerKind: "out_of_scope", citations: [] });

    const models = answering();
    const answered = harness({ models, retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.8 }]), gates: fixedGates("out_of_scope", 0.9, true) });
    const on = await run(answered, "whats the minimum deductible on motor body");
    expect(on.result.outcome).toMatchObject({ kind: "answer", answerKind: "grounded" });

    // A high score the reader cannot answer from ("gold plan" is in no chunk) stays out of scope.
    const unanswered = harness({ models: answering(), retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.8 }]), gates: fixedGates("out_of_scope", 0.9, true) });
    const still = await run(unanswered, "zagros gold plan membership perks");
    expect(still.result.outcome).toMatchObject({ kind: "answer", answerKind: "out_of_scope" });

    // Half the question in common (the head office in Tehran) is not a reading of it: the reader
    // would quote the address (coverage 0.51), but the classifier's out_of_scope stands.
    const office = chunk("contact-en#9", "The head office is at 48 Golestan Street, Tehran. The head office opens at 8:00.", { title: "Contact Us", product: "contact" });
    const weather = harness({ models: answering(), retriever: fakeRetriever(() => [{ chunk: office, score: 0.5 }]), gates: fixedGates("out_of_scope", 0.9, true) });
    expect((await run(weather, "where in tehran is the head office for picnic weather")).result.outcome).toMatchObject({ kind: "answer", answerKind: "out_of_scope" });
  });

  it("out_of_scope guessed by the triage model for an unsure classifier yields to any reading that answers", async () => {
    const office = chunk("contact-en#9", "The head office is at 48 Golestan Street, Tehran. The head office opens at 8:00.", { title: "Contact Us", product: "contact" });
    const models = scriptedModels({
      triage: () => ({ intent: "out_of_scope", confidence: 0.6 }),
      generate: () => ({ claims: [{ text: "The head office is at 48 Golestan Street, Tehran.", chunkIds: ["contact-en#9"] }], answered: true, confidence: 0.9 }),
    });
    const unsure = harness({ models, retriever: fakeRetriever(() => [{ chunk: office, score: 0.5 }]), gates: fixedGates("out_of_scope", 0.5, false) });
    // The same half-covering reading the confident classifier's margin refuses above.
    expect((await run(unsure, "where in tehran is the head office for picnic weather")).result.outcome).toMatchObject({ kind: "answer", answerKind: "grounded" });
  });
});

describe("when the classifier is unsure, the triage model settles knowledge against the rest", () => {
  it("asks the model with the classifier's lean in words; knowledge goes to retrieval", async () => {
    const candidates: Array<string | undefined> = [];
    const models = scriptedModels({
      triage: (input) => {
        candidates.push(input.candidate);
        return { intent: "knowledge", confidence: 0.8 };
      },
      generate: () => ({ claims: [{ text: "Send complaints by email to complaints@example.com.", chunkIds: ["contact-en#2"] }], answered: true, confidence: 0.9 }),
    });
    const complaints = chunk("contact-en#2", "Send complaints by email to complaints@example.com.", { title: "Contact Us", product: "contact" });
    const h = harness({ models, retriever: fakeRetriever(() => [{ chunk: complaints, score: 0.8 }]), gates: fixedGates("restricted:complaint", 0.55, false) });
    const { result, triage } = await run(h, "what's the email to send a complaint to");
    expect(candidates).toEqual(["making a complaint"]);
    expect(result.outcome).toMatchObject({ kind: "answer", answerKind: "grounded" });
    expect(triage).toBe("classifier unsure (restricted:complaint p=0.55); model: knowledge → knowledge");
  });

  it("'not knowledge' keeps the classifier's handoff class, which the model's intents cannot name", async () => {
    const h = harness({
      models: scriptedModels({ triage: () => ({ intent: "chitchat", confidence: 0.6 }) }),
      retriever: fakeRetriever(() => []),
      gates: fixedGates("restricted:payout", 0.6, false),
    });
    const { result } = await run(h, "still nothing in my bank from you people");
    expect(result.outcome).toMatchObject({
      kind: "escalate",
      reason: "restricted_intent",
      detail: "payout (classifier unsure (restricted:payout p=0.60); triage model: chitchat) is never automated",
    });
  });

  it("a model that says out of scope or chitchat is believed over a weak lean to a person, the account or frustration", async () => {
    const h = harness({
      models: scriptedModels({ triage: () => ({ intent: "out_of_scope", confidence: 0.7 }) }),
      retriever: fakeRetriever(() => []),
      gates: fixedGates("frustration", 0.37, false),
    });
    const { result, triage } = await run(h, "Is that other company's roadside assistance any good?");
    expect(result.outcome).toMatchObject({ kind: "answer", answerKind: "out_of_scope" });
    expect(triage).toBe("classifier unsure (frustration p=0.37); model: out_of_scope → out_of_scope");
    // A model that names a person keeps the classifier's more specific handoff class.
    const person = harness({
      models: scriptedModels({ triage: () => ({ intent: "handoff_request", confidence: 0.7 }) }),
      retriever: fakeRetriever(() => []),
      gates: fixedGates("frustration", 0.4, false),
    });
    expect((await run(person, "ugh, can someone just sort this out")).result.outcome).toMatchObject({ kind: "escalate", reason: "frustration" });
  });

  it("out of scope is not believed over a lean to a person ('is there anybody real there?')", async () => {
    const h = harness({
      models: scriptedModels({ triage: () => ({ intent: "out_of_scope", confidence: 0.7 }) }),
      retriever: fakeRetriever(() => []),
      gates: fixedGates("handoff_request", 0.45, false),
    });
    const { result, triage } = await run(h, "is there anybody real there?");
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "user_requested" });
    expect(triage).toMatch(/^classifier unsure \(handoff_request p=0\.45\); model: out_of_scope → handoff_request/u);
    // Chitchat still is: a greeting that asks whether anyone is there.
    const hello = harness({
      models: scriptedModels({ triage: () => ({ intent: "chitchat", confidence: 0.7 }) }),
      retriever: fakeRetriever(() => []),
      gates: fixedGates("handoff_request", 0.45, false),
    });
    expect((await run(hello, "hello? anyone there?")).result.outcome).toMatchObject({ kind: "answer", answerKind: "chitchat" });
  });

  it("'not knowledge' with a lean to one of the model's own intents takes the model's intent", async () => {
    const h = harness({
      models: scriptedModels({ triage: () => ({ intent: "account", confidence: 0.7 }) }),
      retriever: fakeRetriever(() => []),
      gates: fixedGates("chitchat", 0.45, false),
    });
    const { result } = await run(h, "and mine?");
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "account_specific" });
  });
});

describe("the policy lists are explicit overrides", () => {
  it("a listed phrase fires even when the classifier is sure of knowledge", async () => {
    const models = scriptedModels({});
    const h = harness({ models, retriever: fakeRetriever(() => []), gates: fixedGates("knowledge", 0.99, true) });
    const { result, triage } = await run(h, "I want to file a complaint");
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "restricted_intent", detail: 'complaint ("want ... file a complaint") is never automated' });
    expect(triage).toBe("rule: restricted (complaint) → escalate (restricted_intent)");
    expect(models.calls).toEqual([]);
  });

  it("the classifier may make a listed handoff more precise, never undo it", async () => {
    // «اگه فسخ کنید میرم دادگاه»: the cancellation list matches, the message is a legal threat.
    const legal = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => []), gates: fixedGates("restricted:legal", 0.98, true) });
    const threat = await run(legal, "اگه بیمه‌نامه‌مو فسخ کنید میرم دادگاه");
    expect(threat.result.outcome).toMatchObject({ kind: "escalate", reason: "restricted_intent" });
    expect((threat.result.outcome as { detail: string }).detail).toMatch(/^legal \(classifier: restricted:legal p=0\.98; the list matched "فسخ کنید"\)/u);
    // A frustrated message that asks for a person is a handoff request.
    const person = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => []), gates: fixedGates("handoff_request", 0.95, true) });
    expect((await run(person, "this is useless, get me someone")).result.outcome).toMatchObject({ reason: "user_requested" });
    // A sure "knowledge" does not turn a listed frustration into an answer.
    const sure = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => []), gates: fixedGates("knowledge", 0.99, true) });
    expect((await run(sure, "this is useless")).result.outcome).toMatchObject({ kind: "escalate", reason: "frustration" });
  });

  it("shouting is frustration unless the classifier is sure the message is something else", async () => {
    const unsure = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => []), gates: fixedGates("knowledge", 0.4, false) });
    expect((await run(unsure, "WHY IS NOBODY ANSWERING MY QUESTION")).result.outcome).toMatchObject({ kind: "escalate", reason: "frustration" });
    const models = answering();
    const sure = harness({ models, retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.8 }]), gates: fixedGates("knowledge", 0.97, true) });
    expect((await run(sure, "WHAT IS THE MINIMUM DEDUCTIBLE")).result.outcome).toMatchObject({ kind: "answer" });
  });
});

describe("a question about a restricted topic that the documents cannot answer", () => {
  it("hands off to the colleague for that topic (restricted_intent), not as insufficient retrieval", async () => {
    const h = harness({
      models: scriptedModels({ grade: () => ({ verdict: "insufficient", relevantChunkIds: [] }) }),
      retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.1 }]),
      gates: fixedGates("knowledge", 0.9, true),
    });
    const { result } = await run(h, "how long does the ombudsman take to decide?");
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "restricted_intent" });
    expect((result.outcome as { detail: string }).detail).toMatch(/^a question about complaint \("ombudsman"\) that the documents do not answer/u);
    // The same failure on a question about nothing restricted stays insufficient retrieval.
    const plain = harness({ models: scriptedModels({}), retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.1 }]), gates: fixedGates("knowledge", 0.9, true) });
    expect((await run(plain, "does it cover volcanic eruptions on mars?")).result.outcome).toMatchObject({ kind: "escalate", reason: "insufficient_retrieval" });
  });
});

describe("an unsure lean to a handoff that the documents then cannot answer", () => {
  it("hands off for that lean's reason, not as insufficient retrieval; answered questions stay answered", async () => {
    // Unsure (below its threshold), leaning to the account; the triage model says knowledge.
    const gates = fixedGates("account", 0.6, false);
    const models = scriptedModels({ triage: () => ({ intent: "knowledge", confidence: 0.9 }), grade: () => ({ verdict: "insufficient", relevantChunkIds: [] }) });
    const h = harness({ models, retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.1 }]), gates });
    const { result } = await run(h, "how much do I still owe you on my own contract?");
    expect(result.outcome).toMatchObject({ kind: "escalate", reason: "account_specific" });
    expect((result.outcome as { detail: string }).detail).toMatch(/^the classifier leaned to account p=0\.60 and the documents do not answer/u);
    // A weak lean keeps the generic reason.
    const weak = harness({ models, retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.1 }]), gates: fixedGates("account", 0.3, false) });
    expect((await run(weak, "how much do I still owe you on my own contract?")).result.outcome).toMatchObject({ kind: "escalate", reason: "insufficient_retrieval" });
    // The documents answering wins over the lean.
    const answering = scriptedModels({
      triage: () => ({ intent: "knowledge", confidence: 0.9 }),
      generate: () => ({ claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 }),
    });
    const answered = harness({ models: answering, retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.8 }]), gates });
    expect((await run(answered, "What is the minimum deductible?")).result.outcome).toMatchObject({ kind: "answer" });
  });
});

describe("the shipped classifier", () => {
  it.each([
    ["could you put a real human on the line", "handoff_request"],
    ["you people turned down my roof claim and I reject that decision", "restricted:claim_dispute"],
    ["terminate my motorbike insurance from today", "restricted:cancellation"],
    ["you still haven't sent the money for my stolen bike", "restricted:payout"],
    ["ازتون شکایت میکنم و میرم دادگاه", "restricted:legal"],
    ["یه نفر از همکارانتون باهام تماس بگیره", "handoff_request"],
    ["this bot is hopeless and keeps looping", "frustration"],
    ["cheers, have a good one", "chitchat"],
    ["who scored in the derby last night", "out_of_scope"],
    ["how long does a payout usually take", "knowledge"],
    ["بیمه بدنه چه خسارت‌هایی رو پوشش میده؟", "knowledge"],
    // Wanting to buy is no cancellation: "I want … insurance" without "cancel" (none of these is a training line).
    ["i want to buy cover for my camera", "knowledge"],
    ["we want to buy travel insurance for our honeymoon", "knowledge"],
    ["میخوام یه بیمه برای دوربینم بخرم", "knowledge"],
    ["i want to cancel my scooter insurance", "restricted:cancellation"],
    ["میخوام بیمه اسکوترمو لغو کنم", "restricted:cancellation"],
  ] as const)("reads %j as %s, sure enough to act alone", (text, label) => {
    expect(bundleGates.read(text)).toMatchObject({ label, confident: true });
  });

  it("is not sure of a question about a process that names a restricted act, so the model is asked", () => {
    expect(bundleGates.read("what's the email to send a complaint to").confident).toBe(false);
  });
});
