import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { PlainJsonSerializer } from "./serde.js";

/**
 * Makes a turn all-or-nothing. LangGraph with `durability: "exit"` writes one checkpoint when
 * the run ends — also when it ends in an error or an abort, which would leave half a turn in the
 * thread. While a turn runs, this wrapper holds that thread's writes back; `commit` applies them
 * (and prunes older checkpoints, namespace by namespace), `discard` drops them, so a failed or
 * cancelled turn leaves the thread exactly as it was. Threads without an open turn pass straight
 * through.
 */
export interface TurnTransaction {
  begin(threadId: string): void;
  /** Applies the turn's writes; resolves to their serialised size in bytes (0: nothing was written). */
  commit(threadId: string): Promise<number>;
  discard(threadId: string): void;
}

/**
 * Deletes every checkpoint of one namespace of a thread except `keepCheckpointId` (stores that
 * keep history forever grow without bound). Per namespace: a subgraph's checkpoints live beside
 * the root's (checkpoint_ns "" for the root, "node:task" for a subgraph), and the latest of one
 * says nothing about the others.
 */
export type PruneThread = (threadId: string, checkpointNs: string, keepCheckpointId: string) => Promise<void>;

/** A write LangGraph made during a turn, held back until the turn commits. */
export type BufferedWrite =
  | { kind: "checkpoint"; config: RunnableConfig; checkpoint: Checkpoint; metadata: CheckpointMetadata; newVersions: ChannelVersions }
  | { kind: "writes"; config: RunnableConfig; writes: PendingWrite[]; taskId: string; taskPath?: string };

/**
 * Applies one turn's buffered writes and resolves to the bytes written (serialised checkpoint,
 * channel values and pending writes). A backend that can do so applies them, and prunes, in one
 * database transaction (Postgres); the default applies them one by one through the inner saver.
 */
export type CommitTurn = (threadId: string, writes: readonly BufferedWrite[]) => Promise<number>;

const threadOf = (config: RunnableConfig): string => {
  const id = config.configurable?.["thread_id"];
  if (typeof id !== "string") throw new Error("checkpoint config without a thread_id");
  return id;
};

export class TurnScopedSaver extends BaseCheckpointSaver implements TurnTransaction {
  private readonly open = new Map<string, BufferedWrite[]>();
  private readonly commitTurn: CommitTurn;

  constructor(
    readonly inner: BaseCheckpointSaver,
    prune: PruneThread | null = null,
    commitTurn: CommitTurn | null = null,
  ) {
    super(inner.serde);
    this.commitTurn = commitTurn ?? ((threadId, writes) => applyOneByOne(inner, prune, threadId, writes));
  }

  begin(threadId: string): void {
    if (this.open.has(threadId)) throw new Error(`a turn is already open on thread ${threadId}`);
    this.open.set(threadId, []);
  }

  async commit(threadId: string): Promise<number> {
    const writes = this.open.get(threadId);
    this.open.delete(threadId);
    if (writes === undefined || writes.length === 0) return 0;
    return this.commitTurn(threadId, writes);
  }

  discard(threadId: string): void {
    this.open.delete(threadId);
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.inner.getTuple(config);
  }

  override list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const threadId = threadOf(config);
    const turn = this.open.get(threadId);
    if (turn === undefined) return this.inner.put(config, checkpoint, metadata, newVersions);
    turn.push({ kind: "checkpoint", config, checkpoint, metadata, newVersions });
    // The same shape every saver returns: the config that addresses the new checkpoint.
    return {
      configurable: {
        thread_id: threadId,
        checkpoint_ns: checkpointNamespace(config),
        checkpoint_id: checkpoint.id,
      },
    };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const turn = this.open.get(threadOf(config));
    if (turn === undefined) return this.inner.putWrites(config, writes, taskId, taskPath);
    turn.push({ kind: "writes", config, writes, taskId, ...(taskPath !== undefined ? { taskPath } : {}) });
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}

/** The namespace a config addresses; LangGraph's default (the root graph) is "". */
export function checkpointNamespace(config: RunnableConfig): string {
  const ns = config.configurable?.["checkpoint_ns"];
  return typeof ns === "string" ? ns : "";
}

/** The checkpoints a turn ends on: for each namespace it wrote, the id of its last buffered checkpoint there. */
export function latestCheckpoints(writes: readonly BufferedWrite[]): Map<string, string> {
  const latest = new Map<string, string>();
  for (const write of writes) if (write.kind === "checkpoint") latest.set(checkpointNamespace(write.config), write.checkpoint.id);
  return latest;
}

/**
 * The serialised size of a turn's writes as the saver's serde makes them: what a saver whose
 * serde cannot count its own writes (not PlainJsonSerializer) serialises once more to measure.
 */
export async function serializedBytes(serde: BaseCheckpointSaver["serde"], writes: readonly BufferedWrite[]): Promise<number> {
  let bytes = 0;
  for (const write of writes) {
    if (write.kind === "checkpoint") {
      bytes += (await serde.dumpsTyped(write.checkpoint))[1].byteLength;
      bytes += (await serde.dumpsTyped(write.metadata))[1].byteLength;
    } else {
      for (const [, value] of write.writes) bytes += (await serde.dumpsTyped(value))[1].byteLength;
    }
  }
  return bytes;
}

async function applyOneByOne(inner: BaseCheckpointSaver, prune: PruneThread | null, threadId: string, writes: readonly BufferedWrite[]): Promise<number> {
  const apply = async () => {
    for (const write of writes) {
      if (write.kind === "checkpoint") await inner.put(write.config, write.checkpoint, write.metadata, write.newVersions);
      else await inner.putWrites(write.config, write.writes, write.taskId, write.taskPath);
    }
  };
  // The in-process savers serialise exactly the checkpoint, its metadata and each write's value,
  // what serializedBytes adds up: counted as they write, not serialised a second time.
  const serde = inner.serde;
  const bytes = serde instanceof PlainJsonSerializer ? await serde.measure(apply) : await apply().then(() => serializedBytes(serde, writes));
  if (prune !== null) for (const [ns, keep] of latestCheckpoints(writes)) await prune(threadId, ns, keep);
  return bytes;
}
