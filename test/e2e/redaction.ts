import { create, toJsonString } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { ThreadSchema, type Thread } from "../../gen/frontdesk/v1/thread_pb.js";
import { EscalationReason, TurnRequestSchema, TurnResultSchema, type TurnResult } from "../../gen/frontdesk/v1/turn_pb.js";
import { createLogger } from "../../src/app/logger.js";
import { CONVERSATION, INSURER_EMAIL, leakedValues } from "../support/pii.js";
import type { RealServer } from "./support.js";

/**
 * The redaction proof, shared by the embedded SQLite file (redaction.test.ts) and PostgreSQL
 * (redaction.int.test.ts): a conversation full of personal values through the real service over
 * gRPC, then the results, GetThread and the captured logs read back.
 */

/**
 * Pads the last message so that its result (the handoff) is over the 7.9 KB NOTIFY limit: on
 * PostgreSQL it then goes through frontdesk_event_payloads, which the proof reads too.
 */
const LONG_TAIL = " من منتظر تماس شما هستم و همین شماره را دارم.".repeat(180);

/** The environment the proof runs the service with: a short history, so older turns reach the summary. */
export const PROOF_ENV = { FRONTDESK_HISTORY_TURNS: "2", FRONTDESK_MAX_TEXT_CHARS: "20000", FRONTDESK_LOG_LEVEL: "debug" } as const;

/** A logger at debug level whose lines the test keeps. */
export function capturedLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger("debug", { write: (line: string) => void lines.push(line) }) };
}

export const resultJson = (result: TurnResult) => toJsonString(TurnResultSchema, result);
export const threadJson = (thread: Thread) => toJsonString(ThreadSchema, thread);

/** Holds the conversation on `threadId`; every turn completes, the last hands off. Returns the results. */
export async function holdConversation(server: RealServer, threadId: string, userId: string): Promise<TurnResult[]> {
  const results: TurnResult[] = [];
  for (const [i, text] of CONVERSATION.entries()) {
    const full = i === CONVERSATION.length - 1 ? text + LONG_TAIL : text;
    const { result } = await server.client.turn(create(TurnRequestSchema, { threadId, userId, text: full, requestId: `${threadId}-${i}` }));
    results.push(result!);
  }
  // A retry of the first turn gets its stored result: the replay record.
  const { result: replayed } = await server.client.turn(create(TurnRequestSchema, { threadId, userId, text: CONVERSATION[0], requestId: `${threadId}-0` }));
  expect(resultJson(replayed!)).toBe(resultJson(results[0]!));
  return results;
}

/** The results as the caller got them: masked, the insurer's own address kept, a handoff the agent can read. */
export function expectMaskedResults(results: readonly TurnResult[]): void {
  expect(results.map((r) => r.outcome.case)).toEqual(["answer", "answer", "answer", "escalate"]);
  const third = results[2]!.outcome;
  expect(third.case === "answer" ? third.value.text : "").toContain(INSURER_EMAIL);
  const last = results[3]!.outcome;
  if (last.case !== "escalate") throw new Error("the last turn must hand off");
  expect(last.value.reason).toBe(EscalationReason.USER_REQUESTED);
  const handoff = last.value.handoffContext!;
  expect(handoff.lastUserMessage.startsWith("لطفاً با یک کارشناس صحبت کنم؛ شبا [iban]، کارت [card]، ایمیل [email]، موبایل [mobile ••••۴۵۶۷]")).toBe(true);
  for (const mask of ["[national-id]", "[mobile ••••۲۲۳۳]", "[mobile ••••4567]", "[card]", "[iban]", "[email]", INSURER_EMAIL]) expect(handoff.conversationSummary).toContain(mask);
  for (const result of results) expect(leakedValues(resultJson(result))).toEqual([]);
}

/** GetThread: the same masked turns and summary. */
export async function expectMaskedThread(server: RealServer, threadId: string): Promise<Thread> {
  const { thread } = await server.client.getThread({ threadId });
  expect(thread?.recentTurns.map((t) => t.requestId)).toEqual([`${threadId}-2`, `${threadId}-3`]);
  expect(thread?.recentTurns[0]?.userText).toBe("Which e-mail address do I use for support? My card is [card], Sheba [iban], e-mail [email], other card [card]");
  expect(thread?.recentTurns[0]?.reply).toContain(INSURER_EMAIL);
  expect(thread?.summary).toContain("my national code is [national-id] and my mobile [mobile ••••4567]");
  expect(thread?.summary).toContain("کد ملی همسرم [national-id] و شماره‌اش [mobile ••••۲۲۳۳]");
  expect(leakedValues(threadJson(thread!))).toEqual([]);
  return thread!;
}

/** The captured logs: lines were written, none holds a value or the user's words. */
export function expectCleanLogs(lines: readonly string[]): void {
  expect(lines.length).toBeGreaterThan(0);
  const all = lines.join("");
  expect(leakedValues(all)).toEqual([]);
  expect(all).not.toContain("Which e-mail address");
  expect(all).not.toContain("کارشناس صحبت");
}
