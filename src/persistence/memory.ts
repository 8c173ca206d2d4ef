import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { eraseThroughSaver } from "./erase.js";
import { createInProcessTurnEvents, type FanoutOptions } from "./fanout.js";
import { createInProcessLocks } from "./locks.js";
import type { Persistence } from "./ports.js";
import { createBaseStoreProfileStore } from "./profile-store.js";
import { TurnScopedSaver } from "./turn-scoped-saver.js";

/** Watch limits when the caller has no configuration (tests, embedding programs). */
export const DEFAULT_WATCH: FanoutOptions = { bufferEvents: 256, maxWatchers: 1_000 };

/** Everything in this process's memory: tests, the evaluation, FRONTDESK_CHECKPOINTER=memory. */
export function createMemoryPersistence(watch: FanoutOptions = DEFAULT_WATCH): Persistence {
  const saver = new TurnScopedSaver(new MemorySaver());
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

