import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { createMemoryPersistence } from "../../src/persistence/memory.js";
import { createFilePersistence } from "../../src/persistence/sqlite/index.js";
import { serializedBytes, type BufferedWrite } from "../../src/persistence/turn-scoped-saver.js";
import { checkpoint, inTurn, turnSaverSpec } from "../support/turn-saver-spec.js";

// The Postgres backend runs the same spec in turn-saver.int.test.ts.
turnSaverSpec("memory", async () => {
  const persistence = createMemoryPersistence();
  return { saver: persistence.saver, locks: persistence.locks, prunes: true, close: () => persistence.close() };
});

turnSaverSpec("file", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-turn-saver-"));
  const persistence = createFilePersistence(dir);
  return {
    saver: persistence.saver,
    locks: persistence.locks,
    prunes: true,
    async close() {
      await persistence.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("memory: pruning", () => {
  it("drops the older checkpoints' pending writes too, so a long-running memory server stays flat", async () => {
    const persistence = createMemoryPersistence();
    const memory = persistence.saver.inner;
    if (!(memory instanceof MemorySaver)) throw new Error("expected a MemorySaver");
    const thread = "acme/writes";
    const meta = { source: "loop" as const, step: 0, parents: {} };
    const first = checkpoint({ question: "deductible?" });
    await inTurn(persistence, thread, async () => {
      const config = await persistence.saver.put({ configurable: { thread_id: thread, checkpoint_ns: "" } }, first, meta, first.channel_versions);
      await persistence.saver.putWrites(config, [["question", "pending"]], "task-1");
    });
    expect(Object.keys(memory.writes)).toEqual([JSON.stringify([thread, "", first.id])]);
    const second = checkpoint({ question: "glass?" }, 2);
    await inTurn(persistence, thread, async () => {
      await persistence.saver.put({ configurable: { thread_id: thread, checkpoint_ns: "", checkpoint_id: first.id } }, second, meta, second.channel_versions);
    });
    expect(Object.keys(memory.storage[thread]?.[""] ?? {})).toEqual([second.id]);
    expect(Object.keys(memory.writes)).toEqual([]);
    await persistence.close();
  });
});

describe("the bytes a commit reports", () => {
  // Counted as the saver serialises; they must be what serialising the turn's writes once more gives.
  for (const [name, open] of [
    ["memory", async () => ({ persistence: createMemoryPersistence(), dir: null })],
    [
      "file",
      async () => {
        const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-turn-bytes-"));
        return { persistence: createFilePersistence(dir), dir };
      },
    ],
  ] as const) {
    it(`${name}: are the serialised checkpoint, metadata and pending writes of the turn`, async () => {
      const { persistence, dir } = await open();
      try {
        const thread = "acme/bytes";
        const meta = { source: "loop" as const, step: 3, parents: {} };
        const values = checkpoint({ question: "حداقل فرانشیز؟", hits: [{ id: "c-1", score: 0.5 }], missing: undefined });
        const buffered: BufferedWrite[] = [];
        const lease = await persistence.locks.tryAcquire(thread);
        persistence.saver.begin(thread);
        const config = await persistence.saver.put({ configurable: { thread_id: thread, checkpoint_ns: "" } }, values, meta, values.channel_versions);
        buffered.push({
          kind: "checkpoint",
          config: { configurable: { thread_id: thread, checkpoint_ns: "" } },
          checkpoint: values,
          metadata: meta,
          newVersions: values.channel_versions,
        });
        await persistence.saver.putWrites(
          config,
          [
            ["question", "pending"],
            ["hits", []],
          ],
          "task-1",
        );
        buffered.push({
          kind: "writes",
          config,
          writes: [
            ["question", "pending"],
            ["hits", []],
          ],
          taskId: "task-1",
        });
        const bytes = await persistence.saver.commit(thread);
        await lease?.release();
        expect(bytes).toBe(await serializedBytes(new JsonPlusSerializer(), buffered));
        expect(bytes).toBeGreaterThan(100);
      } finally {
        await persistence.close();
        if (dir !== null) rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
