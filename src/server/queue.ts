/**
 * A single-consumer async queue: producers push from callbacks (node progress), the stream handler
 * drains it with `for await`, so each event is written as soon as it happens instead of when the
 * turn ends. `close()` ends the iteration after the queued items; `fail()` ends it with an error.
 */
export interface AsyncQueue<T> extends AsyncIterable<T> {
  push(item: T): void;
  close(): void;
  fail(err: unknown): void;
}

export function createAsyncQueue<T>(): AsyncQueue<T> {
  const items: T[] = [];
  let done = false;
  let failure: { err: unknown } | null = null;
  let wake: (() => void) | null = null;

  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  return {
    push(item) {
      if (done) return; // late progress after the turn settled is dropped, not an error
      items.push(item);
      notify();
    },
    close() {
      done = true;
      notify();
    },
    fail(err) {
      if (done) return;
      failure = { err };
      done = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (items.length > 0) {
          yield items.shift() as T;
          continue;
        }
        if (failure !== null) throw failure.err;
        if (done) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
