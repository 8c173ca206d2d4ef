import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadBundle } from "../../src/app/bundle.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { compilePhrase, findPhrase, ruleWords } from "../../src/agent/phrases.js";
import { createPolicy, matchClarifyChoice, type Gate } from "../../src/agent/policy.js";
import type { ClarifyOption } from "../../src/domain/turn.js";

const policy = createPolicy(loadBundle(path.join(PACKAGE_ROOT, "bundle")));
const gate = (text: string, pendingOptions: ClarifyOption[] | null = null): Gate | null => policy.evaluate({ text, pendingOptions });

describe("a handoff phrase told of someone else's habit", () => {
  it("does not fire on 'my father likes to speak to someone', and fires on any request in the first person", () => {
    expect(gate("My father likes to speak to someone in Farsi when he calls. Until what time is your Persian desk open on Fridays?")).toBeNull();
    expect(gate("My mother usually talks to someone at the branch. What are your opening hours?")).toBeNull();
    expect(gate("I always like to speak to someone")).toMatchObject({ kind: "handoff" });
    expect(gate("I want to speak to someone")).toMatchObject({ kind: "handoff" });
    expect(gate("he would like to speak to someone")).toMatchObject({ kind: "handoff" });
    // A habit told first, then a request of the same phrase: the request fires.
    expect(gate("My father likes to talk to someone. I want to talk to someone too")).toMatchObject({ kind: "handoff" });
  });
});

describe("phrase patterns", () => {
  it("folds the verb prefix می so every spelling is one word", () => {
    expect(ruleWords("می خواهم")).toEqual(ruleWords("می‌خواهم"));
    expect(ruleWords("میخواهم")).toEqual(["میخواهم"]);
  });
  it("matches prefixes and bounded gaps, on whole words only", () => {
    const words = ruleWords("Can I talk to a real human please?");
    expect(findPhrase(compilePhrase("talk ... human"), words)).toEqual({ start: 2, end: 7 });
    expect(findPhrase(compilePhrase("talk ... human"), ruleWords("talk about the very long policy with a human"))).toBeNull();
    expect(findPhrase(compilePhrase("frustrat*"), ruleWords("This is frustrating"))).not.toBeNull();
    expect(findPhrase(compilePhrase("sue"), ruleWords("there is an issue"))).toBeNull();
  });
});

describe("deterministic gates", () => {
  it.each([
    ["Can I talk to a human?", "handoff"],
    ["connect me with an agent please", "handoff"],
    ["I want a real person", "handoff"],
    ["می‌خواهم با اپراتور صحبت کنم", "handoff"],
    ["لطفا به یک کارشناس وصلم کنید", "handoff"],
  ])("%s → %s", (text, kind) => {
    expect(gate(text)?.kind).toBe(kind);
  });

  it.each([
    ["You rejected my claim and I want to appeal", "claim_dispute"],
    ["I want to file a complaint about your service", "complaint"],
    ["I'd like to cancel my policy", "cancellation"],
    ["When will I get paid for the accident?", "payout"],
    ["My lawyer will contact you", "legal"],
    ["به ارزیابی خسارت اعتراض دارم", "claim_dispute"],
    ["می‌خواهم شکایت کنم", "complaint"],
    ["لطفا بیمه‌نامه‌ام را لغو کنید", "cancellation"],
    ["از طریق دادگاه پیگیری می‌کنم", "legal"],
  ])("restricted: %s → %s", (text, category) => {
    expect(gate(text)).toMatchObject({ kind: "restricted", category });
  });

  it("catches frustration by phrase; shouting and repetition are weighed with the classifier (gates.test.ts, conversation.test.ts)", () => {
    expect(gate("This is useless")).toMatchObject({ kind: "frustration", signal: "phrase" });
    expect(gate("این مسخره است")).toMatchObject({ kind: "frustration", signal: "phrase" });
    expect(gate("WHY IS NOBODY ANSWERING MY QUESTION")).toBeNull();
  });

  it("recognises questions about the user's own records", () => {
    expect(gate("What is my claim status?")?.kind).toBe("account");
    expect(gate("When is my next payment due?")?.kind).toBe("account");
    expect(gate("وضعیت خسارت من چیست؟")?.kind).toBe("account");
  });

  it("treats a message as chitchat only when nothing else is in it", () => {
    expect(gate("Hi there!")).toEqual({ kind: "chitchat", chitchat: "greeting" });
    expect(gate("thanks a lot")).toEqual({ kind: "chitchat", chitchat: "thanks" });
    expect(gate("سلام")).toEqual({ kind: "chitchat", chitchat: "greeting" });
    expect(gate("خیلی ممنون")).toEqual({ kind: "chitchat", chitchat: "thanks" });
    expect(gate("who are you?")).toEqual({ kind: "chitchat", chitchat: "smalltalk" });
    expect(gate("Hi, does travel insurance cover skiing?")).toBeNull();
    expect(gate("سلام، بیمه سفر چقدر است؟")).toBeNull();
  });

  it("lets general questions through to the model", () => {
    expect(gate("What does supplementary health insurance cover?")).toBeNull();
    expect(gate("How do I file a claim after a car accident?")).toBeNull();
    expect(gate("بیمه بدنه چه خطراتی را پوشش می‌دهد؟")).toBeNull();
  });

  it("puts an explicit handoff request before a restricted intent", () => {
    expect(gate("I want to cancel my policy, let me talk to a person")?.kind).toBe("handoff");
  });
});

describe("clarify choices", () => {
  const options: ClarifyOption[] = [
    { label: "Motor Body Insurance", documentId: "motor-body-en", domain: "motor", title: "Motor Body Insurance", product: "motor-body" },
    { label: "Travel Medical Insurance", documentId: "travel-en", domain: "travel", title: "Travel Medical Insurance", product: "travel" },
    { label: "بیمه درمان تکمیلی", documentId: "health-supplementary-fa", domain: "health", title: "بیمه درمان تکمیلی", product: "health-supplementary" },
  ];
  it("selects by number, ordinal or name", () => {
    expect(matchClarifyChoice("2", options)?.option.product).toBe("travel");
    expect(matchClarifyChoice("۱", options)?.option.product).toBe("motor-body");
    expect(matchClarifyChoice("the second one", options)?.option.product).toBe("travel");
    expect(matchClarifyChoice("travel please", options)?.option.product).toBe("travel");
    expect(matchClarifyChoice("درمان تکمیلی", options)?.option.product).toBe("health-supplementary");
  });
  it("takes a number word as a pick only when nothing else describes the choice", () => {
    expect(matchClarifyChoice("option two", options)?.option.product).toBe("travel");
    expect(matchClarifyChoice("one", options)?.option.product).toBe("motor-body");
    expect(matchClarifyChoice("گزینه دو", options)?.option.product).toBe("travel");
    expect(matchClarifyChoice("the usual one", options)).toBeNull();
    expect(matchClarifyChoice("the main one", options)).toBeNull();
  });
  it("selects nothing for an unrelated reply, an out-of-range number or a tie", () => {
    expect(matchClarifyChoice("what about earthquakes?", options)).toBeNull();
    expect(matchClarifyChoice("7", options)).toBeNull();
    expect(matchClarifyChoice("insurance", options)).toBeNull();
  });
  it("reads a product option's title for the product, not for what its page states", () => {
    const pages: ClarifyOption[] = [
      { label: "Voyage Travel Cover – Price Guide", documentId: "voyage-prices-en", domain: "travel", title: "Voyage Travel Cover – Price Guide", product: "voyage" },
      { label: "Gizmo – Questions and Answers", documentId: "gizmo-faq-en", domain: "gadgets", title: "Gizmo – Questions and Answers", product: "gizmo" },
    ];
    expect(matchClarifyChoice("seriously? just give me a price", pages)).toBeNull();
    expect(matchClarifyChoice("I have questions", pages)).toBeNull();
    expect(matchClarifyChoice("the travel one", pages)?.option.product).toBe("voyage");
    // A table's own labels are read by every word, what is asked included.
    const columns: ClarifyOption[] = [
      { label: "Monthly", documentId: "voyage-prices-en", domain: "travel", title: "Voyage Travel Cover – Price Guide", product: "voyage" },
      { label: "Annual", documentId: "voyage-prices-en", domain: "travel", title: "Voyage Travel Cover – Price Guide", product: "voyage" },
    ];
    expect(matchClarifyChoice("annual please", columns)?.option.label).toBe("Annual");
  });
  it("is a gate only while a clarifying question is pending", () => {
    expect(gate("2", options)).toMatchObject({ kind: "clarify_choice", index: 1 });
    expect(gate("2")).toBeNull();
  });
});
