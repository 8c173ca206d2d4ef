import { Writable } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TurnRequestSchema } from "../../gen/frontdesk/v1/turn_pb.js";
import { logMixin } from "../../src/telemetry/index.js";
import { startRealServer, type RealServer } from "../e2e/support.js";

/**
 * The log of a conversation full of personal data, captured from the real application and
 * server (offline model, bundled corpus, configured telemetry without an exporter): one access
 * line per RPC, the request id and trace id on every line of a request, and none of the user's
 * words or personal data anywhere.
 */

// Personal data of the kinds an Iranian insurer's customers type into a chat.
const PII = {
  nationalCode: "0084575948",
  mobile: "09121234567",
  mobilePersianDigits: "۰۹۱۲۱۲۳۴۵۶۷",
  card: "6037991234567890",
  cardSpaced: "6037 9912 3456 7890",
  sheba: "IR062960000000100324200001",
  email: "ali.rezaei@example.com",
  name: "Ali Rezaei",
};

const CONVERSATION = [
  `Hi, I am ${PII.name}, my national code is ${PII.nationalCode} and my mobile is ${PII.mobile}.`,
  `What is the minimum deductible for motor body insurance? Pay the claim to ${PII.sheba} or card ${PII.cardSpaced}.`,
  `سلام، کد ملی من ${PII.nationalCode} و شماره موبایلم ${PII.mobilePersianDigits} است. فرانشیز بیمه بدنه چقدر است؟`,
  `My card number is ${PII.card}, email me at ${PII.email}. I want to talk to a human.`,
];

const lines: Record<string, unknown>[] = [];
const raw: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line === "") continue;
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    done();
  },
});
// As `frontdesk serve` makes it, at the most talkative level.
const logger = pino({ level: "debug", mixin: logMixin }, sink);

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer({ FRONTDESK_LOG_LEVEL: "debug" }, { logger });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  lines.length = 0;
  raw.length = 0;
});

const flushed = () => new Promise((resolve) => setImmediate(resolve));

describe("the log of a conversation", () => {
  it("holds none of the user's text or personal data", async () => {
    const outcomes: (string | undefined)[] = [];
    for (const [i, text] of CONVERSATION.entries()) {
      // One thread per message: a message that hands over would close a shared thread to the rest.
      const { result } = await server.client.turn(create(TurnRequestSchema, { threadId: `logs-thread-1-${i}`, userId: "logs-user-1", requestId: `logs-req-${i}`, text }));
      outcomes.push(result?.outcome.case);
    }
    // Each path of a turn: answers, and the handoff with its context.
    expect(outcomes).toContain("answer");
    expect(outcomes).toContain("escalate");
    // A stream, a refused call and a read, to cover other paths.
    for await (const _ of server.client.streamTurn({ turn: { threadId: "logs-thread-2", userId: "logs-user-1", text: CONVERSATION[1]! } })) {
      // drained
    }
    await expect(server.client.turn({ threadId: "logs-thread-3", userId: "logs-user-1", text: `${PII.email} `.repeat(2_000) })).rejects.toThrow();
    await server.client.getThread({ threadId: "logs-thread-1-1" });
    await flushed();

    const log = raw.join("\n");
    expect(lines.length).toBeGreaterThanOrEqual(CONVERSATION.length + 3);
    for (const value of Object.values(PII)) expect(log).not.toContain(value);
    // Nor any digits of them in another spelling, nor the user's sentences or distinctive words.
    for (const digits of [PII.nationalCode, PII.mobile.slice(1), PII.card.slice(4), PII.sheba.slice(2)]) expect(log.replace(/\D/gu, "")).not.toContain(digits);
    for (const text of CONVERSATION) expect(log).not.toContain(text);
    for (const word of ["deductible", "Rezaei", "فرانشیز", "موبایلم", "email me"]) expect(log).not.toContain(word);
  });

  it("has one access line per RPC, and the request id and trace id on every line of a request", async () => {
    await server.client.turn(create(TurnRequestSchema, { threadId: "logs-thread-4", userId: "logs-user-1", requestId: "caller-req-42", text: CONVERSATION[1]! }));
    await server.client.turn({ threadId: "logs-thread-5", userId: "logs-user-1", text: "hello" }, { headers: { "x-request-id": "edge-abc-123" } });
    await server.client.turn({ threadId: "logs-thread-6", userId: "logs-user-1", text: "hello" }, { headers: { "x-request-id": `${PII.email} please` } });
    await server.client.getThread({ threadId: "logs-thread-4" });
    await flushed();

    const access = lines.filter((l) => l["msg"] === "rpc");
    expect(access.map((l) => [l["method"], l["code"]])).toEqual([
      ["frontdesk.v1.AgentService/Turn", "OK"],
      ["frontdesk.v1.AgentService/Turn", "OK"],
      ["frontdesk.v1.AgentService/Turn", "OK"],
      ["frontdesk.v1.AgentService/GetThread", "OK"],
    ]);
    for (const line of access) {
      expect(line).toMatchObject({ tenant: "default", protocol: "grpc", level: 30 });
      expect(typeof line["ms"]).toBe("number");
      expect(line["traceId"]).toMatch(/^[0-9a-f]{32}$/u);
      expect(line["traceId"]).not.toBe("0".repeat(32));
    }
    // The TurnRequest's request_id, the caller's x-request-id, or a generated one (an unsafe header is not used).
    expect(access[0]!["requestId"]).toBe("caller-req-42");
    expect(access[1]!["requestId"]).toBe("edge-abc-123");
    expect(access[2]!["requestId"]).toMatch(/^[0-9a-f-]{36}$/u);
    expect(new Set(access.map((l) => l["traceId"])).size).toBe(4);

    // Every line logged while serving carries a request id and a trace id; the turn's own lines the access line's.
    for (const line of lines) {
      expect(line["requestId"], JSON.stringify(line)).toEqual(expect.any(String));
      expect(line["traceId"], JSON.stringify(line)).toMatch(/^[0-9a-f]{32}$/u);
    }
    const completed = lines.filter((l) => l["msg"] === "turn completed");
    expect(completed.map((l) => l["requestId"])).toEqual(["caller-req-42", "edge-abc-123", access[2]!["requestId"]]);
    expect(completed.map((l) => l["traceId"])).toEqual(access.slice(0, 3).map((l) => l["traceId"]));
  });
});
