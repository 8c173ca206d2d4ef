import { emptyCheckpoint, uuid6, type Checkpoint, type CheckpointTuple } from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ThreadLocks } from "../../src/persistence/ports.js";
import type { TurnScopedSaver } from "../../src/persistence/turn-scoped-saver.js";

/** A backend's thread saver as its persistence builds it, with the locks its turns take. */
export interface TurnSaverBackend {
  saver: TurnScopedSaver;
  locks: ThreadLocks;
  /** False for a backend that keeps every checkpoint (none today: memory prunes too). */
  prunes: boolean;
  close(): Promise<void>;
}

const meta = { source: "loop" as const, step: 0, parents: {} };

/** A checkpoint holding `values`, every channel at `version`. */
export const checkpoint = (values: Record<string, unknown>, version = 1): Checkpoint => ({
  ...emptyCheckpoint(),
  id: uuid6(-1),
  channel_values: values,
  channel_versions: Object.fromEntries(Object.keys(values).map((channel) => [channel, version])),
});

/** One turn as the turn service runs it: the lock, begin, the writes, commit (discard on failure), unlock. */
export async function inTurn(backend: Pick<TurnSaverBackend, "saver" | "locks">, threadId: string, writes: () => Promise<void>): Promise<void> {
  const lease = await backend.locks.tryAcquire(threadId);
  if (lease === null) throw new Error(`thread ${threadId} is locked`);
  try {
    backend.saver.begin(threadId);
    try {
      await writes();
      await backend.saver.commit(threadId);
    } catch (err) {
      backend.saver.discard(threadId);
      throw err;
    }
  } finally {
    await lease.release();
  }
}

const at = (threadId: string, checkpointNs: string): RunnableConfig => ({ configurable: { thread_id: threadId, checkpoint_ns: checkpointNs } });

async function ids(tuples: AsyncIterable<CheckpointTuple>): Promise<string[]> {
  const out: string[] = [];
  for await (const tuple of tuples) out.push(tuple.checkpoint.id);
  return out.sort();
}

// LangGraph names a subgraph's namespace "<node>:<task id>".
const SUBGRAPH = "lookup:7c1e0c52-0b3f-4d8e-9a3e-3f1d2b5c6a7e";

/**
 * What every backend's one-checkpoint-per-turn saver guarantees beyond LangGraph's conformance
 * suite: pruning keeps the latest checkpoint of each namespace (a subgraph's checkpoint never
 * deletes the root's), and deleteThread takes any id, not only tenant/thread keys.
 */
export function turnSaverSpec(name: string, open: () => Promise<TurnSaverBackend>): void {
  describe(`${name}: one checkpoint per turn`, () => {
    let backend: TurnSaverBackend;
    beforeAll(async () => {
      backend = await open();
    });
    afterAll(async () => backend?.close());

    it("prunes per namespace: a subgraph's checkpoint committed last keeps the root's latest, values and all", async () => {
      const thread = "acme/subgraph-last";
      const root1 = checkpoint({ question: "deductible?", turns: 1 });
      const root2 = checkpoint({ question: "glass?", turns: 2 }, 2);
      const sub = checkpoint({ query: "glass cover" });
      let root1Config!: RunnableConfig;
      await inTurn(backend, thread, async () => {
        root1Config = await backend.saver.put(at(thread, ""), root1, meta, root1.channel_versions);
      });
      await inTurn(backend, thread, async () => {
        await backend.saver.put(root1Config, root2, meta, root2.channel_versions);
      });
      await inTurn(backend, thread, async () => {
        await backend.saver.put(at(thread, SUBGRAPH), sub, meta, sub.channel_versions);
      });

      const root = await backend.saver.getTuple(at(thread, ""));
      expect(root?.checkpoint.id).toBe(root2.id);
      expect(root?.checkpoint.channel_values).toEqual({ question: "glass?", turns: 2 });
      expect((await backend.saver.getTuple(at(thread, SUBGRAPH)))?.checkpoint.channel_values).toEqual({ query: "glass cover" });
      const kept = await ids(backend.saver.list({ configurable: { thread_id: thread } }));
      expect(kept).toEqual(backend.prunes ? [root2.id, sub.id].sort() : [root1.id, root2.id, sub.id].sort());

      // And the other way round: the root's next turn keeps the subgraph's checkpoint.
      const root3 = checkpoint({ question: "theft?", turns: 3 }, 3);
      await inTurn(backend, thread, async () => {
        await backend.saver.put(at(thread, ""), root3, meta, root3.channel_versions);
      });
      expect((await backend.saver.getTuple(at(thread, SUBGRAPH)))?.checkpoint.id).toBe(sub.id);
      expect((await backend.saver.getTuple(at(thread, "")))?.checkpoint.channel_values).toEqual({ question: "theft?", turns: 3 });
      if (backend.prunes) expect(await ids(backend.saver.list({ configurable: { thread_id: thread } }))).toEqual([root3.id, sub.id].sort());
    });

    it("prunes per namespace within one turn: the last checkpoint of each namespace it wrote stays, with its pending writes", async () => {
      const thread = "acme/one-turn-many-namespaces";
      const root = checkpoint({ question: "deductible?" });
      const sub1 = checkpoint({ query: "deductible" });
      const sub2 = checkpoint({ query: "deductible motor" }, 2);
      await inTurn(backend, thread, async () => {
        await backend.saver.put(at(thread, ""), root, meta, root.channel_versions);
        const sub1Config = await backend.saver.put(at(thread, SUBGRAPH), sub1, meta, sub1.channel_versions);
        const sub2Config = await backend.saver.put(sub1Config, sub2, meta, sub2.channel_versions);
        await backend.saver.putWrites(sub2Config, [["query", "pending"]], "task-1");
      });
      expect((await backend.saver.getTuple(at(thread, "")))?.checkpoint.channel_values).toEqual({ question: "deductible?" });
      const latestSub = await backend.saver.getTuple(at(thread, SUBGRAPH));
      expect(latestSub?.checkpoint.channel_values).toEqual({ query: "deductible motor" });
      expect(latestSub?.pendingWrites).toEqual([["task-1", "query", "pending"]]);
      if (backend.prunes) expect(await ids(backend.saver.list({ configurable: { thread_id: thread } }))).toEqual([root.id, sub2.id].sort());
    });

    it('deletes a thread whatever its id: deleteThread("plain-id") as well as a tenant/thread key', async () => {
      for (const thread of ["plain-id", "acme/keyed"]) {
        const values = checkpoint({ question: "deductible?" });
        await inTurn(backend, thread, async () => {
          await backend.saver.put(at(thread, ""), values, meta, values.channel_versions);
          await backend.saver.put(at(thread, SUBGRAPH), checkpoint({ query: "q" }), meta, { query: 1 });
        });
        expect(await backend.saver.getTuple(at(thread, ""))).toBeDefined();
        await backend.saver.deleteThread(thread);
        expect(await backend.saver.getTuple(at(thread, ""))).toBeUndefined();
        expect(await ids(backend.saver.list({ configurable: { thread_id: thread } }))).toEqual([]);
        // Nothing there: still fine.
        await backend.saver.deleteThread(thread);
      }
    });
  });
}
