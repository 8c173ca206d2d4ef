import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { Send } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { PlainJsonSerializer } from "../../src/persistence/serde.js";
import { createMemoryPersistence } from "../../src/persistence/memory.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { createApp } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/config.js";

const jsonPlus = new JsonPlusSerializer();
const plain = new PlainJsonSerializer();

const cyclic: Record<string, unknown> = { name: "loop" };
cyclic["self"] = cyclic;

/** Values JsonPlus has special cases for, and plain state values, alone and nested. */
const VALUES: Array<[string, unknown]> = [
  ["a string", "بیمه بدنه"],
  ["a number", 42.5],
  ["null", null],
  ["undefined", undefined],
  ["a plain state", { turn: null, hits: [{ chunk: { chunkId: "c-1", text: "x" }, score: 0.5, neighbors: [] }], usage: {}, withheld: [] }],
  ["undefined inside", { a: undefined, b: [1, undefined, 3] }],
  ["a Set", { s: new Set(["a", "b"]) }],
  ["a Map", { m: new Map([["k", 1]]) }],
  ["a Date", { at: new Date("2026-12-01T10:00:00Z") }],
  ["an Error", { e: new Error("boom") }],
  ["a RegExp", { r: /a+b/giu }],
  ["bytes inside", { b: new Uint8Array([1, 2, 3]) }],
  ["a Send", { tasks: [new Send("retrieve", { q: 1 })] }],
  ["an object named Send", { lg_name: "Send", node: "n", args: { x: 1 } }],
  [
    "a class instance",
    {
      i: new (class Point {
        x = 1;
        y = 2;
      })(),
    },
  ],
  ["an object without prototype", Object.assign(Object.create(null), { k: "v" })],
  ["a cycle", cyclic],
  ["a key __proto__", JSON.parse('{"__proto__": {"polluted": true}, "k": 1}')],
  ["text that looks like a record", { note: 'the "lc" key', lc: 3 }],
  ["a record JsonPlus revives", { lc: 2, type: "undefined" }],
  ["an object with toJSON", { price: { amount: 5, toJSON: () => "5 CAD" } }],
  ["deep nesting", JSON.parse(`${"[".repeat(300)}1${"]".repeat(300)}`)],
  ["deep nesting with undefined", { deep: JSON.parse(`${"[".repeat(250)}1${"]".repeat(250)}`), gap: undefined }],
];

describe("PlainJsonSerializer", () => {
  for (const [name, value] of VALUES) {
    it(`writes ${name} byte for byte as JsonPlusSerializer and reads it back the same`, async () => {
      const [type, bytes] = await plain.dumpsTyped(value);
      const [expectedType, expectedBytes] = await jsonPlus.dumpsTyped(value);
      expect(type).toBe(expectedType);
      expect(Buffer.from(bytes).toString("utf8")).toBe(Buffer.from(expectedBytes).toString("utf8"));
      expect(await plain.loadsTyped(type, bytes)).toEqual(await jsonPlus.loadsTyped(type, bytes));
      expect(await plain.loadsTyped(type, Buffer.from(bytes).toString("utf8"))).toEqual(await jsonPlus.loadsTyped(type, bytes));
    });
  }

  it("passes bytes through as JsonPlusSerializer does", async () => {
    const bytes = new Uint8Array([7, 8]);
    expect(await plain.dumpsTyped(bytes)).toEqual(await jsonPlus.dumpsTyped(bytes));
    expect(await plain.loadsTyped("bytes", bytes)).toEqual(await jsonPlus.loadsTyped("bytes", bytes));
  });

  it("writes real turns' checkpoints exactly as JsonPlusSerializer", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-serde-"));
    const persistence = createMemoryPersistence();
    const app = await createApp(loadConfig({ FRONTDESK_DATA_DIR: dir, FRONTDESK_LOG_LEVEL: "silent" }), pino({ level: "silent" }), { persistence });
    try {
      for (const text of ["What is the minimum deductible for motor body insurance?", "حداقل فرانشیز بیمه بدنه چقدر است؟", "How much does it cost?", "Hello!"]) {
        await app.turnService.runTurn({ tenantId: "default", threadId: "serde-1", userId: "u", text, requestId: "" });
      }
      const memory = persistence.saver.inner;
      let checked = 0;
      for await (const tuple of memory.list({ configurable: {} })) {
        for (const value of [tuple.checkpoint, tuple.metadata]) {
          expect(Buffer.from((await plain.dumpsTyped(value))[1]).toString("utf8")).toBe(Buffer.from((await jsonPlus.dumpsTyped(value))[1]).toString("utf8"));
        }
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
