import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.js";
import type { DocumentStoreListener, SharedDocumentStore, SourceDocument } from "../../src/domain/documents.js";
import { silentLogger } from "../../src/domain/logger.js";
import { StorageUnavailableError } from "../../src/persistence/errors.js";
import { createPool } from "../../src/persistence/postgres/connection.js";
import { createPostgresDocumentStore } from "../../src/persistence/postgres/documents.js";
import { migrateDatabase } from "../../src/persistence/postgres/index.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

let db: TestDatabase;
const closers: Array<() => Promise<void>> = [];

/** One replica's store: its own pool and LISTEN connection. */
async function replica(name: string): Promise<SharedDocumentStore> {
  const connection = { connectionString: db.url, connectTimeoutMs: 1_500, statementTimeoutMs: 5_000, applicationName: `frontdesk-docs-${name}` };
  const pool = createPool(connection, 4, silentLogger, name);
  const store = await createPostgresDocumentStore({
    pool,
    connection: { ...connection, applicationName: `frontdesk-docs-listen-${name}` },
    logger: silentLogger,
    reconnectDelayMs: 50,
    ownsPool: true,
  });
  closers.push(() => store.close());
  return store;
}

const doc = (id: string, body: string, extra: Partial<SourceDocument> = {}): SourceDocument => ({
  tenantId: "t1",
  id,
  title: `Title ${id}`,
  product: "bicycle",
  domain: "general",
  lang: "en",
  body,
  ...extra,
});
// The store takes the hash from the retrieval layer; any string that changes with the content will do here.
const put = (...documents: SourceDocument[]) => documents.map((document) => ({ document, contentHash: `h:${document.title}:${document.body}` }));

/** Records what a listener is told; `next` waits for a matching call. */
function recorder() {
  const calls: Array<{ kind: "changed"; version: number } | { kind: "missed" }> = [];
  const waiters: Array<() => void> = [];
  const listener: DocumentStoreListener = {
    changed: (version) => {
      calls.push({ kind: "changed", version });
      for (const w of waiters.splice(0)) w();
    },
    missed: () => {
      calls.push({ kind: "missed" });
      for (const w of waiters.splice(0)) w();
    },
  };
  const until = async (match: (c: (typeof calls)[number]) => boolean, ms = 5_000) => {
    const deadline = Date.now() + ms;
    while (!calls.some(match)) {
      if (Date.now() > deadline) throw new Error(`listener: nothing matching in ${ms} ms; saw ${JSON.stringify(calls)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  return { calls, listener, until };
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  db = await createTestDatabase("documents");
  await migrateDatabase(db.url, loadConfig({}).persistence.postgres, silentLogger);
});
afterAll(async () => {
  for (const close of closers) await close();
  await db?.drop();
});

describe("the shared document store on PostgreSQL", () => {
  it("writes a batch in one transaction, with statuses against the live row, and versions that only grow", async () => {
    const store = await replica("write");
    expect(await store.currentVersion()).toBe(0);
    expect(await store.put(put(doc("w-a", "one"), doc("w-b", "two")))).toEqual(["added", "added"]);
    const v1 = await store.currentVersion();
    expect(v1).toBeGreaterThan(0);
    // Unchanged content is not written again: no new version.
    expect(await store.put(put(doc("w-a", "one")))).toEqual(["unchanged"]);
    expect(await store.currentVersion()).toBe(v1);
    // A new source is kept (a new version) though the content is unchanged.
    expect(await store.put(put(doc("w-a", "one", { source: "a.md" })))).toEqual(["unchanged"]);
    expect(await store.currentVersion()).toBeGreaterThan(v1);
    expect(await store.put(put(doc("w-b", "two, changed")))).toEqual(["replaced"]);
    // The same id twice in one batch: the second compares with the first, as two calls would.
    expect(await store.put(put(doc("w-c", "x"), doc("w-c", "y")))).toEqual(["added", "replaced"]);
    expect((await store.list("t1")).filter((d) => d.id.startsWith("w-")).map((d) => [d.id, d.body, d.source])).toEqual([
      ["w-a", "one", "a.md"],
      ["w-b", "two, changed", undefined],
      ["w-c", "y", undefined],
    ]);
    // Another tenant's documents are its own.
    expect(await store.list("t2")).toEqual([]);
  });

  it("writes nothing of a batch that fails half-way", async () => {
    const store = await replica("atomic");
    const before = await store.currentVersion();
    // PostgreSQL refuses a NUL character in text: the second document fails, the first is rolled back.
    await expect(store.put(put(doc("atomic-ok", "fine"), doc("atomic-bad", "nul \u0000 here")))).rejects.toThrow();
    expect(await db.query("SELECT 1 FROM frontdesk_documents WHERE document_id LIKE 'atomic-%'")).toEqual([]);
    expect(await store.currentVersion()).toBe(before);
  });

  it("lets a replica catch up from any version, page by page, a document changed twice appearing once at its newer version", async () => {
    const store = await replica("catch-up");
    const start = await store.currentVersion();
    await store.put(put(doc("c-1", "a"), doc("c-2", "b"), doc("c-3", "c")));
    await store.put(put(doc("c-1", "a, again")));
    const all = await store.changesSince(start, 100);
    expect(all.map((c) => (c.kind === "put" ? `${c.document.id}:${c.document.body}` : c.kind))).toEqual(["c-2:b", "c-3:c", "c-1:a, again"]);
    const versions = all.map((c) => c.version);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
    // Pages of one: the same changes, none skipped or repeated.
    const paged: number[] = [];
    for (let after = start; ; ) {
      const page = await store.changesSince(after, 1);
      if (page.length === 0) break;
      paged.push(page[0]!.version);
      after = page[0]!.version;
    }
    expect(paged).toEqual(versions);
    expect(all[2]).toMatchObject({ kind: "put", contentHash: "h:Title c-1:a, again" });
  });

  it("tombstones a delete: later changes carry it, the body is cleared, listings and a second delete see no document", async () => {
    const store = await replica("tombstone");
    await store.put(put(doc("gone", "secret text")));
    const before = await store.currentVersion();
    expect(await store.delete("t1", "gone")).toBe(true);
    expect(await store.delete("t1", "gone")).toBe(false);
    expect(await store.delete("t2", "gone")).toBe(false);
    expect(await store.changesSince(before, 10)).toEqual([{ kind: "deleted", version: before + 1, tenantId: "t1", documentId: "gone" }]);
    expect(await db.query("SELECT body, deleted FROM frontdesk_documents WHERE document_id = 'gone'")).toEqual([{ body: "", deleted: true }]);
    expect((await store.list("t1")).map((d) => d.id)).not.toContain("gone");
    // Put again after a delete: added, as new.
    expect(await store.put(put(doc("gone", "back")))).toEqual(["added"]);
  });

  it("draws distinct versions for concurrent writers, committed in order, so catching up never skips one", async () => {
    const [a, b] = await Promise.all([replica("race-a"), replica("race-b")]);
    const start = await a.currentVersion();
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).put(put(doc(`race-${i}`, `body ${i}`)))));
    const changes = await b.changesSince(start, 100);
    expect(changes.map((c) => (c.kind === "put" ? c.document.id : "")).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `race-${i}`).sort());
    expect(new Set(changes.map((c) => c.version)).size).toBe(20);
  });

  it("notifies every replica of a write with the version it committed", async () => {
    const [writer, reader] = await Promise.all([replica("notify-w"), replica("notify-r")]);
    const seen = recorder();
    reader.listen(seen.listener);
    await writer.put(put(doc("n-1", "hello")));
    const version = await writer.currentVersion();
    await seen.until((c) => c.kind === "changed" && c.version === version);
    await writer.delete("t1", "n-1");
    await seen.until((c) => c.kind === "changed" && c.version === version + 1);
  });

  it("survives its LISTEN connection being cut: it reconnects and tells listeners they may have missed changes", async () => {
    const [writer, reader] = await Promise.all([replica("drop-w"), replica("drop-r")]);
    const seen = recorder();
    reader.listen(seen.listener);
    expect(reader.listening).toBe(true);
    expect(await db.terminateConnections("frontdesk-docs-listen-drop-r")).toBe(1);
    await waitFor(() => seen.calls.some((c) => c.kind === "missed"));
    expect(reader.listening).toBe(true);
    // Notifications flow again on the new connection.
    await writer.put(put(doc("after-drop", "x")));
    const version = await writer.currentVersion();
    await seen.until((c) => c.kind === "changed" && c.version === version);
  });

  it("keeps retrying while the database refuses connections, and fails calls meanwhile as StorageUnavailableError", async () => {
    const store = await replica("outage");
    const seen = recorder();
    store.listen(seen.listener);
    await db.allowConnections(false);
    try {
      await db.terminateConnections("frontdesk-docs-");
      await waitFor(() => !store.listening);
      await expect(store.currentVersion()).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(store.put(put(doc("during-outage", "x")))).rejects.toBeInstanceOf(StorageUnavailableError);
      // Still down after a few reconnect attempts, and the process is still here.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(store.listening).toBe(false);
    } finally {
      await db.allowConnections(true);
    }
    await waitFor(() => store.listening, 10_000);
    expect(seen.calls.some((c) => c.kind === "missed")).toBe(true);
    expect(await store.put(put(doc("after-outage", "x")))).toEqual(["added"]);
  });
});
