import { describe, expect, it } from "vitest";
import type { UserProfile } from "../../../src/domain/profile.js";
import { run } from "./helpers.js";

async function facts(text: string, language: "fa" | "en", profile: UserProfile = {}): Promise<UserProfile> {
  return (await run("extract_memory", { text, language, profile })).facts;
}

describe("offline extract_memory", () => {
  it.each([
    ["I drive a 2019 Peugeot 206", "en", { vehicle: "2019 Peugeot 206" }],
    ["my car is a Samand", "en", { vehicle: "Samand" }],
    ["ماشینم پژو ۲۰۶ است", "fa", { vehicle: "پژو 206" }],
    ["خودروی من پراید است", "fa", { vehicle: "پراید" }],
  ] as const)("vehicle: %s", async (text, language, expected) => {
    expect(await facts(text, language)).toEqual(expected);
  });

  it.each([
    ["I'm married", "en", { family: "married" }],
    ["I'm married with two kids", "en", { family: "married, two children" }],
    ["What about my wife and two kids?", "en", { family: "married, two children" }],
    ["متاهل هستم", "fa", { family: "متاهل" }],
    ["دو فرزند دارم", "fa", { family: "دو فرزند" }],
  ] as const)("family: %s", async (text, language, expected) => {
    expect(await facts(text, language)).toEqual(expected);
  });

  it.each([
    ["I have your travel insurance", "en", { productsHeld: ["travel"] }],
    ["بیمه بدنه دارم", "fa", { productsHeld: ["motor-body"] }],
    ["بیمه شخص ثالث و بیمه تکمیلی درمان دارم", "fa", { productsHeld: ["motor-third-party", "health-supplementary"] }],
  ] as const)("products held: %s", async (text, language, expected) => {
    expect(await facts(text, language)).toEqual(expected);
  });

  it.each([
    ["I live in an apartment in Tehran", "en", { home: "apartment in Tehran" }],
    ["I live in Shiraz", "en", { home: "Shiraz" }],
    ["در آپارتمانی در تهران زندگی می‌کنم", "fa", { home: "آپارتمان در تهران" }],
  ] as const)("home: %s", async (text, language, expected) => {
    expect(await facts(text, language)).toEqual(expected);
  });

  it("extracts several facts from one message", async () => {
    expect(await facts("I have a 2015 Kia Rio and a house in Karaj", "en")).toEqual({ vehicle: "2015 Kia Rio", home: "house in Karaj" });
  });

  it("does not read questions, wishes or negations as facts", async () => {
    expect(await facts("Does it cover two children?", "en")).toEqual({});
    expect(await facts("I have a question about a child policy", "en")).toEqual({});
    expect(await facts("I don't have travel insurance", "en")).toEqual({});
    expect(await facts("بیمه بدنه می‌خواهم", "fa")).toEqual({});
    expect(await facts("How much is third-party insurance for a Peugeot 206?", "en")).toEqual({});
  });

  it("never extracts ids, card, account or phone numbers, or health conditions", async () => {
    expect(await facts("My national id is 0012345678 and my card is 6037-9911-2233-4455", "en")).toEqual({});
    expect(await facts("I have diabetes and my phone number is 09121234567", "en")).toEqual({});
    expect(await facts("My IBAN is IR820540102680020817909002", "en")).toEqual({});
    // Only the car survives; the national id next to it does not.
    const mixed = await facts("کد ملی من ۰۰۱۲۳۴۵۶۷۸ است و ماشینم سمند است", "fa");
    expect(mixed).toEqual({ vehicle: "سمند" });
    expect(JSON.stringify(mixed)).not.toMatch(/\d{5,}/u);
  });

  it("extracts nothing from a message asking to forget", async () => {
    expect(await facts("Please forget that I drive a Peugeot 206", "en")).toEqual({});
    expect(await facts("فراموش کن که ماشینم پژو ۲۰۶ است", "fa")).toEqual({});
  });

  it("returns only facts found in this text, not the existing profile", async () => {
    expect(await facts("Thanks, that helps", "en", { vehicle: "2019 Peugeot 206", family: "married" })).toEqual({});
  });
});
