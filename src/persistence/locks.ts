/**
 * One turn at a time per thread: a second turn while one runs is rejected (LangGraph's "reject"
 * double-texting strategy), never queued, so a user's retry cannot run the same turn twice.
 */
export interface Lease {
  release(): Promise<void>;
}

export interface ThreadLocks {
  /** null when another turn holds the thread. */
  tryAcquire(threadKey: string): Promise<Lease | null>;
  close(): Promise<void>;
}

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
