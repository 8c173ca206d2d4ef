import { create } from "@bufbuild/protobuf";
import {
  FellBehindReason as WireFellBehindReason,
  ThreadEventSchema,
  TurnFailureReason as WireTurnFailureReason,
  type ThreadEvent as WireThreadEvent,
} from "../../gen/frontdesk/v1/watch_pb.js";
import type { WatchItem } from "../domain/turn.js";
import { assertNever, progressToWire, turnResultToWire } from "./turn.js";

/** The first message of every watch stream. */
export function watchStartedToWire(threadId: string): WireThreadEvent {
  return create(ThreadEventSchema, { threadId, event: { case: "started", value: {} } });
}

/** A watch item as the wire's ThreadEvent: progress and results exactly as StreamTurn sends them. */
export function watchItemToWire(item: WatchItem): WireThreadEvent {
  if (item.kind === "fell_behind") {
    const reason = item.reason === "slow_consumer" ? WireFellBehindReason.SLOW_CONSUMER : WireFellBehindReason.SOURCE_INTERRUPTED;
    return create(ThreadEventSchema, { event: { case: "fellBehind", value: { reason } } });
  }
  const { threadId, event } = item;
  switch (event.kind) {
    case "progress":
      return create(ThreadEventSchema, { threadId, turnId: event.turnId, event: { case: "progress", value: progressToWire(event.progress) } });
    case "result":
      return create(ThreadEventSchema, { threadId, turnId: event.turnId, event: { case: "result", value: turnResultToWire(event.result) } });
    case "failed": {
      const reason = event.reason === "cancelled" ? WireTurnFailureReason.CANCELLED : WireTurnFailureReason.ERROR;
      return create(ThreadEventSchema, { threadId, turnId: event.turnId, event: { case: "failed", value: { reason } } });
    }
    default:
      return assertNever(event);
  }
}
