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
import { specTest, type CheckpointSaverTestInitializer } from "@langchain/langgraph-checkpoint-validation";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, TestRunner } from "vitest";
import type { ThreadLocks } from "../../src/persistence/ports.js";
import type { TurnScopedSaver } from "../../src/persistence/turn-scoped-saver.js";

/**
 * LangGraph's checkpointer conformance suite (@langchain/langgraph-checkpoint-validation) run
 * under this project's vitest, with named skips.
 *
 * As shipped, `validate(initializer)` fails here at once with "ReferenceError: beforeAll is not
 * defined": the package's spec functions call vitest through globals (`describe`, `it`,
 * `expect`, `beforeAll`…; written for jest, or vitest with `globals: true`, which this project
 * does not turn on), and its CLI starts a vitest of its own. So this module installs those
 * globals on globalThis and registers the package's exported `specTest` itself. `it` is
 * installed wrapped: a case listed in a run's `skips` is registered with `it.skip`, one in its
 * `expectedFailures` with `it.fails`, each titled with its reason; a listed case the suite no
 * longer has fails the run, so the lists cannot go stale.
 */

/** A case of the suite, by its name below the saver: "<method> > <describe> > … > <test>", e.g. "getTuple > namespace: root > should migrate pending sends". */
export interface SkippedCase {
  case: string;
  reason: string;
}

export interface ConformanceRun<T extends BaseCheckpointSaver> extends CheckpointSaverTestInitializer<T> {
  /** Cases not run against this saver, each with the reason. */
  skips?: readonly SkippedCase[];
  /** Cases run expecting failure (`it.fails`), each with the reason. */
  expectedFailures?: readonly SkippedCase[];
}

const OUTER = "checkpoint conformance";
const SEPARATOR = " > ";

interface Listed {
  how: "skip" | "fails";
  reason: string;
}
interface Registered {
  listed: Map<string, Listed>;
  matched: Set<string>;
}
const runs = new Map<string, Registered>();

/** The saver and case a test registered now belongs to, from the suite being collected. */
function locate(testName: string): { run: Registered; name: string } | null {
  const path = TestRunner.getCurrentSuite().suite?.fullTestName ?? "";
  for (const [saver, run] of runs) {
    // conformance() > specTest's describe(checkpointerName) > describe(`${checkpointerName}#method`) > …
    const prefix = `${OUTER}${SEPARATOR}${saver}${SEPARATOR}${saver}${SEPARATOR}${saver}#`;
    if (path.startsWith(prefix)) return { run, name: `${path.slice(prefix.length)}${SEPARATOR}${testName}` };
  }
  return null;
}

type Body = (...args: never[]) => unknown;

function register(name: string, body: Body | undefined, timeout?: number): void {
  const found = locate(name);
  const listed = found === null ? undefined : found.run.listed.get(found.name);
  const fn = body as () => unknown;
  if (found === null || listed === undefined) {
    it(name, fn, timeout);
    return;
  }
  found.run.matched.add(found.name);
  // Titled like the package's own skips.
  if (listed.how === "skip") it.skip(`[because ${listed.reason}] ${name}`, fn, timeout);
  else it.fails(`[fails because ${listed.reason}] ${name}`, fn, timeout);
}

/** `it` as the suite uses it: called, `.each` over objects with a `$field` title, `.skip`. */
const suiteIt = Object.assign((name: string, body?: Body, timeout?: number) => register(name, body, timeout), {
  skip: it.skip,
  each:
    <C extends Record<string, unknown>>(cases: readonly C[]) =>
    (title: string, body: (item: C) => unknown, timeout?: number) => {
      // Only the "$field" form is used (list tests); any other would be titled wrongly here, so refuse it.
      if (title.includes("%")) throw new Error(`unsupported it.each title format in the conformance suite: ${title}`);
      for (const item of cases)
        register(
          title.replace(/\$(\w+)/gu, (_, field: string) => String(item[field])),
          () => body(item),
          timeout,
        );
    },
});

// What the package's spec files use, and nothing else.
Object.assign(globalThis, { describe, it: suiteIt, expect, beforeAll, afterAll, beforeEach, afterEach });

/** Registers the whole suite (specTest: put, putWrites, getTuple, list, deleteThread) against one saver. */
export function conformance<T extends BaseCheckpointSaver>(run: ConformanceRun<T>): void {
  const { skips = [], expectedFailures = [], ...initializer } = run;
  const name = initializer.checkpointerName;
  if (runs.has(name)) throw new Error(`two conformance runs named ${name}`);
  if (name.includes(SEPARATOR) || name.includes("#")) throw new Error(`a conformance run's name cannot contain "${SEPARATOR}" or "#": ${name}`);
  const entries: Array<[string, Listed]> = [
    ...skips.map((c): [string, Listed] => [c.case, { how: "skip", reason: c.reason }]),
    ...expectedFailures.map((c): [string, Listed] => [c.case, { how: "fails", reason: c.reason }]),
  ];
  const registered: Registered = { listed: new Map(entries), matched: new Set() };
  if (registered.listed.size !== entries.length) throw new Error(`${name}: a case is listed twice`);
  runs.set(name, registered);
  describe(OUTER, () => {
    describe(name, () => {
      specTest(initializer);
      it("skips, and expects to fail, only cases the suite has", () => {
        expect([...registered.listed.keys()].filter((c) => !registered.matched.has(c))).toEqual([]);
      });
    });
  });
}

/**
 * A TurnScopedSaver driven the way frontdesk's turns drive it, one write at a time: every put
 * and every putWrites is a turn of its own — the thread's lock taken, `begin`, the write
 * (buffered), `commit` (applied and pruned by the backend's commit path), the lock released.
 * Reads and deleteThread go to the saver unchanged. Without `begin` the saver would pass every
 * write straight to the saver inside it, and the suite would test that saver, not the commit
 * path; with one turn around the whole suite nothing would be readable until its end.
 */
export class OneTurnPerWrite extends BaseCheckpointSaver {
  constructor(
    readonly saver: TurnScopedSaver,
    private readonly locks: ThreadLocks,
  ) {
    super(saver.serde);
  }

  private async turn<R>(config: RunnableConfig, write: () => Promise<R>): Promise<R> {
    const threadId = config.configurable?.["thread_id"];
    // No thread to lock: the saver's own error, as a turn would meet it.
    if (typeof threadId !== "string") return write();
    const lease = await this.locks.tryAcquire(threadId);
    if (lease === null) throw new Error(`thread ${threadId} is locked`);
    try {
      this.saver.begin(threadId);
      try {
        const result = await write();
        await this.saver.commit(threadId);
        return result;
      } catch (err) {
        this.saver.discard(threadId);
        throw err;
      }
    } finally {
      await lease.release();
    }
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return this.turn(config, () => this.saver.put(config, checkpoint, metadata, newVersions));
  }

  override putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.turn(config, () => this.saver.putWrites(config, writes, taskId, taskPath));
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.saver.getTuple(config);
  }

  override list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.saver.list(config, options);
  }

  override deleteThread(threadId: string): Promise<void> {
    return this.saver.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.saver.getNextVersion(current);
  }
}
