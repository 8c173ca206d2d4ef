import { create } from "@bufbuild/protobuf";
import { ThreadSchema, ThreadStatus, type Thread } from "../../gen/frontdesk/v1/thread_pb.js";
import type { ThreadView } from "../domain/turn.js";
import { assertNever, escalationToWire, timestamp, u32 } from "./turn.js";

function threadStatusToWire(status: ThreadView["status"]): ThreadStatus {
  switch (status) {
    case "active":
      return ThreadStatus.ACTIVE;
    case "escalated":
      return ThreadStatus.ESCALATED;
    default:
      return assertNever(status);
  }
}

export function threadToWire(view: ThreadView): Thread {
  return create(ThreadSchema, {
    threadId: view.threadId,
    status: threadStatusToWire(view.status),
    handoff: view.handoff === null ? undefined : escalationToWire(view.handoff),
    recentTurns: view.recentTurns.map((t) => ({
      turnId: t.turnId,
      requestId: t.requestId,
      userText: t.userText,
      outcome: t.outcome,
      reply: t.reply,
      language: t.language,
      completedAt: timestamp(t.completedAt),
    })),
    summary: view.summary,
    turnCount: u32(view.turnCount),
    updatedAt: timestamp(view.updatedAt),
  });
}
