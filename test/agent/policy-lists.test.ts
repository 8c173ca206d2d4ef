import { describe, expect, it } from "vitest";
import { createPolicy } from "../../src/agent/policy.js";
import { bundle } from "./support.js";

/** Gate-list entries added because evaluation scenarios showed a gap (docs/evaluation.md). */
const policy = createPolicy(bundle);
const gate = (text: string) => policy.evaluate({ text, pendingOptions: null });

describe("policy lists found by the evaluation", () => {
  it("sends a question about the user's own next installment to a person", () => {
    expect(gate("قسط بعدی من کی است؟")).toMatchObject({ kind: "account" });
    expect(gate("اقساط باقی‌مانده من چقدر است؟")).toMatchObject({ kind: "account" });
  });

  it("does not treat the general idea of claim tracking as the user's own claim", () => {
    expect(gate("شماره پیگیری خسارت چه شکلی است؟")).toBeNull();
    expect(gate("پیگیری خسارتم به کجا رسید؟")).toMatchObject({ kind: "account" });
    expect(gate("پیگیری پرونده من")).toMatchObject({ kind: "account" });
  });

  it("treats a refund request as a payout, never automated", () => {
    expect(gate("I want a refund of my premium.")).toMatchObject({ kind: "restricted", category: "payout" });
    expect(gate("Can I get a refund if I cancel within 14 days?")).toBeNull();
  });
});
