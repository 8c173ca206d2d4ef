import { describe, expect, it } from "vitest";
import { conversationSignal } from "../../src/agent/conversation.js";
import type { GateClass, GateReading, Gates } from "../../src/agent/gates.js";
import type { HistoryEntry } from "../../src/agent/state.js";
import { GATE_CLASSES } from "../../src/learn/index.js";
import { buildTaxonomy } from "../../src/retrieval/taxonomy.js";
import { chunk, fakeRetriever, harness, scriptedModels, turn, completed } from "./support.js";

/** Frustration from the conversation, not one message; and the clarify budget of replies that pick nothing. */

function reading(label: GateClass, p: number, frustration = label === "frustration" ? p : 0.01): GateReading {
  const scores = Object.fromEntries(GATE_CLASSES.map((c) => [c, c === label ? p : c === "frustration" ? frustration : 0.01])) as GateReading["scores"];
  return { label, probability: p, confident: false, scores };
}

/** Gates that read each known text as given, anything else as plain knowledge. */
function gatesOf(readings: Record<string, GateReading>): Gates {
  return { read: (text) => readings[text] ?? reading("knowledge", 0.9) };
}

const entry = (user: string, outcome: HistoryEntry["outcome"] = "answer"): HistoryEntry => ({
  user,
  reply: "…",
  outcome,
  language: "en",
  turnId: "t",
  requestId: "",
  completedAt: "2026-12-01T00:00:00.000Z",
});

const signal = (text: string, history: string[], readings: Record<string, GateReading> = {}) =>
  conversationSignal({ text, reading: gatesOf(readings).read(text), history: history.map((h) => entry(h)), gates: gatesOf(readings) });

describe("conversation-level frustration", () => {
  it("the same question asked again, across spelling variants", () => {
    expect(signal("What is the deductible for motor body insurance?", ["what's the deductible for motor body insurance"])).toMatchObject({ signal: "repeat" });
    // Arabic ي/ك, ZWNJ and Persian digits fold to the same terms.
    expect(signal("فرانشيز بيمه بدنه خودرو چقدر است؟", ["سلام", "فرانشیز بیمه بدنه خودرو چقدر است"])).toMatchObject({ signal: "repeat" });
    expect(signal("What is the deductible for motor body insurance?", ["How much does travel insurance cost?"])).toBeNull();
  });

  it("a restatement with annoyance in it, a word and its inflection counting as one", () => {
    const annoyed = { "ugh. i asked a simple question. does it cover scuba or not??": reading("frustration", 0.6) };
    expect(signal("ugh. i asked a simple question. does it cover scuba or not??", ["Does Hamsafar cover scuba diving?"], annoyed)).toMatchObject({
      signal: "repeat",
      detail: "restated an earlier question with annoyance (2 of its 4 terms)",
    });
    const fa = "بابا سه بار پرسیدم! فقط بگو چند روز وقت دارم خسارت گوشیمو اعلام کنم؟";
    expect(signal(fa, ["مهلت اعلام خسارت گجت گارد چند روزه؟"], { [fa]: reading("frustration", 0.4) })).toMatchObject({ signal: "repeat" });
  });

  it("never calls a calm follow-up a repeat, even with the same words and another number", () => {
    expect(signal("how much is hamsafar standard for 10 days?", ["how much is hamsafar standard for 5 days?"])).toBeNull();
    expect(signal("and for premier?", ["how much is hamsafar standard for 5 days?"])).toBeNull();
  });

  it("a second 'that's not what I asked', though neither was sure enough alone", () => {
    const readings = { "that's not what I asked": reading("frustration", 0.55), "no, I meant the excess for my wife": reading("frustration", 0.5) };
    expect(signal("no, I meant the excess for my wife", ["what is the excess?", "that's not what I asked"], readings)).toMatchObject({ signal: "again" });
    expect(signal("no, I meant the excess for my wife", ["what is the excess?"], readings)).toBeNull();
  });

  it('reads an unsure "I don\'t know" to a pending clarifying question as a reply to it, not as frustration again', () => {
    const readings = { "that's not what I asked": reading("frustration", 0.55), "dunno honestly": reading("frustration", 0.6) };
    const history = ["what is the excess?", "that's not what I asked"].map((h) => entry(h));
    const at = (clarifying: boolean) => conversationSignal({ text: "dunno honestly", reading: readings["dunno honestly"], history, gates: gatesOf(readings), clarifying });
    expect(at(false)).toMatchObject({ signal: "again" });
    expect(at(true)).toBeNull();
    // A confident reading is frustration whatever is pending.
    const sure = { ...reading("frustration", 0.9), confident: true };
    expect(conversationSignal({ text: "dunno honestly", reading: sure, history, gates: gatesOf(readings), clarifying: true })).toMatchObject({ signal: "again" });
  });

  it("does not count an earlier reply that picked nothing (and was asked the question again) as a complaint while the question is pending", () => {
    const readings = { "no idea which": reading("frustration", 0.6), "i told you, no idea": { ...reading("frustration", 0.85), confident: true } };
    const read = (history: HistoryEntry[], clarifying: boolean) =>
      conversationSignal({ text: "i told you, no idea", reading: readings["i told you, no idea"], history, gates: gatesOf(readings), clarifying });
    // "what's the excess?" was asked which product; "no idea which" picked none and was asked again.
    const loop = [entry("what's the excess?", "clarify"), entry("no idea which", "clarify")];
    expect(read(loop, true)).toBeNull();
    // The same words after an answer were a complaint about it.
    const answered = [entry("what's the excess?", "answer"), entry("no idea which", "answer")];
    expect(read(answered, true)).toMatchObject({ signal: "again" });
    expect(read(loop, false)).toMatchObject({ signal: "again" });
  });

  it("anger that rises from one message to the next", () => {
    const readings = { "hmm, that doesn't really answer it": reading("knowledge", 0.6, 0.25), "ARE YOU EVEN READING WHAT I WRITE": reading("knowledge", 0.5, 0.3) };
    expect(signal("ARE YOU EVEN READING WHAT I WRITE", ["hmm, that doesn't really answer it"], readings)).toMatchObject({ signal: "rising" });
    expect(signal("ARE YOU EVEN READING WHAT I WRITE", ["what is the excess?"], readings)).toBeNull();
  });

  it("does not call a reply that picks nothing from a pending clarifying question rising anger, unless it shouts", () => {
    const readings = {
      "car insurance": reading("knowledge", 0.6, 0.3),
      "no idea, just pick one for me": reading("frustration", 0.55),
      "NO IDEA, JUST PICK ONE!!": reading("frustration", 0.55),
    };
    const history = ["is my car covered?", "car insurance"].map((h) => entry(h));
    const at = (text: string, clarifying: boolean) => conversationSignal({ text, reading: readings[text as keyof typeof readings], history, gates: gatesOf(readings), clarifying });
    expect(at("no idea, just pick one for me", false)).toMatchObject({ signal: "rising" });
    expect(at("no idea, just pick one for me", true)).toBeNull();
    expect(at("NO IDEA, JUST PICK ONE!!", true)).toMatchObject({ signal: "rising" });
  });
});

const travel = chunk("travel-en#4", "A 7-day trip costs 1,200,000 rials for a traveller under 60.", { title: "Travel Insurance", product: "travel", domain: "travel" });
const health = chunk("health-supplementary-en#5", "The monthly premium is 2,500,000 rials per person under 40.", {
  title: "Supplementary Health Insurance",
  product: "health-supplementary",
  domain: "health",
});

/** Two products answer "How much does it cost?" about equally; any other query finds the travel page at `later`. */
const ambiguousFirst = (later: number) =>
  fakeRetriever((request) =>
    request.query === "How much does it cost?"
      ? [
          { chunk: travel, score: 0.6 },
          { chunk: health, score: 0.58 },
        ]
      : [{ chunk: travel, score: later }],
  );

describe("replies to a clarifying question that pick none of its options", () => {
  it("count toward the clarify budget: the question again, then budget_exhausted", async () => {
    // The first question is ambiguous; the replies add nothing retrieval can use.
    const retriever = ambiguousFirst(0.1);
    const models = scriptedModels({ triage: () => ({ intent: "knowledge", confidence: 0.9 }), contextualize: (input) => ({ query: input.text }) });
    const h = harness({ models, retriever });
    const first = completed(await h.service.runTurn(turn("How much does it cost?")));
    expect(first.outcome).toMatchObject({ kind: "clarify", attempt: 1 });

    const summaries: string[] = [];
    const second = completed(await h.service.runTurn(turn("idk, whatever"), { onProgress: (e) => e.phase === "completed" && summaries.push(`${e.node}: ${e.summary}`) }));
    expect(second.outcome).toMatchObject({ kind: "clarify", attempt: 2, options: (first.outcome as { options: unknown[] }).options });
    expect(summaries).toContain("grade: ambiguous (clarify_reply)");
    expect(summaries.find((s) => s.startsWith("triage"))).toMatch(/^triage: reply to the clarifying question picks no option/u);

    const third = completed(await h.service.runTurn(turn("you tell me")));
    expect(third.outcome).toMatchObject({ kind: "escalate", reason: "budget_exhausted" });
  });

  it("count toward the budget when they are impatient with the question, not as frustration; shouting still is", async () => {
    // The classifier is sure each is frustration, as the shipped one is of such messages on their own.
    const sure = (p: number) => ({ ...reading("frustration", p), confident: true });
    const gates = gatesOf({ "come on, just answer the question": sure(0.99), "this is getting annoying, just pick one": sure(0.96), "JUST ANSWER THE QUESTION!!!": sure(0.99) });
    const retriever = ambiguousFirst(0.1);
    const models = scriptedModels({ triage: () => ({ intent: "knowledge", confidence: 0.9 }), contextualize: (input) => ({ query: input.text }) });
    const h = harness({ models, retriever, gates });
    expect(completed(await h.service.runTurn(turn("How much does it cost?"))).outcome).toMatchObject({ kind: "clarify", attempt: 1 });
    expect(completed(await h.service.runTurn(turn("come on, just answer the question"))).outcome).toMatchObject({ kind: "clarify", attempt: 2 });
    expect(completed(await h.service.runTurn(turn("this is getting annoying, just pick one"))).outcome).toMatchObject({ kind: "escalate", reason: "budget_exhausted" });

    const loud = harness({ models, retriever: ambiguousFirst(0.1), gates });
    completed(await loud.service.runTurn(turn("How much does it cost?")));
    expect(completed(await loud.service.runTurn(turn("JUST ANSWER THE QUESTION!!!"))).outcome).toMatchObject({ kind: "escalate", reason: "frustration" });
  });

  it("are searched with the pending question they answer, without a rewrite by the model", async () => {
    const queries: string[] = [];
    const retriever = fakeRetriever((request) => {
      queries.push(request.query);
      return request.query === "How much does it cost?"
        ? [
            { chunk: travel, score: 0.6 },
            { chunk: health, score: 0.58 },
          ]
        : [{ chunk: travel, score: 0.1 }];
    });
    let rewrites = 0;
    const models = scriptedModels({
      triage: () => ({ intent: "knowledge", confidence: 0.9 }),
      contextualize: (input) => {
        rewrites++;
        return { query: input.text };
      },
    });
    const h = harness({ models, retriever });
    completed(await h.service.runTurn(turn("How much does it cost?")));
    queries.length = 0;
    completed(await h.service.runTurn(turn("the main one")));
    expect(queries[0]).toBe("How much does it cost? the main one");
    expect(rewrites).toBe(0);
  });

  it("are not answered from a product that was neither offered nor named in the reply", async () => {
    const quake = chunk("home-quake-en#2", "The main shock and its aftershocks within 72 hours cost 2,000,000 rials as one event.", {
      title: "Home Earthquake Insurance",
      product: "home-quake",
      domain: "home",
    });
    const retriever = fakeRetriever((request) =>
      request.query === "How much does it cost?"
        ? [
            { chunk: travel, score: 0.6 },
            { chunk: health, score: 0.58 },
          ]
        : [{ chunk: quake, score: 0.9 }],
    );
    const models = scriptedModels({ triage: () => ({ intent: "knowledge", confidence: 0.9 }), contextualize: (input) => ({ query: input.text }) });
    const h = harness({ models, retriever });
    const first = completed(await h.service.runTurn(turn("How much does it cost?")));
    expect(first.outcome).toMatchObject({ kind: "clarify", attempt: 1 });
    const second = completed(await h.service.runTurn(turn("the main one")));
    expect(second.outcome).toMatchObject({ kind: "clarify", attempt: 2, options: (first.outcome as { options: unknown[] }).options });
  });

  it("are not answered from a general page's passage about one of the offered products only", async () => {
    const trip = chunk("voyage-en#1", "A 7-day trip costs 1,200,000 rials.", { title: "Travel Insurance", product: "voyage", domain: "trips" });
    const care = chunk("carewell-en#1", "The monthly premium is 2,500,000 rials per person.", { title: "Supplementary Health Insurance", product: "carewell", domain: "care" });
    // A glossary names every product line, so it is a general page; one of its entries speaks of one product.
    const glossary = (index: number, text: string) => chunk(`glossary-en#${index}`, text, { title: "Glossary", product: "glossary", domain: "glossary" });
    const both = glossary(1, "Premium – what you pay for Travel Insurance or Supplementary Health Insurance.");
    const one = glossary(2, "Yearly cost – Supplementary Health Insurance costs 30,000,000 rials a year for one person.");
    const persian = (id: string, title: string, product: string, domain: string, text: string) => ({ id, title, product, domain, lang: "fa" as const, text });
    const retriever = fakeRetriever(
      (request) =>
        request.query === "How much does it cost?"
          ? [
              { chunk: trip, score: 0.6 },
              { chunk: care, score: 0.58 },
              { chunk: both, score: 0.2 },
            ]
          : [{ chunk: one, score: 0.9 }],
      // With its Persian pages: in a corpus of three pages every word is too common to name a product.
      buildTaxonomy([
        ...[trip, care, both].map((c) => ({
          id: c.documentId,
          title: c.title,
          product: c.product,
          domain: c.domain,
          lang: c.lang,
          text: c === both ? `${both.text}\n${one.text}` : c.text,
        })),
        persian("voyage-fa", "بیمه مسافرتی", "voyage", "trips", "سفر هفت روزه"),
        persian("carewell-fa", "بیمه تکمیلی درمان", "carewell", "care", "حق بیمه ماهانه"),
        persian("glossary-fa", "واژه‌نامه", "glossary", "glossary", "بیمه مسافرتی و بیمه تکمیلی درمان"),
      ]),
    );
    const models = scriptedModels({
      triage: () => ({ intent: "knowledge", confidence: 0.9 }),
      contextualize: (input) => ({ query: input.text }),
      generate: () => ({ claims: [{ text: one.text, chunkIds: [one.chunkId] }], answered: true, confidence: 0.9 }),
    });
    const h = harness({ models, retriever });
    const first = completed(await h.service.runTurn(turn("How much does it cost?")));
    expect(first.outcome).toMatchObject({ kind: "clarify", attempt: 1, options: [{ product: "voyage" }, { product: "carewell" }] });
    const second = completed(await h.service.runTurn(turn("the cheap one")));
    expect(second.outcome).toMatchObject({ kind: "clarify", attempt: 2 });
    // Naming the product in the reply picks it.
    const named = harness({ models, retriever });
    completed(await named.service.runTurn(turn("How much does it cost?")));
    expect(completed(await named.service.runTurn(turn("the supplementary health one"))).outcome).toMatchObject({ kind: "answer" });
  });

  it("a reply the classifier is sure is a question, but that adds only a word every page uses, is asked again too", async () => {
    const retriever = ambiguousFirst(0.8);
    // Read alone, "the insurance" is a confident knowledge question; and the pending question
    // with it would be answered from the one page retrieval returns.
    const gates = gatesOf({ "the insurance": { ...reading("knowledge", 0.95), confident: true }, "the travel one": { ...reading("knowledge", 0.95), confident: true } });
    const models = scriptedModels({ triage: () => ({ intent: "knowledge", confidence: 0.9 }), contextualize: (input) => ({ query: `How much does it cost? ${input.text}` }) });
    const h = harness({ models, retriever, gates });
    const first = completed(await h.service.runTurn(turn("How much does it cost?")));
    expect(first.outcome).toMatchObject({ kind: "clarify", attempt: 1 });
    const second = completed(await h.service.runTurn(turn("the insurance")));
    expect(second.outcome).toMatchObject({ kind: "clarify", attempt: 2, options: (first.outcome as { options: unknown[] }).options });
    // A reply with a word that tells the pages apart is read as before.
    const again = harness({ models, retriever, gates });
    completed(await again.service.runTurn(turn("How much does it cost?")));
    const graded: string[] = [];
    await again.service.runTurn(turn("the travel one"), { onProgress: (e) => e.phase === "completed" && e.node === "grade" && graded.push(e.summary) });
    expect(graded).toEqual(["sufficient (reader)"]);
  });

  it("a one- or two-word shrug the classifier reads as frustration is a reply that picks nothing; a longer vent is frustration", async () => {
    const retriever = ambiguousFirst(0.1);
    const angry = { ...reading("frustration", 0.91), confident: true };
    const gates = gatesOf({ whatever: angry, "no idea": angry, "this is useless, you never answer anything": angry });
    const models = scriptedModels({ triage: () => ({ intent: "knowledge", confidence: 0.9 }), contextualize: (input) => ({ query: input.text }) });
    const h = harness({ models, retriever, gates });
    expect(completed(await h.service.runTurn(turn("How much does it cost?"))).outcome).toMatchObject({ kind: "clarify", attempt: 1 });
    expect(completed(await h.service.runTurn(turn("whatever"))).outcome).toMatchObject({ kind: "clarify", attempt: 2 });
    expect(completed(await h.service.runTurn(turn("no idea"))).outcome).toMatchObject({ kind: "escalate", reason: "budget_exhausted" });

    const vent = harness({ models, retriever, gates });
    completed(await vent.service.runTurn(turn("How much does it cost?")));
    expect(completed(await vent.service.runTurn(turn("this is useless, you never answer anything"))).outcome).toMatchObject({ kind: "escalate", reason: "frustration" });

    // A longer reply only a little annoyed ("the normal one, obviously") picks nothing too.
    const terse = harness({ models, retriever, gates: gatesOf({ "the normal one obviously": { ...reading("frustration", 0.85), confident: true } }) });
    completed(await terse.service.runTurn(turn("How much does it cost?")));
    expect(completed(await terse.service.runTurn(turn("the normal one obviously"))).outcome).toMatchObject({ kind: "clarify", attempt: 2 });
  });

  it("a reply that names an option still picks it", async () => {
    const retriever = fakeRetriever((request) =>
      request.documentIds?.includes("travel-en")
        ? [{ chunk: travel, score: 0.8 }]
        : [
            { chunk: travel, score: 0.6 },
            { chunk: health, score: 0.58 },
          ],
    );
    const models = scriptedModels({
      triage: () => ({ intent: "knowledge", confidence: 0.9 }),
      generate: () => ({ claims: [{ text: "A 7-day trip costs 1,200,000 rials for a traveller under 60.", chunkIds: ["travel-en#4"] }], answered: true, confidence: 0.9 }),
    });
    const h = harness({ models, retriever });
    completed(await h.service.runTurn(turn("How much does it cost?")));
    expect(completed(await h.service.runTurn(turn("the travel one"))).outcome).toMatchObject({ kind: "answer" });
  });
});
