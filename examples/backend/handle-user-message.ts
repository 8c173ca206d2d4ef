/**
 * What your backend does with one user message: send it to frontdesk as one turn, and turn the
 * outcome — or the error — into one action your chat code carries out.
 *
 *   const action = await handleUserMessage(frontdesk, { sessionId, userId, text, requestId });
 *   switch (action.kind) { case "show_answer": …; case "show_buttons": …; case "transfer_to_human": …; … }
 *
 * Every error code of frontdesk's README is handled here, with its retry policy spelled out in
 * `handleUserMessage` below; codes that mean a bug or a wrong configuration are thrown.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { ThreadClosedSchema } from "../../gen/frontdesk/v1/thread_pb.js";
import { EscalationReason, type Citation, type Escalate, type HandoffContext, type TurnResult } from "../../gen/frontdesk/v1/turn_pb.js";
import type { FrontdeskClients } from "./frontdesk-client.js";

export interface UserMessage {
  /** Your chat session's id: frontdesk keeps one thread per session. 1-128 of [A-Za-z0-9._:-]. */
  sessionId: string;
  /** Your user's id, the same in all their sessions: it keys what frontdesk remembers about them. */
  userId: string;
  /** What the user typed, or the label of the button they pressed. */
  text: string;
  /**
   * Your id of this message (your chat message id, say). Send the same id whenever you send this
   * message again — this function does on retries, and so should you after a restart: frontdesk
   * then returns the stored result instead of running the turn twice.
   */
  requestId: string;
  /** Optional language hint ("fa", "en"); the language of `text` wins. */
  locale?: string;
}

/** One passage an answer cites, to show under it (a footnote, a "sources" drawer). */
export interface ShownCitation {
  title: string;
  /** The heading the passage sits under ("Claims > Documents"); "" for a document's introduction. */
  section: string;
  /** The cited passage; null when it could not be fetched (see resolveCitations). */
  text: string | null;
}

/** A clarify option. Show `label` on the button and send it back as the next message's text. */
export interface Button {
  label: string;
  /** The document the option stands for, if you want to show more than the label. */
  title: string;
}

export type BackendAction =
  /** Show the text, with its sources. */
  | { kind: "show_answer"; text: string; citations: ShownCitation[] }
  /** Show the question and one button per option; the user's pick is their next message. */
  | { kind: "show_buttons"; question: string; options: Button[] }
  /**
   * Show `message`, then run your "connect me to a human" transfer, giving the agent console
   * `handoff` (the rewritten question, the passages found, a summary, the user's profile).
   * `repeated` is true when the session had been handed over already and the user wrote again:
   * run the transfer again (it may have failed, or the user came back); frontdesk will not answer
   * on this session any more.
   */
  | { kind: "transfer_to_human"; message: string; reason: string; handoff: HandoffContext | undefined; repeated: boolean }
  /** The text is empty or too long (`problem` says which): ask the user to write it again. */
  | { kind: "ask_to_rephrase"; problem: string }
  /**
   * Nothing to show yet: tell the user to try again in a moment. "turn_in_progress": their
   * previous message is still being answered; "unavailable": frontdesk or its storage is down.
   */
  | { kind: "retry_later"; why: "turn_in_progress" | "unavailable" };

export interface RetryPolicy {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts?: number;
  /** ABORTED (a turn of this session is running): the first wait, doubled each time. Default 500 ms. */
  busyWaitMs?: number;
  /** UNAVAILABLE, DEADLINE_EXCEEDED, CANCELED: the first wait, doubled each time, plus jitter. Default 200 ms. */
  backoffMs?: number;
  /**
   * One attempt's deadline. Default 35 s: longer than frontdesk's own 30 s turn limit, before which
   * it hands over rather than overrun, so that its answer — a handoff at worst — arrives first.
   */
  timeoutMs?: number;
  /** Abort to give up (the user left): the call then throws CANCELED and is not retried. */
  signal?: AbortSignal;
  /** Each graph step as it starts, e.g. to show "searching the documents…". */
  onProgress?: (node: string) => void;
  /** Before each retry: log it, count it. `code` as the README writes it, e.g. "UNAVAILABLE". */
  onRetry?: (retry: { code: string; attempt: number; waitMs: number }) => void;
}

/**
 * Sends one user message and says what to do with the outcome. Throws a ConnectError only for
 * what your code or configuration must fix: UNAUTHENTICATED (a wrong API key), INVALID_ARGUMENT on
 * anything but the text (a malformed session or request id, a request id reused for another
 * text), INTERNAL (a frontdesk bug, logged on its side) — and CANCELED when `signal` aborted.
 */
export async function handleUserMessage(frontdesk: FrontdeskClients, message: UserMessage, policy: RetryPolicy = {}): Promise<BackendAction> {
  const maxAttempts = policy.maxAttempts ?? 4;
  const busyWaitMs = policy.busyWaitMs ?? 500;
  const backoffMs = policy.backoffMs ?? 200;
  const turn: TurnFields = { threadId: message.sessionId, userId: message.userId, text: message.text, requestId: message.requestId, locale: message.locale ?? "" };

  for (let attempt = 1; ; attempt++) {
    const last = attempt === maxAttempts;
    let result: TurnResult;
    try {
      result = await runTurn(frontdesk, turn, policy);
    } catch (thrown) {
      const error = ConnectError.from(thrown);
      const retry = async (waitMs: number) => {
        policy.onRetry?.({ code: codeName(error.code), attempt, waitMs });
        await sleep(waitMs, policy.signal);
      };

      // The session was handed to a person earlier. The error carries the stored handoff, so the
      // transfer runs again without another call.
      if (error.code === Code.FailedPrecondition) {
        const closed = error.findDetails(ThreadClosedSchema)[0];
        if (closed?.handoff !== undefined) return transfer(closed.handoff, true);
        throw error;
      }

      // Another message of this session is still being answered (a double click, two tabs).
      // Wait for it; sending both at once is never right. The user sees that answer, then this one.
      if (error.code === Code.Aborted) {
        if (last) return { kind: "retry_later", why: "turn_in_progress" };
        await retry(busyWaitMs * 2 ** (attempt - 1));
        continue;
      }

      // The call failed on the way: frontdesk restarting, its storage unreachable, a timeout, a
      // proxy dropping the connection. The turn ran completely or not at all, so send the very
      // same request again — same request_id — and get either its stored result or a fresh run.
      // CANCELED caused by our own signal means we gave up: no retry.
      const transient = error.code === Code.Unavailable || error.code === Code.DeadlineExceeded || (error.code === Code.Canceled && policy.signal?.aborted !== true);
      if (transient) {
        if (last) return { kind: "retry_later", why: "unavailable" };
        await retry(backoffMs * 2 ** (attempt - 1) * (1 + Math.random() / 2));
        continue;
      }

      // A blank or too long message is the user's to fix; the message names the field first.
      if (error.code === Code.InvalidArgument && error.rawMessage.startsWith("text:")) {
        return { kind: "ask_to_rephrase", problem: error.rawMessage };
      }
      throw error;
    }
    return act(frontdesk, result);
  }
}

/** TurnRequest's fields, as StreamTurnRequest.turn takes them. */
interface TurnFields {
  threadId: string;
  userId: string;
  text: string;
  requestId: string;
  locale: string;
}

/** One StreamTurn: progress messages, then exactly one result (the last message). */
async function runTurn(frontdesk: FrontdeskClients, turn: TurnFields, policy: RetryPolicy): Promise<TurnResult> {
  const stream = frontdesk.agent.streamTurn({ turn }, { timeoutMs: policy.timeoutMs ?? 35_000, ...(policy.signal ? { signal: policy.signal } : {}) });
  for await (const { event } of stream) {
    if (event.case === "progress") policy.onProgress?.(event.value.node);
    if (event.case === "result") return event.value;
  }
  throw new ConnectError("StreamTurn ended without a result", Code.Internal);
}

async function act(frontdesk: FrontdeskClients, result: TurnResult): Promise<BackendAction> {
  const outcome = result.outcome;
  switch (outcome.case) {
    case "answer":
      // Grounded answers cite chunks; greetings and out-of-scope replies cite none.
      return { kind: "show_answer", text: outcome.value.text, citations: await resolveCitations(frontdesk, outcome.value.citations) };
    case "clarify":
      return { kind: "show_buttons", question: outcome.value.question, options: outcome.value.options.map((o) => ({ label: o.label, title: o.title })) };
    case "escalate":
      return transfer(outcome.value, false);
    default:
      throw new ConnectError("TurnResult without an outcome", Code.Internal);
  }
}

function transfer(escalate: Escalate, repeated: boolean): BackendAction {
  // For the agent console as JSON: toJson(HandoffContextSchema, handoff) from @bufbuild/protobuf.
  return { kind: "transfer_to_human", message: escalate.message, reason: EscalationReason[escalate.reason], handoff: escalate.handoffContext, repeated };
}

/**
 * Each cited chunk's passage, through DocumentService.GetChunk, all at once. NOT_FOUND means the
 * document was deleted or replaced since the answer; UNAVAILABLE, that retrieval is down for a
 * moment. The answer stands either way: show the title without the passage.
 */
async function resolveCitations(frontdesk: FrontdeskClients, citations: readonly Citation[]): Promise<ShownCitation[]> {
  return Promise.all(
    citations.map(async (citation): Promise<ShownCitation> => {
      try {
        const { chunk } = await frontdesk.documents.getChunk({ chunkId: citation.chunkId });
        return { title: chunk?.title ?? citation.title, section: chunk?.section ?? "", text: chunk?.text ?? null };
      } catch (thrown) {
        const error = ConnectError.from(thrown);
        if (error.code === Code.NotFound || error.code === Code.Unavailable) return { title: citation.title, section: "", text: null };
        throw error;
      }
    }),
  );
}

/** Code.DeadlineExceeded → "DEADLINE_EXCEEDED". */
function codeName(code: Code): string {
  return Code[code].replace(/([a-z])([A-Z])/gu, "$1_$2").toUpperCase();
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ConnectError("gave up", Code.Canceled));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new ConnectError("gave up", Code.Canceled));
      },
      { once: true },
    );
  });
}
