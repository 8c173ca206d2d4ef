import type { RunnableConfig } from "@langchain/core/runnables";
import {
  WRITES_IDX_MAP,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type pg from "pg";
import { guarded, asStorageError } from "./errors.js";
import { PlainJsonSerializer } from "../serde.js";
import { splitThreadKey } from "../thread-key.js";
import { checkpointNamespace, latestCheckpoints, type BufferedWrite } from "../turn-scoped-saver.js";

type Statement = [sql: string, params: unknown[]];

/** Bytes of the values bound to a statement: what a commit sends (serialised blobs, JSON, keys). */
function paramBytes(params: readonly unknown[]): number {
  let bytes = 0;
  for (const value of params) {
    if (value instanceof Uint8Array) bytes += value.byteLength;
    else if (typeof value === "string") bytes += Buffer.byteLength(value, "utf8");
  }
  return bytes;
}

/** `INSERT … VALUES ($1,…),($n,…) <tail>` for rows of equal width. */
function multiRowInsert(head: string, rows: readonly (readonly unknown[])[], tail: string): Statement {
  const params: unknown[] = [];
  const tuples = rows.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(", ")})`);
  return [`${head} VALUES ${tuples.join(", ")} ${tail}`, params];
}

// The package's tables (its migrations pin the columns); frontdesk writes them itself only to
// put a whole turn, the prune and the thread registry into one transaction.
const INSERT_BLOBS = "INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)";
const INSERT_CHECKPOINT = `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`;
const INSERT_WRITES = "INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)";

/**
 * One namespace of a thread down to one checkpoint: a subgraph's checkpoints (checkpoint_ns
 * "node:task") are not the root's ("") and are pruned on their own.
 */
const pruneStatements = (threadKey: string, ns: string, keep: string): Statement[] => [
  ["DELETE FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> $3", [threadKey, ns, keep]],
  ["DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> $3", [threadKey, ns, keep]],
  // Channel values are stored once per (channel, version) and shared by checkpoints: keep the
  // ones the remaining checkpoint points at, drop the rest.
  [
    `DELETE FROM checkpoint_blobs b WHERE b.thread_id = $1 AND b.checkpoint_ns = $2 AND NOT EXISTS (
       SELECT 1 FROM checkpoints c
       WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns
         AND c.checkpoint -> 'channel_versions' ->> b.channel = b.version)`,
    [threadKey, ns],
  ],
];

const TOUCH_THREAD = `INSERT INTO frontdesk_threads (thread_key, tenant_id, thread_id) VALUES ($1, $2, $3)
  ON CONFLICT (thread_key) DO UPDATE SET last_turn_at = now()`;

const ERASE: readonly string[] = [
  "DELETE FROM checkpoint_writes WHERE thread_id = $1",
  "DELETE FROM checkpoint_blobs WHERE thread_id = $1",
  "DELETE FROM checkpoints WHERE thread_id = $1",
  "DELETE FROM frontdesk_threads WHERE thread_key = $1",
];

/**
 * The registry row of a thread key. Keys frontdesk makes are `tenant/thread`; any other id (only
 * tests and tools write those) is registered under the empty tenant, so that the idle sweep and
 * erasure treat every stored thread alike.
 */
function registryParts(threadKey: string): { tenantId: string; threadId: string } {
  return splitThreadKey(threadKey) ?? { tenantId: "", threadId: threadKey };
}

/**
 * PostgresSaver (reads unchanged) plus what frontdesk needs on top: a turn's checkpoint, the
 * pruning of older checkpoints (per namespace) and unreferenced channel values, and the thread
 * registry, all in one transaction on the connection that holds the thread's lock; erasure of a
 * thread of any id; connection failures reported as StorageUnavailableError.
 */
export class FrontdeskPostgresSaver extends PostgresSaver {
  constructor(private readonly db: pg.Pool) {
    super(db, new PlainJsonSerializer());
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return guarded("reading a thread", () => super.getTuple(config));
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    try {
      yield* super.list(config, options);
    } catch (err) {
      throw asStorageError(err, "listing checkpoints");
    }
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return guarded("writing a checkpoint", () => super.put(config, checkpoint, metadata, newVersions));
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    return guarded("writing pending writes", () => super.putWrites(config, writes, taskId));
  }

  override async deleteThread(threadId: string): Promise<void> {
    await this.eraseThread(threadId);
  }

  /** The statements that write one turn; serialisation happens here, before any transaction opens. */
  private async turnStatements(threadKey: string, writes: readonly BufferedWrite[]): Promise<Statement[]> {
    const statements: Statement[] = [];
    for (const write of writes) {
      const ns = checkpointNamespace(write.config);
      if (write.kind === "checkpoint") {
        const blobs = await this._dumpBlobs(threadKey, ns, write.checkpoint.channel_values, write.newVersions);
        if (blobs.length > 0) statements.push(multiRowInsert(INSERT_BLOBS, blobs, "ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING"));
        const parent = write.config.configurable?.["checkpoint_id"];
        statements.push([
          INSERT_CHECKPOINT,
          [threadKey, ns, write.checkpoint.id, typeof parent === "string" ? parent : null, this._dumpCheckpoint(write.checkpoint), await this._dumpMetadata(write.metadata)],
        ]);
      } else {
        const checkpointId = write.config.configurable?.["checkpoint_id"];
        if (typeof checkpointId !== "string") throw new Error("pending writes without a checkpoint_id");
        const rows = await this._dumpWrites(
          threadKey,
          ns,
          checkpointId,
          write.taskId,
          write.writes.map(([channel, value]) => [channel, value]),
        );
        if (rows.length === 0) continue;
        // Same rule as PostgresSaver.putWrites: special channels replace, others keep the first write.
        const replace = write.writes.every(([channel]) => channel in WRITES_IDX_MAP);
        const tail = replace
          ? "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob"
          : "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO NOTHING";
        statements.push(multiRowInsert(INSERT_WRITES, rows, tail));
      }
    }
    return statements;
  }

  /**
   * Writes a turn atomically on `client` (the connection holding the thread's advisory lock, so a
   * lost lock means a failed commit, never two writers): the checkpoint, the pruning of every
   * older checkpoint of its namespace and of channel values it no longer points at, and the
   * thread's last-activity time. All or nothing. Not retried: a failed commit fails the turn,
   * which the caller may retry.
   */
  async commitTurn(client: pg.ClientBase, threadKey: string, writes: readonly BufferedWrite[]): Promise<number> {
    const only = writes.length === 1 && writes[0]!.kind === "checkpoint" ? writes[0]! : null;
    try {
      if (only !== null && only.kind === "checkpoint") return await this.commitOneCheckpoint(client, threadKey, only);
      return await this.commitInTransaction(client, threadKey, writes);
    } catch (err) {
      throw asStorageError(err, "committing a turn");
    }
  }

  /**
   * The usual turn (durability "exit": one checkpoint, no pending writes) as one statement: a
   * single round trip, atomic without BEGIN/COMMIT. Sub-statements of a WITH see the same
   * snapshot, so the prune cannot see the rows being inserted; which channel values to keep is
   * taken from the new checkpoint's channel_versions ($7) rather than read back.
   */
  private async commitOneCheckpoint(client: pg.ClientBase, threadKey: string, write: Extract<BufferedWrite, { kind: "checkpoint" }>): Promise<number> {
    const { tenantId, threadId } = registryParts(threadKey);
    const ns = checkpointNamespace(write.config);
    const parent = write.config.configurable?.["checkpoint_id"];
    const params: unknown[] = [
      threadKey,
      ns,
      write.checkpoint.id,
      typeof parent === "string" ? parent : null,
      this._dumpCheckpoint(write.checkpoint),
      await this._dumpMetadata(write.metadata),
      JSON.stringify(write.checkpoint.channel_versions),
      tenantId,
      threadId,
    ];
    const blobs = await this._dumpBlobs(threadKey, ns, write.checkpoint.channel_values, write.newVersions);
    const tuples = blobs.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(", ")})`);
    const insertBlobs =
      tuples.length === 0 ? "" : `new_blobs AS (${INSERT_BLOBS} VALUES ${tuples.join(", ")} ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING RETURNING 1),`;
    await client.query(
      `WITH ${insertBlobs}
        new_checkpoint AS (
          INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
          VALUES ($1, $2, $3, $4, $5, $6)
          ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata
          RETURNING 1),
        old_checkpoints AS (DELETE FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> $3 RETURNING 1),
        old_writes AS (DELETE FROM checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id <> $3 RETURNING 1),
        old_blobs AS (
          DELETE FROM checkpoint_blobs b
          WHERE b.thread_id = $1 AND b.checkpoint_ns = $2 AND ($7::jsonb ->> b.channel) IS DISTINCT FROM b.version
          RETURNING 1),
        touched AS (
          INSERT INTO frontdesk_threads (thread_key, tenant_id, thread_id) VALUES ($1, $8, $9)
          ON CONFLICT (thread_key) DO UPDATE SET last_turn_at = now()
          RETURNING 1)
      SELECT (SELECT count(*) FROM new_checkpoint) AS written`,
      params,
    );
    return paramBytes(params);
  }

  /** Any other shape of turn (several checkpoints, pending writes): the same effect in a transaction. */
  private async commitInTransaction(client: pg.ClientBase, threadKey: string, writes: readonly BufferedWrite[]): Promise<number> {
    const { tenantId, threadId } = registryParts(threadKey);
    const statements = await this.turnStatements(threadKey, writes);
    await client.query("BEGIN");
    try {
      for (const [sql, params] of statements) await client.query(sql, params);
      for (const [ns, keep] of latestCheckpoints(writes)) {
        for (const [sql, params] of pruneStatements(threadKey, ns, keep)) await client.query(sql, params);
      }
      await client.query(TOUCH_THREAD, [threadKey, tenantId, threadId]);
      await client.query("COMMIT");
      return statements.reduce((sum, [, params]) => sum + paramBytes(params), 0);
    } catch (err) {
      // On a dead connection the rollback fails too; the server rolls back on its own then.
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
  }

  /** Deletes everything kept for a thread, whatever its id. True when there was something to delete. */
  async eraseThread(threadKey: string): Promise<boolean> {
    return guarded("erasing a thread", async () => {
      const { tenantId, threadId } = registryParts(threadKey);
      const client = await this.db.connect();
      try {
        await client.query("BEGIN");
        let deleted = 0;
        for (const sql of ERASE) deleted += (await client.query(sql, [threadKey])).rowCount ?? 0;
        await client.query("DELETE FROM frontdesk_event_payloads WHERE tenant_id = $1 AND thread_id = $2", [tenantId, threadId]);
        await client.query("COMMIT");
        client.release();
        return deleted > 0;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        client.release(err instanceof Error ? err : true);
        throw err;
      }
    });
  }
}
