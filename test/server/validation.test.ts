import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { validateGetThreadRequest, validateTurnRequest } from "../../src/server/validate.js";
import { startServer, type Running } from "./helpers.js";

const limits = { maxTextChars: 10, maxIdChars: 16 };
const good = { threadId: "t-1", userId: "u.1:x_y-z", text: "hello" };

describe("validateTurnRequest", () => {
  test("a valid request becomes a TurnInput without the tenant, optional fields only when set", () => {
    expect(validateTurnRequest(create(TurnRequestSchema, good), limits)).toEqual({
      kind: "valid",
      input: { threadId: "t-1", userId: "u.1:x_y-z", text: "hello", requestId: "" },
    });
    const full = create(TurnRequestSchema, { ...good, requestId: "r-1", locale: "en-GB", domain: "motor" });
    expect(validateTurnRequest(full, limits)).toEqual({
      kind: "valid",
      input: { threadId: "t-1", userId: "u.1:x_y-z", text: "hello", requestId: "r-1", locale: "en-GB", domain: "motor" },
    });
  });

  test("text length counts characters, not UTF-16 units", () => {
    // Ten emoji are 20 UTF-16 units but 10 characters: at the limit, still valid.
    const emoji = "😀".repeat(10);
    expect(validateTurnRequest(create(TurnRequestSchema, { ...good, text: emoji }), limits).kind).toBe("valid");
    const persian = "سلام دنیا!!"; // 11 characters
    expect(validateTurnRequest(create(TurnRequestSchema, { ...good, text: persian }), limits)).toEqual({
      kind: "invalid",
      field: "text",
      message: "text: must be at most 10 characters (got 11)",
    });
  });

  test("exact messages name the proto field", () => {
    const check = (patch: Record<string, string>) => validateTurnRequest(create(TurnRequestSchema, { ...good, ...patch }), limits);
    expect(check({ threadId: "" })).toEqual({ kind: "invalid", field: "thread_id", message: "thread_id: must be 1-16 characters of [A-Za-z0-9._:-]" });
    expect(check({ userId: "a b" })).toEqual({ kind: "invalid", field: "user_id", message: "user_id: must be 1-16 characters of [A-Za-z0-9._:-]" });
    expect(check({ text: "" })).toEqual({ kind: "invalid", field: "text", message: "text: required" });
    expect(check({ text: " \n\t " })).toEqual({ kind: "invalid", field: "text", message: "text: must not be blank" });
    expect(check({ requestId: "x".repeat(17) })).toEqual({ kind: "invalid", field: "request_id", message: "request_id: must be at most 16 characters of [A-Za-z0-9._:-]" });
    expect(check({ locale: "english!" })).toEqual({ kind: "invalid", field: "locale", message: 'locale: must be a BCP-47 language tag such as "fa" or "en-GB"' });
    // Whether the tenant's documents have the domain is the turn service's check; here, its shape.
    expect(check({ domain: "Pets!" })).toEqual({ kind: "invalid", field: "domain", message: "domain: must be a slug: lower-case letters, digits and dashes, at most 64" });
    expect(check({ domain: "pets" }).kind).toBe("valid");
  });

  test("control characters other than newline and tab are refused, naming the first one; blank looks through invisible characters", () => {
    const check = (patch: Record<string, string>) => validateTurnRequest(create(TurnRequestSchema, { ...good, ...patch }), limits);
    expect(check({ text: "a\u0000b" })).toEqual({ kind: "invalid", field: "text", message: "text: must not contain control characters (U+0000 at character 2)" });
    expect(check({ text: "😀\u007f" })).toEqual({ kind: "invalid", field: "text", message: "text: must not contain control characters (U+007F at character 2)" });
    expect(check({ text: "a\u009fb" })).toMatchObject({ field: "text", message: "text: must not contain control characters (U+009F at character 2)" });
    expect(check({ threadId: "t\u001b" })).toMatchObject({ field: "thread_id", message: "thread_id: must not contain control characters (U+001B at character 2)" });
    expect(check({ requestId: "\u0085" })).toMatchObject({ field: "request_id", message: "request_id: must not contain control characters (U+0085 at character 1)" });
    for (const blank of ["\u200B", "\u200C\u200D", "\u2060 \uFEFF", "\u0007\u200B", " \n\t\u00A0"]) {
      expect(check({ text: blank })).toEqual({ kind: "invalid", field: "text", message: "text: must not be blank" });
    }
    expect(check({ text: "a\n\tb" }).kind).toBe("valid");
    // A message's carriage returns are line ends: read as "\n", never refused; an id's are refused.
    expect(check({ text: "a\r\nb\rc" })).toMatchObject({ kind: "valid", input: { text: "a\nb\nc" } });
    expect(check({ text: "\r\n\r" })).toEqual({ kind: "invalid", field: "text", message: "text: must not be blank" });
    expect(check({ threadId: "t\r" })).toMatchObject({ field: "thread_id", message: "thread_id: must not contain control characters (U+000D at character 2)" });
    // ZWNJ joins the parts of a Persian word: "می‌خوام" is text.
    expect(check({ text: "می‌خوام" }).kind).toBe("valid");
  });

  test("GetThreadRequest", () => {
    expect(validateGetThreadRequest({ $typeName: "frontdesk.v1.GetThreadRequest", threadId: "t-1" }, limits)).toEqual({ kind: "valid", input: { threadId: "t-1" } });
    expect(validateGetThreadRequest({ $typeName: "frontdesk.v1.GetThreadRequest", threadId: "t/1" }, limits)).toMatchObject({ kind: "invalid", field: "thread_id" });
  });
});

describe("over the wire: INVALID_ARGUMENT naming the field, and nothing runs", () => {
  let s: Running;
  beforeAll(async () => {
    s = await startServer({ env: { FRONTDESK_MAX_TEXT_CHARS: "20" } });
  });
  afterAll(() => s.close());

  const valid = { threadId: "t-1", userId: "u-1", text: "hi" };
  const cases: [string, Record<string, string>][] = [
    ["thread_id", { threadId: "" }],
    ["thread_id", { threadId: "has space" }],
    ["thread_id", { threadId: "x".repeat(129) }],
    ["user_id", { userId: "" }],
    ["user_id", { userId: "ü" }],
    ["text", { text: "" }],
    ["text", { text: "   " }],
    ["text", { text: "x".repeat(21) }],
    ["request_id", { requestId: "r/1" }],
    ["locale", { locale: "e" }],
    ["domain", { domain: "Pets!" }],
  ];

  test.each(cases)("%s %j", async (field, patch) => {
    const calls = s.fake.calls.length;
    for (const call of [
      () => s.client().turn({ ...valid, ...patch }),
      async () => {
        for await (const _ of s.client().streamTurn({ turn: { ...valid, ...patch } })) void _;
      },
    ]) {
      const err = await call().then(
        () => null,
        (e: unknown) => ConnectError.from(e),
      );
      expect(err?.code).toBe(Code.InvalidArgument);
      expect(err?.rawMessage.startsWith(`${field}: `)).toBe(true);
    }
    expect(s.fake.calls.length).toBe(calls);
  });

  test("StreamTurn without a turn", async () => {
    const err = await (async () => {
      for await (const _ of s.client().streamTurn({})) void _;
    })().catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.InvalidArgument, rawMessage: "turn: required" });
    expect(s.fake.calls).toHaveLength(0);
  });

  test("GetThread with a malformed thread_id", async () => {
    const err = await s
      .client()
      .getThread({ threadId: "a b" })
      .catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.InvalidArgument, rawMessage: "thread_id: must be 1-128 characters of [A-Za-z0-9._:-]" });
    expect(s.fake.threadCalls).toHaveLength(0);
  });
});
