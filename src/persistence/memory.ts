import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { eraseThroughSaver } from "./erase.js";
import { createInProcessTurnEvents, type FanoutOptions } from "./fanout.js";
import { createInProcessLocks } from "./locks.js";
import type { Persistence } from "./ports.js";
import { createBaseStoreProfileStore } from "./profile-store.js";
import { PlainJsonSerializer } from "./serde.js";
import { TurnScopedSaver, type PruneThread } from "./turn-scoped-saver.js";

/** Watch limits when the caller has no configuration (tests, embedding programs). */
export const DEFAULT_WATCH: FanoutOptions = { bufferEvents: 256, maxWatchers: 1_000 };

/**
 * MemorySaver keeps every checkpoint: without pruning, a thread grew by one full checkpoint per
 * turn (~16 KB of serialized state in the bundled corpus's turns, `npm run load`), so a long-running
 * memory-backed server grew without bound. Each commit keeps only the namespace's latest checkpoint
 * and its writes, as the file and Postgres savers do. MemorySaver keys its writes by
 * JSON.stringify([thread, namespace, checkpoint]) (its `_generateKey`); the turn-saver spec pins it.
 */
function pruneMemorySaver(memory: MemorySaver): PruneThread {
  return async (threadId, checkpointNs, keep) => {
    const checkpoints = memory.storage[threadId]?.[checkpointNs];
    if (checkpoints === undefined) return;
    for (const id of Object.keys(checkpoints)) {
      if (id === keep) continue;
      delete checkpoints[id];
      delete memory.writes[JSON.stringify([threadId, checkpointNs, id])];
    }
  };
}

/** Everything in this process's memory: tests, the evaluation, FRONTDESK_CHECKPOINTER=memory. */
export function createMemoryPersistence(watch: FanoutOptions = DEFAULT_WATCH): Persistence {
  const memory = new MemorySaver(new PlainJsonSerializer());
  const saver = new TurnScopedSaver(memory, pruneMemorySaver(memory));
  const events = createInProcessTurnEvents(watch);
  return {
    kind: "memory",
    saver,
    profiles: createBaseStoreProfileStore(new InMemoryStore()),
    locks: createInProcessLocks(),
    events,
    eraseThread: eraseThroughSaver(saver),
    async close() {
      await events.close();
    },
  };
}
