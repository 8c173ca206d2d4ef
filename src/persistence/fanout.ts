import { WatchLimitError, type FellBehindReason, type PublishedEvent, type ThreadTopic, type TurnEvents, type Watch, type WatchFilter } from "./ports.js";

export interface FanoutOptions {
  /** Events queued per watcher before it is disconnected as slow_consumer. */
  bufferEvents: number;
  /** Watchers open at once in this process. */
  maxWatchers: number;
}

export const matches = (filter: WatchFilter, topic: ThreadTopic): boolean =>
  filter.tenantId === topic.tenantId && (filter.threadId === undefined || filter.threadId === topic.threadId);

/** Delivers events to the local watchers whose filter matches; the core of every TurnEvents. */
export interface Fanout {
  deliver(event: PublishedEvent): void;
  /** True when some local watcher would receive an event of this topic. */
  wants(topic: ThreadTopic): boolean;
  /** Ends matching watchers (all without a topic) with fell_behind after what they already have. */
  interrupt(reason: FellBehindReason, topic?: ThreadTopic): void;
  subscribe(filter: WatchFilter): Watch;
  readonly size: number;
  closeAll(): void;
}

interface Subscriber {
  filter: WatchFilter;
  items: PublishedEvent[];
  ending: FellBehindReason | "closed" | null;
  wake: (() => void) | null;
}

export function createFanout(options: FanoutOptions): Fanout {
  const subscribers = new Set<Subscriber>();

  const notify = (s: Subscriber) => {
    const wake = s.wake;
    s.wake = null;
    wake?.();
  };

  const end = (s: Subscriber, how: FellBehindReason | "closed") => {
    if (s.ending !== null) return;
    s.ending = how;
    subscribers.delete(s);
    notify(s);
  };

  return {
    get size() {
      return subscribers.size;
    },

    wants(topic) {
      for (const s of subscribers) if (matches(s.filter, topic)) return true;
      return false;
    },

    deliver(event) {
      for (const s of subscribers) {
        if (!matches(s.filter, event)) continue;
        if (s.items.length >= options.bufferEvents) {
          // Behind already: what is queued is stale, the watcher must resync anyway.
          s.items = [];
          end(s, "slow_consumer");
          continue;
        }
        s.items.push(event);
        notify(s);
      }
    },

    interrupt(reason, topic) {
      for (const s of [...subscribers]) if (topic === undefined || matches(s.filter, topic)) end(s, reason);
    },

    closeAll() {
      for (const s of [...subscribers]) end(s, "closed");
    },

    subscribe(filter) {
      if (subscribers.size >= options.maxWatchers) throw new WatchLimitError(`too many watchers (limit ${options.maxWatchers})`);
      const s: Subscriber = { filter, items: [], ending: null, wake: null };
      subscribers.add(s);
      return {
        close: () => end(s, "closed"),
        async *[Symbol.asyncIterator]() {
          try {
            for (;;) {
              const next = s.items.shift();
              if (next !== undefined) {
                yield { kind: "event", event: next };
                continue;
              }
              if (s.ending === "closed") return;
              if (s.ending !== null) {
                yield { kind: "fell_behind", reason: s.ending };
                return;
              }
              await new Promise<void>((resolve) => (s.wake = resolve));
            }
          } finally {
            end(s, "closed");
          }
        },
      };
    },
  };
}

/** For one process (memory and file persistence): publishing delivers directly. */
export function createInProcessTurnEvents(options: FanoutOptions): TurnEvents {
  const fanout = createFanout(options);
  return {
    publish(event) {
      // Watchers read their own copy, as they would from any other process; with none watching
      // the thread there is nobody to copy for (most turns).
      if (!fanout.wants(event)) return;
      fanout.deliver({ tenantId: event.tenantId, threadId: event.threadId, payload: structuredClone(event.payload) });
    },
    async subscribe(filter) {
      return fanout.subscribe(filter);
    },
    async close() {
      fanout.closeAll();
    },
  };
}
