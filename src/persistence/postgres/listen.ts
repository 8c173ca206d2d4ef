import type pg from "pg";
import type { Logger } from "../../domain/logger.js";
import { createGuardedClient, pgErrorFields, type PostgresConnectionOptions } from "./connection.js";

export interface ListenOptions {
  connection: PostgresConnectionOptions;
  channel: string;
  logger: Logger;
  /** First reconnect delay; doubled per failed attempt up to MAX_RECONNECT_DELAY_MS. Default 200. */
  reconnectDelayMs?: number;
  /** How the log names this connection ("turn events", "document notifications"). */
  name: string;
  /** What the owner does while it is down, for the log ("polling until it is back"). */
  whileDown: string;
  onNotification(payload: string | undefined): void;
  /** The connection dropped (not on close): what was sent meanwhile is not heard. */
  onLost(): void;
  /** Listening again after a loss. */
  onRestored(): void;
}

export interface ListenConnection {
  readonly listening: boolean;
  close(): Promise<void>;
}

const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * One LISTEN connection that survives outages: its error listener is attached when the client is
 * built and stays for the client's whole life (an 'error' with no listener kills the process),
 * and a lost connection is re-established in the background with backoff. Resolves once
 * listening; the first connection's failure is the caller's.
 */
export async function listenResiliently(options: ListenOptions): Promise<ListenConnection> {
  const { logger, channel, name } = options;
  const baseDelay = options.reconnectDelayMs ?? 200;
  let listener: pg.Client | null = null;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | null = null;

  async function connect(): Promise<void> {
    const client = createGuardedClient(options.connection, (err) => lost(err));
    function lost(err?: Error): void {
      if (listener !== client) return;
      listener = null;
      if (closed) return;
      logger.warn({ err: err === undefined ? undefined : pgErrorFields(err) }, `${name} connection lost; ${options.whileDown}`);
      options.onLost();
      scheduleReconnect(baseDelay);
    }
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.channel === channel) options.onNotification(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (err) {
      client.removeAllListeners("end");
      await client.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      // close() ran while this reconnect was under way: nobody will end this connection later.
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
  }

  function scheduleReconnect(delayMs: number): void {
    if (closed || reconnectTimer !== null) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect().then(
        () => {
          if (closed) return;
          logger.info({}, `${name} connection re-established`);
          options.onRestored();
        },
        (err: unknown) => {
          logger.warn({ err: pgErrorFields(err) }, `${name} connection still down`);
          scheduleReconnect(Math.min(delayMs * 2, MAX_RECONNECT_DELAY_MS));
        },
      );
    }, delayMs);
    reconnectTimer.unref();
  }

  await connect();

  return {
    get listening() {
      return listener !== null;
    },
    async close() {
      closed = true;
      if (reconnectTimer !== null) clearTimeout(reconnectTimer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
    },
  };
}
