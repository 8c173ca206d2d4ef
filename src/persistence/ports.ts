import type { UserProfile } from "../domain/profile.js";
import type { PoolStats } from "../telemetry/index.js";
import type { TurnScopedSaver } from "./turn-scoped-saver.js";

/**
 * What the rest of frontdesk needs from storage: the ports. Implementations live beside this
 * file (memory.ts, sqlite/, postgres/) and are chosen by factory.ts, which only the composition
 * root imports — loading the agent never loads pg or better-sqlite3.
 */

/**
 * Thread locks. One turn at a time per thread: a second turn while one runs is rejected (LangGraph's "reject"
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

/**
 * Cross-thread user memory, namespaced by tenant and user. Implemented over a LangGraph Store
 * (in memory for tests, Postgres in production) or a local SQLite file (embedded default).
 */
export interface ProfileStore {
  get(tenantId: string, userId: string): Promise<UserProfile>;
  put(tenantId: string, userId: string, profile: UserProfile): Promise<void>;
  /** Erases the user's memory for real. True when there was something to erase. */
  delete(tenantId: string, userId: string): Promise<boolean>;
}

/**
 * Turn events for other services (the human agents' console, analytics): every process
 * publishes the progress and results of the turns it runs; watchers, on any process, receive
 * those of one thread or one tenant. Payloads are opaque JSON here (the agent layer defines them).
 *
 * A watcher never slows a turn: publishing only queues, and each watcher has a bounded queue.
 * A watcher that lets its queue fill is told it fell behind and is disconnected; it resyncs with
 * GetThread and watches again.
 */
export interface ThreadTopic {
  tenantId: string;
  threadId: string;
}

export interface PublishedEvent extends ThreadTopic {
  /** JSON-serialisable. */
  payload: unknown;
}

/** slow_consumer: this watcher's queue overflowed. source_interrupted: the event source (LISTEN connection) was lost; events may be missing. */
export type FellBehindReason = "slow_consumer" | "source_interrupted";

export type WatchMessage = { kind: "event"; event: PublishedEvent } | { kind: "fell_behind"; reason: FellBehindReason };

export interface WatchFilter {
  tenantId: string;
  /** Omitted: every thread of the tenant. */
  threadId?: string;
}

/** Ends after a fell_behind message, or when closed. */
export interface Watch extends AsyncIterable<WatchMessage> {
  close(): void;
}

export interface TurnEvents {
  /** Never blocks and never throws: delivery is best effort, losses are reported to watchers as fell_behind. */
  publish(event: PublishedEvent): void;
  /** WatchLimitError when the process has maxWatchers open; StorageUnavailableError when the source is down. */
  subscribe(filter: WatchFilter): Promise<Watch>;
  close(): Promise<void>;
}

export class WatchLimitError extends Error {
  override readonly name = "WatchLimitError";
}

/** Everything that keeps threads and memory, chosen by configuration. */
export interface Persistence {
  kind: "memory" | "file" | "postgres";
  saver: TurnScopedSaver;
  profiles: ProfileStore;
  locks: ThreadLocks;
  /** Progress and results of running turns, for watchers (across processes with Postgres). */
  events: TurnEvents;
  /** Deletes everything kept for a thread (call it holding the thread's lease). True when something was deleted. */
  eraseThread(threadKey: string): Promise<boolean>;
  /** Occupancy of the connection pools (PostgreSQL); absent: no pools. */
  poolStats?: () => readonly PoolStats[];
  /**
   * Readiness: resolves when the database answers a trivial query (PostgreSQL; absent for the
   * in-process stores, which cannot be away). When `signal` fires first, the attempt is given up.
   */
  ping?: (signal: AbortSignal) => Promise<void>;
  close(): Promise<void>;
}
