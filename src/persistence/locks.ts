import type { ThreadLocks } from "./ports.js";

/** For one process (the embedded default and tests). Across replicas, use the Postgres locks. */
export function createInProcessLocks(): ThreadLocks {
  const held = new Set<string>();
  return {
    async tryAcquire(threadKey) {
      if (held.has(threadKey)) return null;
      held.add(threadKey);
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          held.delete(threadKey);
        },
      };
    },
    async close() {
      held.clear();
    },
  };
}
