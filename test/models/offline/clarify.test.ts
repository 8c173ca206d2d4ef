import { describe, expect, it } from "vitest";
import { run } from "./helpers.js";

describe("offline clarify", () => {
  it("names the options in order, in English", async () => {
    const out = await run("clarify", {
      userText: "how much does it cost?",
      query: "how much does it cost?",
      language: "en",
      options: ["Motor Body Insurance", "Motor Third-Party Liability Insurance", "Travel Medical Insurance"],
    });
    expect(out.question).toBe("Which one do you mean: Motor Body Insurance, Motor Third-Party Liability Insurance or Travel Medical Insurance?");
  });

  it("names the options in order, in Persian", async () => {
    const out = await run("clarify", { userText: "قیمتش چقدر است؟", query: "قیمت", language: "fa", options: ["بیمه بدنه خودرو", "بیمه شخص ثالث خودرو"] });
    expect(out.question).toBe("منظورتان کدام است: بیمه بدنه خودرو یا بیمه شخص ثالث خودرو؟");
  });

  it("never adds options", async () => {
    expect((await run("clarify", { userText: "x", query: "x", language: "en", options: ["Life Insurance"] })).question).toBe("Do you mean Life Insurance?");
    expect((await run("clarify", { userText: "x", query: "x", language: "en", options: [] })).question).toBe("Which insurance product do you mean?");
    expect((await run("clarify", { userText: "x", query: "x", language: "fa", options: [] })).question).toBe("لطفاً بفرمایید منظورتان کدام بیمه است؟");
  });

  it("stays within the schema's length when labels are long", async () => {
    const options = Array.from({ length: 6 }, (_, i) => `A very long product title number ${i} ${"with many words ".repeat(5)}`);
    const out = await run("clarify", { userText: "x", query: "x", language: "en", options });
    expect(out.question).toBe("Which of the following options do you mean?");
  });
});
