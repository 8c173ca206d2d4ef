import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { createMemoryPersistence } from "../../src/persistence/memory.js";
import { createFilePersistence } from "../../src/persistence/sqlite/index.js";
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
