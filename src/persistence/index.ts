// The persistence contract: ports, errors and keys. Implementations: memory.ts, sqlite/,
// postgres/ — chosen by factory.ts, imported by the composition root alone.
export { StorageUnavailableError } from "./errors.js";
export { WatchLimitError } from "./ports.js";
export type {
  FellBehindReason,
  Lease,
  Persistence,
  ProfileStore,
  PublishedEvent,
  ThreadLocks,
  ThreadTopic,
  TurnEvents,
  Watch,
  WatchFilter,
  WatchMessage,
} from "./ports.js";
export { threadKey, parseThreadKey } from "./thread-key.js";
export type { TurnTransaction } from "./turn-scoped-saver.js";
