import type pg from "pg";
import type { DocumentChange, DocumentStoreListener, SharedDocumentStore, SourceDocument, StoredPutStatus } from "../../domain/documents.js";
import type { Logger } from "../../domain/logger.js";
import { isLanguage } from "../../text/language.js";
import { advisoryKey, type PostgresConnectionOptions } from "./connection.js";
import { listenResiliently } from "./listen.js";
import { guarded } from "./errors.js";

export const DOCUMENTS_CHANNEL = "frontdesk_documents";

// Writers take this transaction lock before drawing versions, so versions commit in the order
// they are drawn: a replica that has seen version N has seen every version below it.
const WRITE_LOCK = advisoryKey("documents");

export interface PostgresDocumentStoreOptions {
  /** Reads and writes. */
  pool: pg.Pool;
  /** The LISTEN connection's options. */
  connection: PostgresConnectionOptions;
  logger: Logger;
  /** First reconnect delay of the LISTEN connection, doubled up to 5 s. Default 200 ms. */
  reconnectDelayMs?: number;
  /** Ended by close() (the pool is the store's own). Default false. */
  ownsPool?: boolean;
}

interface Row {
  tenant_id: string;
  document_id: string;
  version: string;
  deleted: boolean;
  title: string;
  product: string;
  domain: string;
  lang: string;
  body: string;
  source: string | null;
  content_hash: string;
}

const COLUMNS = "tenant_id, document_id, version::text AS version, deleted, title, product, domain, lang, body, source, content_hash";

function documentOf(row: Row): SourceDocument | null {
  // Rows were valid when written; a language this build no longer knows is not guessed.
  if (!isLanguage(row.lang)) return null;
  const { tenant_id: tenantId, document_id: id, title, product, domain, lang, body, source } = row;
  return { tenantId, id, title, product, domain, lang, body, ...(source === null ? {} : { source }) };
}

/** Runs `work` in a transaction holding the write lock; a failure rolls everything back. */
async function writeTransaction<T>(pool: pg.Pool, what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return guarded(what, async () => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [WRITE_LOCK]);
      const result = await work(client);
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      client.release(err instanceof Error ? err : true);
      throw err;
    }
  });
}

/**
 * The shared document store on PostgreSQL (table frontdesk_documents, migration v3). Every write
 * NOTIFYs the version it committed on DOCUMENTS_CHANNEL in its own transaction; one LISTEN
 * connection per process hands those to listeners, and is re-established in the background when
 * it drops (listeners are then told they may have missed changes). Resolves once listening.
 */
export async function createPostgresDocumentStore(options: PostgresDocumentStoreOptions): Promise<SharedDocumentStore> {
  const { pool, logger } = options;
  const baseDelay = options.reconnectDelayMs ?? 200;
  const listeners = new Set<DocumentStoreListener>();

  const each = (call: (l: DocumentStoreListener) => void) => {
    for (const l of [...listeners]) {
      try {
        call(l);
      } catch (err) {
        logger.warn({ err }, "document store listener failed");
      }
    }
  };

  const connection = await listenResiliently({
    connection: options.connection,
    channel: DOCUMENTS_CHANNEL,
    logger,
    reconnectDelayMs: baseDelay,
    name: "document notifications",
    whileDown: "polling until it is back",
    onNotification(payload) {
      const version = Number(payload);
      if (Number.isSafeInteger(version)) each((l) => l.changed(version));
    },
    onLost: () => undefined,
    // Listening again: what was written meanwhile was not heard of.
    onRestored: () => each((l) => l.missed()),
  });

  return {
    get listening() {
      return connection.listening;
    },

    async put(entries) {
      if (entries.length === 0) return [];
      return writeTransaction(pool, "writing documents", async (client) => {
        const previous = await client.query<{ tenant_id: string; document_id: string; deleted: boolean; content_hash: string; source: string | null }>(
          `SELECT d.tenant_id, d.document_id, d.deleted, d.content_hash, d.source FROM frontdesk_documents d
           JOIN unnest($1::text[], $2::text[]) AS k(tenant_id, document_id) USING (tenant_id, document_id)`,
          [entries.map((e) => e.document.tenantId), entries.map((e) => e.document.id)],
        );
        const key = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;
        const state = new Map(previous.rows.map((r) => [key(r.tenant_id, r.document_id), { live: !r.deleted, hash: r.content_hash, source: r.source }]));
        // In order, so a document given twice compares with its earlier version, as two calls would.
        const writes = new Map<string, (typeof entries)[number]>();
        const statuses = entries.map(({ document, contentHash }): StoredPutStatus => {
          const k = key(document.tenantId, document.id);
          const before = state.get(k);
          const source = document.source ?? null;
          state.set(k, { live: true, hash: contentHash, source });
          if (before?.live === true && before.hash === contentHash && before.source === source) return "unchanged";
          writes.set(k, { document, contentHash });
          return before?.live !== true ? "added" : before.hash === contentHash ? "unchanged" : "replaced";
        });
        if (writes.size > 0) {
          const rows = [...writes.values()];
          const column = (pick: (e: (typeof rows)[number]) => string | null) => rows.map(pick);
          const written = await client.query<{ version: string }>(
            `INSERT INTO frontdesk_documents (tenant_id, document_id, title, product, domain, lang, body, source, content_hash, version)
             SELECT t.*, nextval('frontdesk_document_versions')
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS t
             ON CONFLICT (tenant_id, document_id) DO UPDATE SET title = excluded.title, product = excluded.product, domain = excluded.domain,
               lang = excluded.lang, body = excluded.body, source = excluded.source, content_hash = excluded.content_hash,
               version = excluded.version, deleted = false, updated_at = now()
             RETURNING version::text AS version`,
            [
              column((e) => e.document.tenantId),
              column((e) => e.document.id),
              column((e) => e.document.title),
              column((e) => e.document.product),
              column((e) => e.document.domain),
              column((e) => e.document.lang),
              column((e) => e.document.body),
              column((e) => e.document.source ?? null),
              column((e) => e.contentHash),
            ],
          );
          const version = Math.max(...written.rows.map((r) => Number(r.version)));
          // Delivered at COMMIT, so a listener that hears of the version can read it.
          await client.query("SELECT pg_notify($1, $2)", [DOCUMENTS_CHANNEL, String(version)]);
        }
        return statuses;
      });
    },

    async delete(tenantId, documentId) {
      return writeTransaction(pool, "deleting a document", async (client) => {
        const deleted = await client.query<{ version: string }>(
          `UPDATE frontdesk_documents SET deleted = true, body = '', content_hash = '', version = nextval('frontdesk_document_versions'), updated_at = now()
           WHERE tenant_id = $1 AND document_id = $2 AND NOT deleted RETURNING version::text AS version`,
          [tenantId, documentId],
        );
        const row = deleted.rows[0];
        if (row === undefined) return false;
        await client.query("SELECT pg_notify($1, $2)", [DOCUMENTS_CHANNEL, row.version]);
        return true;
      });
    },

    async list(tenantId) {
      const result = await guarded("listing documents", () =>
        pool.query<Row>(`SELECT ${COLUMNS} FROM frontdesk_documents WHERE tenant_id = $1 AND NOT deleted ORDER BY document_id`, [tenantId]),
      );
      return result.rows.flatMap((row) => documentOf(row) ?? []);
    },

    async changesSince(after, limit) {
      const result = await guarded("reading document changes", () =>
        pool.query<Row>(`SELECT ${COLUMNS} FROM frontdesk_documents WHERE version > $1 ORDER BY version LIMIT $2`, [after, limit]),
      );
      return result.rows.map((row): DocumentChange => {
        const version = Number(row.version);
        const document = row.deleted ? null : documentOf(row);
        if (document === null) {
          if (!row.deleted) logger.warn({ tenant: row.tenant_id, document: row.document_id, lang: row.lang }, "stored document has a language this build does not serve; skipped");
          return { kind: "deleted", version, tenantId: row.tenant_id, documentId: row.document_id };
        }
        return { kind: "put", version, document, contentHash: row.content_hash };
      });
    },

    async currentVersion() {
      const result = await guarded("reading the document version", () => pool.query<{ v: string }>("SELECT COALESCE(max(version), 0)::text AS v FROM frontdesk_documents"));
      return Number(result.rows[0]?.v ?? 0);
    },

    listen(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },

    async close() {
      listeners.clear();
      await connection.close();
      if (options.ownsPool === true) await pool.end().catch(() => undefined);
    },
  };
}
