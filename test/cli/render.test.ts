import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, test } from "vitest";
import { ThreadClosedSchema } from "../../gen/frontdesk/v1/thread_pb.js";
import { AnswerKind, AnswerSchema, ClarifySchema, NodeProgressSchema, Phase, TurnResultSchema, type Answer, type Clarify } from "../../gen/frontdesk/v1/turn_pb.js";
import { codeName, renderAnswer, renderClarify, renderError, renderEscalate, renderProgress, renderResult, renderThreadClosed, resolveChoice } from "../../src/cli/render.js";
import { escalationFromWire, escalationToWire, progressFromWire, turnResultFromWire, turnResultToWire } from "../../src/wire/index.js";
import { answerResult, clarifyResult, escalation } from "../server/helpers.js";

// What the server sent, decoded as the chat client decodes it.
function answerOf(value: Answer) {
  const outcome = turnResultFromWire(create(TurnResultSchema, { outcome: { case: "answer", value } })).outcome;
  if (outcome.kind !== "answer") throw new Error("not an answer");
  return outcome;
}
function clarifyOf(value: Clarify) {
  const outcome = turnResultFromWire(create(TurnResultSchema, { outcome: { case: "clarify", value } })).outcome;
  if (outcome.kind !== "clarify") throw new Error("not a clarify");
  return outcome;
}

describe("render", () => {
  test("an answer: numbered citation markers per claim and a Sources list", () => {
    const answer = create(AnswerSchema, {
      text: "ignored when claims exist",
      kind: AnswerKind.GROUNDED,
      claims: [
        { text: "Third-party cover is mandatory.", chunkIds: ["a#0"] },
        { text: "The deductible is 10%.", chunkIds: ["b#2", "a#0"] },
        { text: "Uncited sentence.", chunkIds: [] },
      ],
      citations: [
        { chunkId: "a#0", documentId: "a", title: "Motor third-party" },
        { chunkId: "b#2", documentId: "b", title: "Motor body" },
      ],
    });
    expect(renderAnswer(answerOf(answer))).toBe(
      ["Third-party cover is mandatory. [1] The deductible is 10%. [2][1] Uncited sentence.", "", "Sources:", "  [1] Motor third-party (a#0)", "  [2] Motor body (b#2)"].join("\n"),
    );
  });

  test("a chitchat answer is its text alone", () => {
    expect(renderAnswer(answerOf(create(AnswerSchema, { text: "Hello! How can I help?", kind: AnswerKind.CHITCHAT })))).toBe("Hello! How can I help?");
  });

  test("clarify options are numbered from 1", () => {
    const clarify = create(ClarifySchema, { question: "Which one?", options: [{ label: "Motor body" }, { label: "Travel" }] });
    expect(renderClarify(clarifyOf(clarify))).toBe("Which one?\n  1. Motor body\n  2. Travel\n(type a number to choose)");
  });

  test("an escalation shows the message and the reason", () => {
    expect(renderEscalate(escalationFromWire(escalationToWire(escalation)))).toBe("I'll connect you with a colleague.\n→ handing over to a person (reason: restricted_intent)");
  });

  test("renderResult dispatches on the outcome", () => {
    expect(renderResult(turnResultFromWire(turnResultToWire(clarifyResult)))).toContain("  2. Travel");
    expect(renderResult(turnResultFromWire(turnResultToWire(answerResult)))).toContain("Sources:");
  });

  test("progress: running and done", () => {
    expect(renderProgress(progressFromWire(create(NodeProgressSchema, { node: "retrieve", phase: Phase.STARTED, summary: "8 chunks" })))).toBe("⋯ retrieve: 8 chunks …");
    expect(renderProgress(progressFromWire(create(NodeProgressSchema, { node: "triage", phase: Phase.STARTED })))).toBe("⋯ triage …");
    expect(renderProgress(progressFromWire(create(NodeProgressSchema, { node: "grade", phase: Phase.COMPLETED, summary: "sufficient", durationMs: 12 })))).toBe(
      "✓ grade: sufficient (12 ms)",
    );
  });

  test("errors by code name", () => {
    expect(codeName(Code.InvalidArgument)).toBe("invalid_argument");
    expect(codeName(Code.DeadlineExceeded)).toBe("deadline_exceeded");
    expect(renderError(new ConnectError("text: required", Code.InvalidArgument))).toBe("error (invalid_argument): text: required");
  });

  test("a closed thread", () => {
    const detail = create(ThreadClosedSchema, { threadId: "t", handoff: escalationToWire(escalation) });
    expect(renderThreadClosed(escalationFromWire(detail.handoff!))).toBe(
      "This conversation was handed over to a person (reason: restricted_intent).\nI'll connect you with a colleague.",
    );
    expect(renderThreadClosed(undefined)).toBe("This conversation was handed over to a person.");
  });

  test("a typed number picks a clarify option's label; anything else is sent as typed", () => {
    const options = [{ label: "Motor body" }, { label: "Travel" }];
    expect(resolveChoice("2", options)).toBe("Travel");
    expect(resolveChoice("3", options)).toBe("3");
    expect(resolveChoice("0", options)).toBe("0");
    expect(resolveChoice("2 cars", options)).toBe("2 cars");
    expect(resolveChoice("1", [])).toBe("1");
  });
});
