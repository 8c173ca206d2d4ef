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

/**
 * Makes a turn all-or-nothing. LangGraph with `durability: "exit"` writes one checkpoint when
 * the run ends — also when it ends in an error or an abort, which would leave half a turn in the
 * thread. While a turn runs, this wrapper holds that thread's writes back; `commit` applies them
 * (and prunes older checkpoints), `discard` drops them, so a failed or cancelled turn leaves the
 * thread exactly as it was. Threads without an open turn pass straight through.
 */
export interface TurnTransaction {
  begin(threadId: string): void;
  commit(threadId: string): Promise<void>;
  discard(threadId: string): void;
}

/** Deletes every checkpoint of a thread except `keepCheckpointId` (stores that keep history forever grow without bound). */
export type PruneThread = (threadId: string, keepCheckpointId: string) => Promise<void>;

type Deferred = () => Promise<unknown>;

const threadOf = (config: RunnableConfig): string => {
  const id = config.configurable?.["thread_id"];
  if (typeof id !== "string") throw new Error("checkpoint config without a thread_id");
  return id;
};

export class TurnScopedSaver extends BaseCheckpointSaver implements TurnTransaction {
  private readonly open = new Map<string, { ops: Deferred[]; lastCheckpointId: string | null }>();

  constructor(
    readonly inner: BaseCheckpointSaver,
    private readonly prune: PruneThread | null = null,
  ) {
    super(inner.serde);
  }

  begin(threadId: string): void {
    if (this.open.has(threadId)) throw new Error(`a turn is already open on thread ${threadId}`);
    this.open.set(threadId, { ops: [], lastCheckpointId: null });
  }

  async commit(threadId: string): Promise<void> {
    const turn = this.open.get(threadId);
    this.open.delete(threadId);
    if (turn === undefined) return;
    for (const op of turn.ops) await op();
    if (this.prune !== null && turn.lastCheckpointId !== null) await this.prune(threadId, turn.lastCheckpointId);
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
    turn.ops.push(() => this.inner.put(config, checkpoint, metadata, newVersions));
    turn.lastCheckpointId = checkpoint.id;
    // The same shape every saver returns: the config that addresses the new checkpoint.
    return {
      configurable: {
        thread_id: threadId,
        checkpoint_ns: config.configurable?.["checkpoint_ns"] ?? "",
        checkpoint_id: checkpoint.id,
      },
    };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const turn = this.open.get(threadOf(config));
    if (turn === undefined) return this.inner.putWrites(config, writes, taskId, taskPath);
    turn.ops.push(() => this.inner.putWrites(config, writes, taskId, taskPath));
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.inner.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }
}
