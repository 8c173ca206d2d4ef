import type { Logger } from "../domain/logger.js";
import type { ThreadEvent, WatchItem } from "../domain/turn.js";
import type { Watch, WatchMessage } from "../persistence/index.js";
import type { ThreadWatch } from "./types.js";

const EVENT_KINDS = new Set(["progress", "result", "failed"]);

/**
 * Events come back from storage (another process published them): check the shape this build
 * relies on before handing one on, rather than trusting it.
 */
export function parseThreadEvent(payload: unknown): ThreadEvent | null {
  if (typeof payload !== "object" || payload === null) return null;
  if (!("kind" in payload) || typeof payload.kind !== "string" || !EVENT_KINDS.has(payload.kind)) return null;
  if (!("turnId" in payload) || typeof payload.turnId !== "string") return null;
  if (payload.kind === "progress" && !("progress" in payload && typeof payload.progress === "object" && payload.progress !== null)) return null;
  if (payload.kind === "result" && !("result" in payload && typeof payload.result === "object" && payload.result !== null)) return null;
  if (payload.kind === "failed" && !("reason" in payload && (payload.reason === "cancelled" || payload.reason === "error"))) return null;
  return payload as ThreadEvent;
}

function toWatchItem(message: WatchMessage, logger: Logger): WatchItem | null {
  if (message.kind === "fell_behind") return { kind: "fell_behind", reason: message.reason };
  const event = parseThreadEvent(message.event.payload);
  if (event === null) {
    logger.warn({ thread: message.event.threadId }, "ignored a turn event of unknown shape");
    return null;
  }
  return { kind: "event", threadId: message.event.threadId, event };
}

/** A watch over stored events as typed watch items (events of unknown shape are logged and skipped). */
export function watchItems(source: Watch, logger: Logger): ThreadWatch {
  return {
    close: () => source.close(),
    async *[Symbol.asyncIterator]() {
      for await (const message of source) {
        const item = toWatchItem(message, logger);
        if (item !== null) yield item;
      }
    },
  };
}
