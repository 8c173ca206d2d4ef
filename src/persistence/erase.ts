import type { TurnScopedSaver } from "./turn-scoped-saver.js";

/** Erasure through the saver, for backends whose saver holds everything kept for a thread. */
export function eraseThroughSaver(saver: TurnScopedSaver) {
  return async (key: string): Promise<boolean> => {
    const existed = (await saver.getTuple({ configurable: { thread_id: key } })) !== undefined;
    await saver.deleteThread(key);
    return existed;
  };
}
