import { describe, expect, it } from "vitest";
import type { Intent } from "../../../src/models/roles.js";
import { run, turn } from "./helpers.js";

async function intentOf(text: string, language: "fa" | "en", history = [] as ReturnType<typeof turn>[]): Promise<Intent> {
  return (await run("triage", { text, language, history })).intent;
}

describe("offline triage", () => {
  it.each([
    ["I want to talk to a person", "en"],
    ["Can I speak to a human agent please?", "en"],
    ["operator", "en"],
    ["با کارشناس صحبت کنم", "fa"],
    ["اپراتور", "fa"],
    ["لطفاً من را به اپراتور وصل کنید", "fa"],
  ] as const)("handoff_request: %s", async (text, language) => {
    expect(await intentOf(text, language)).toBe("handoff_request");
  });

  it("does not read a habit told of someone else ('my father likes to speak to someone') as a person request", async () => {
    expect(await intentOf("My father likes to speak to someone in Farsi when he calls. Until what time is your Persian desk open?", "en")).toBe("knowledge");
    expect(await intentOf("my dad would like to speak to a human", "en")).toBe("handoff_request");
  });

  it("does not read an insurance agent as a person request", async () => {
    expect(await intentOf("Where can I find an agent near me?", "en")).toBe("knowledge");
  });

  it.each([
    ["Hi!", "en"],
    ["Thank you", "en"],
    ["How are you?", "en"],
    ["Who are you?", "en"],
    ["goodbye", "en"],
    ["سلام", "fa"],
    ["ممنونم", "fa"],
    ["خداحافظ", "fa"],
    ["تو کی هستی؟", "fa"],
  ] as const)("chitchat: %s", async (text, language) => {
    expect(await intentOf(text, language)).toBe("chitchat");
  });

  it.each([
    ["What is the status of my claim?", "en"],
    ["When is my next instalment due?", "en"],
    ["What's my policy number?", "en"],
    ["When does my policy expire?", "en"],
    ["Did you receive my payment?", "en"],
    ["Where is my refund?", "en"],
    ["I want to change my address", "en"],
    ["وضعیت خسارت من چیست؟", "fa"],
    ["قسط من", "fa"],
    ["شماره بیمه‌نامه‌ام را می‌خواهم", "fa"],
    ["بیمه‌نامه‌ام کی تمام می‌شود؟", "fa"],
    ["آدرسم را تغییر بدهید", "fa"],
  ] as const)("account: %s", async (text, language) => {
    expect(await intentOf(text, language)).toBe("account");
  });

  it.each([
    ["Does my travel insurance cover skiing?", "en"],
    ["How much is third-party insurance?", "en"],
    ["What are your call centre hours?", "en"],
    ["How do I file a claim for my car?", "en"],
    ["Can I pay my instalment online?", "en"],
    ["Hi, does body insurance cover floods?", "en"],
    ["بیمه بدنه چه خسارت‌هایی را پوشش می‌دهد؟", "fa"],
    ["ساعت کاری شعبه‌ها چیست؟", "fa"],
    ["بیمه‌نامه‌ام دندانپزشکی را پوشش می‌دهد؟", "fa"],
    ["سلام، قیمت بیمه شخص ثالث پراید چقدر است؟", "fa"],
  ] as const)("knowledge: %s", async (text, language) => {
    expect(await intentOf(text, language)).toBe("knowledge");
  });

  it.each([
    ["What's the weather in Tehran tomorrow?", "en"],
    ["Who won the football match?", "en"],
    ["Give me a pasta recipe", "en"],
    ["Write a python function to sort a list", "en"],
    ["What is the capital of France?", "en"],
    ["هوای تهران فردا چطور است؟", "fa"],
    ["دستور پخت قورمه سبزی", "fa"],
    ["پایتخت فرانسه کجاست؟", "fa"],
  ] as const)("out_of_scope: %s", async (text, language) => {
    expect(await intentOf(text, language)).toBe("out_of_scope");
  });

  it("reads an elliptical follow-up of a knowledge turn as knowledge", async () => {
    const history = [turn("motor third-party liability cover")];
    expect(await intentOf("what about passengers?", "en", history)).toBe("knowledge");
    expect(await intentOf("what about passengers?", "en")).toBe("out_of_scope");
    expect(await intentOf("قیمتش چقدر است؟", "fa", [turn("بیمه بدنه خودرو فرانشیز", "fa")])).toBe("knowledge");
  });

  it("is more confident about explicit rules than about weak vocabulary", async () => {
    const explicit = await run("triage", { text: "Can I speak to a human agent please?", language: "en", history: [] });
    const weak = await run("triage", { text: "Where can I find an agent near me?", language: "en", history: [] });
    expect(explicit.confidence).toBeGreaterThan(weak.confidence);
  });
});
