import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/app/logger.js";
import { REDACTED, redactForLog } from "../../src/domain/logger.js";
import { fa, leakedValues, VALUES } from "../support/pii.js";

function capture() {
  const lines: string[] = [];
  const logger = createLogger("debug", { write: (line: string) => void lines.push(line) });
  return { lines, logger, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("logs never carry personal data", () => {
  it("replaces user-text fields whole, at any depth", () => {
    const { logger, parsed } = capture();
    logger.info({ thread: "t-1", text: "my name is Sara and I live at 12 Azadi St", request: { userText: "hello", lastUserMessage: "x", turns: [{ reply: "y" }] } }, "turn");
    expect(parsed()[0]).toMatchObject({ thread: "t-1", text: REDACTED, request: { userText: REDACTED, lastUserMessage: REDACTED, turns: [{ reply: REDACTED }] }, msg: "turn" });
  });

  it("masks values in every other string: messages, errors (message, stack, cause), child bindings", () => {
    const { logger, lines, parsed } = capture();
    const cause = new Error(`upstream echoed ${VALUES.iban}`);
    const err = Object.assign(new Error(`model refused: card ${VALUES.card} and mobile ${fa(VALUES.mobile)}`, { cause }), { code: "E_MODEL", detail: `mail ${VALUES.email}` });
    logger.child({ caller: `national code ${VALUES.nationalId}` }).error({ err, attempt: 2 }, `gave up on ${VALUES.email2}`);
    expect(leakedValues(lines.join(""))).toEqual([]);
    const line = parsed()[0]!;
    expect(line).toMatchObject({
      caller: "national code [national-id]",
      attempt: 2,
      msg: "gave up on [email]",
      err: {
        type: "Error",
        message: "model refused: card [card] and mobile [mobile ••••۴۵۶۷]",
        code: "E_MODEL",
        detail: "mail [email]",
        cause: { message: "upstream echoed [iban]" },
      },
    });
    expect((line["err"] as { stack: string }).stack).toMatch(/^Error: model refused: card \[card\]/u);
  });

  it("leaves what is not personal alone: ids, counts, the insurer's phone numbers, amounts", () => {
    const { logger, parsed } = capture();
    logger.warn({ thread: "t-1", ms: 12, line: "+98 21 8000 7000", amount: "4,500,000 rials" }, "policy AR-MB-20451873");
    expect(parsed()[0]).toMatchObject({ thread: "t-1", ms: 12, line: "+98 21 8000 7000", amount: "4,500,000 rials", msg: "policy AR-MB-20451873" });
  });

  it("redactForLog survives cycles, depth, bytes and dates; never throws", () => {
    const cyclic: Record<string, unknown> = { name: `x ${VALUES.mobile}` };
    cyclic["self"] = cyclic;
    const when = new Date(0);
    expect(redactForLog({ cyclic, bytes: Buffer.from("secret"), when, deep: { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } } })).toEqual({
      cyclic: { name: "x [mobile ••••4567]", self: "[circular]" },
      bytes: "[6 bytes]",
      when,
      deep: { a: { b: { c: { d: { e: { f: { g: "[…]" } } } } } } },
    });
    expect(redactForLog(`card ${VALUES.card}`)).toBe("card [card]");
    expect(redactForLog(null)).toBeNull();
  });
});
