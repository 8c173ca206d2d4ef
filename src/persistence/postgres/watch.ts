import type pg from "pg";
import type { Logger } from "../../domain/logger.js";
import { StorageUnavailableError } from "../errors.js";
import type { PostgresConnectionOptions } from "./connection.js";
import { listenResiliently } from "./listen.js";
import { createFanout, type FanoutOptions } from "../fanout.js";
import type { PublishedEvent, ThreadTopic, TurnEvents } from "../ports.js";

export const TURN_EVENTS_CHANNEL = "frontdesk_turn_events";

/**
 * NOTIFY payloads must be shorter than 8000 bytes. Events whose envelope is larger (a long
 * answer with its citations) are stored in frontdesk_event_payloads and NOTIFY carries the id.
 */
export const NOTIFY_INLINE_LIMIT_BYTES = 7_900;

/** What travels over NOTIFY: the topic, and the payload or the id of the row holding it. */
type Envelope = { t: string; h: string; p: unknown } | { t: string; h: string; ref: string };

function parseEnvelope(text: string): Envelope | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || !("t" in value) || !("h" in value)) return null;
  const { t, h } = value;
  if (typeof t !== "string" || typeof h !== "string") return null;
  if ("ref" in value && typeof value.ref === "string") return { t, h, ref: value.ref };
  if ("p" in value) return { t, h, p: value.p };
  return null;
}

export interface PostgresTurnEventsOptions extends FanoutOptions {
  connection: PostgresConnectionOptions;
  /** Publishing and fetching large payloads. */
  pool: pg.Pool;
  logger: Logger;
  /** Large payload rows older than this are deleted when new ones are written. */
  payloadRetentionSeconds: number;
  /** Events waiting to be published; beyond it new events are dropped (and logged) rather than queued without bound. */
  publishQueue: number;
  /** First reconnect delay of the LISTEN connection, doubled up to 5 s. Default 200 ms. */
  reconnectDelayMs?: number;
}

export interface PostgresTurnEvents extends TurnEvents {
  /** Resolves when every event published so far has been sent (tests, shutdown). */
  flush(): Promise<void>;
  /** True while the LISTEN connection is up. */
  readonly listening: boolean;
}

/**
 * Turn events across processes through LISTEN/NOTIFY. Each process keeps one LISTEN connection
 * and hands what arrives to its local watchers; it publishes its own turns' events in order
 * through one queue (NOTIFYs of one session are delivered in commit order). If the LISTEN
 * connection drops, every watcher is told it fell behind (events may have been missed) and the
 * connection is re-established in the background; until then new watchers are refused as
 * UNAVAILABLE.
 */
export async function createPostgresTurnEvents(options: PostgresTurnEventsOptions): Promise<PostgresTurnEvents> {
  const { pool, logger } = options;
  const fanout = createFanout(options);

  let closed = false;
  // Notifications are handled one after another, so a large event fetched by id keeps its place.
  let inbound: Promise<void> = Promise.resolve();
  // Waiting to be sent, in publish order; one pump sends them, consecutive small ones in one query.
  const queue: PublishedEvent[] = [];
  let pumping: Promise<void> | null = null;

  async function receive(text: string): Promise<void> {
    const envelope = parseEnvelope(text);
    if (envelope === null) {
      logger.warn({ channel: TURN_EVENTS_CHANNEL }, "ignored a malformed turn event notification");
      return;
    }
    const topic: ThreadTopic = { tenantId: envelope.t, threadId: envelope.h };
    if (!fanout.wants(topic)) return;
    if ("p" in envelope) {
      fanout.deliver({ ...topic, payload: envelope.p });
      return;
    }
    try {
      const result = await pool.query<{ payload: string }>("SELECT payload FROM frontdesk_event_payloads WHERE id = $1", [envelope.ref]);
      const row = result.rows[0];
      if (row === undefined) throw new Error(`event payload ${envelope.ref} is gone`);
      fanout.deliver({ ...topic, payload: JSON.parse(row.payload) as unknown });
    } catch (err) {
      logger.warn({ err }, "could not fetch a large turn event; its watchers fell behind");
      fanout.interrupt("source_interrupted", topic);
    }
  }

  const envelopeOf = (event: PublishedEvent) => JSON.stringify({ t: event.tenantId, h: event.threadId, p: event.payload });
  const fitsInline = (envelope: string) => Buffer.byteLength(envelope, "utf8") <= NOTIFY_INLINE_LIMIT_BYTES;

  /** Several NOTIFYs in one round trip, delivered in array order (one session, one transaction). */
  async function sendInline(envelopes: string[]): Promise<void> {
    await pool.query("SELECT pg_notify($1, e.payload) FROM unnest($2::text[]) WITH ORDINALITY AS e(payload, n) ORDER BY e.n", [TURN_EVENTS_CHANNEL, envelopes]);
  }

  async function sendLarge(event: PublishedEvent): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const inserted = await client.query<{ id: string }>("INSERT INTO frontdesk_event_payloads (tenant_id, thread_id, payload) VALUES ($1, $2, $3) RETURNING id::text AS id", [
        event.tenantId,
        event.threadId,
        JSON.stringify(event.payload),
      ]);
      await client.query("DELETE FROM frontdesk_event_payloads WHERE created_at < now() - make_interval(secs => $1)", [options.payloadRetentionSeconds]);
      // In the same transaction: the row is visible by the time anyone hears of it.
      await client.query("SELECT pg_notify($1, $2)", [TURN_EVENTS_CHANNEL, JSON.stringify({ t: event.tenantId, h: event.threadId, ref: inserted.rows[0]!.id })]);
      await client.query("COMMIT");
      client.release();
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      client.release(err instanceof Error ? err : true);
      throw err;
    }
  }

  function startPump(): void {
    if (pumping !== null) return;
    pumping = pump().finally(() => {
      pumping = null;
      // An event published after the loop's last check and before this line.
      if (queue.length > 0) startPump();
    });
  }

  async function pump(): Promise<void> {
    while (queue.length > 0) {
      const batch: string[] = [];
      while (queue.length > 0 && batch.length < 500) {
        const envelope = envelopeOf(queue[0]!);
        if (!fitsInline(envelope)) break;
        batch.push(envelope);
        queue.shift();
      }
      try {
        if (batch.length > 0) await sendInline(batch);
        else await sendLarge(queue.shift()!);
      } catch (err) {
        logger.warn({ err, events: Math.max(batch.length, 1) }, "turn events not published");
      }
    }
  }

  const connection = await listenResiliently({
    connection: options.connection,
    channel: TURN_EVENTS_CHANNEL,
    logger,
    ...(options.reconnectDelayMs === undefined ? {} : { reconnectDelayMs: options.reconnectDelayMs }),
    name: "turn events",
    whileDown: "watchers were told they fell behind, reconnecting",
    onNotification(payload) {
      if (payload === undefined) return;
      inbound = inbound.then(() => receive(payload));
    },
    onLost: () => fanout.interrupt("source_interrupted"),
    onRestored: () => undefined,
  });

  return {
    get listening() {
      return connection.listening;
    },

    publish(event) {
      if (closed) return;
      if (queue.length >= options.publishQueue) {
        logger.warn({ tenant: event.tenantId, thread: event.threadId }, "turn event dropped: publish queue full");
        return;
      }
      queue.push(event);
      startPump();
    },

    async subscribe(filter) {
      if (!connection.listening) throw new StorageUnavailableError("turn events are unavailable: the PostgreSQL LISTEN connection is down");
      return fanout.subscribe(filter);
    },

    async flush() {
      while (pumping !== null) await pumping;
    },

    async close() {
      closed = true;
      while (pumping !== null) await pumping;
      fanout.closeAll();
      await connection.close();
    },
  };
}
