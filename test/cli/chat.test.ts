import { spawn } from "node:child_process";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { runChat } from "../../src/cli/chat.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { ACME_KEY, answerResult, clarifyResult, escalateResult, escalation, progress, startServer, type Running } from "../server/helpers.js";

let s: Running;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());
beforeEach(() => {
  s.fake.calls.length = 0;
});

/** Runs the chat loop in-process with `lines` as piped stdin; returns the exit code and output. */
async function chat(lines: string[], options: { tty?: boolean; apiKey?: string | null; threadId?: string } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => (text += chunk));
  input.end(lines.map((l) => `${l}\n`).join(""));
  const code = await runChat({
    baseUrl: s.baseUrl,
    threadId: options.threadId ?? "t-chat",
    userId: "cli-user",
    ...(options.apiKey === null ? {} : { apiKey: options.apiKey ?? ACME_KEY }),
    input,
    output,
    tty: options.tty ?? false,
  });
  return { code, text };
}

describe("frontdesk chat over piped stdin", () => {
  test("progress as plain lines, a clarify, a numbered choice sent as its label, an answer with sources", async () => {
    s.fake.script = async (input, { onProgress }) => {
      onProgress?.(progress(1, "retrieve", "started"));
      onProgress?.(progress(2, "retrieve", "completed", "8 chunks"));
      return { kind: "completed", result: input.text === "Travel" ? answerResult : clarifyResult };
    };
    const { code, text } = await chat(["how much does it cost?", "", "2", "/quit", "never sent"]);
    expect(code).toBe(0);
    expect(s.fake.calls.map((c) => c.input.text)).toEqual(["how much does it cost?", "Travel"]);
    expect(s.fake.calls.map((c) => [c.input.threadId, c.input.userId, c.input.tenantId])).toEqual([
      ["t-chat", "cli-user", "acme"],
      ["t-chat", "cli-user", "acme"],
    ]);
    expect(text).toBe(
      [
        "thread t-chat · user cli-user · /quit to leave",
        "⋯ retrieve …",
        "✓ retrieve: 8 chunks (2 ms)",
        "Which product do you mean?",
        "  1. Motor body",
        "  2. Travel",
        "(type a number to choose)",
        "→ Travel",
        "⋯ retrieve …",
        "✓ retrieve: 8 chunks (2 ms)",
        "Third-party cover is mandatory. [1] The deductible is 10%. [2]",
        "",
        "Sources:",
        "  [1] Motor third-party (motor-tp-en#0)",
        "  [2] Motor body (motor-body-en#2)",
        "",
      ].join("\n"),
    );
  });

  test("on a terminal, progress redraws one line and is cleared before the reply", async () => {
    s.fake.script = async (_input, { onProgress }) => {
      onProgress?.(progress(1, "triage", "started"));
      return { kind: "completed", result: escalateResult };
    };
    const { text } = await chat(["I dispute this payout"], { tty: true });
    expect(text).toContain("you> \r\x1b[2K⋯ triage …\r\x1b[2KI'll connect you with a colleague.\n→ handing over to a person (reason: restricted_intent)\n");
  });

  test("a closed thread prints the handoff reason and exits 0", async () => {
    s.fake.script = async () => ({ kind: "thread_closed", handoff: escalation });
    const { code, text } = await chat(["hello again", "and again"]);
    expect(code).toBe(0);
    expect(s.fake.calls).toHaveLength(1);
    expect(text).toContain("This conversation was handed over to a person (reason: restricted_intent).");
  });

  test("recoverable errors are shown and the loop goes on; a bad key ends it with 1", async () => {
    let n = 0;
    s.fake.script = async () => (n++ === 0 ? { kind: "busy" } : { kind: "completed", result: answerResult });
    const first = await chat(["one", "two"]);
    expect(first.code).toBe(0);
    expect(first.text).toContain("error (aborted): turn in progress\n");
    expect(first.text).toContain("Sources:");

    const refused = await chat(["hello"], { apiKey: "wrong-key-0123456789abcdef" });
    expect(refused.code).toBe(1);
    expect(refused.text).toContain("error (unauthenticated): missing or invalid API key");
  });

  test("the real executable, stdin piped, key from the environment", async () => {
    s.fake.script = async () => ({ kind: "completed", result: answerResult });
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/frontdesk.js"), "chat", "--url", s.baseUrl, "--user", "u-bin"], {
      env: { ...process.env, FRONTDESK_API_KEY: ACME_KEY },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
    child.stdin.end("Is third-party cover mandatory?\n");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^thread cli-[0-9a-f-]{36} · user u-bin · \/quit to leave\n/u);
    expect(out).toContain("  [1] Motor third-party (motor-tp-en#0)");
    expect(s.fake.calls[0]?.input).toMatchObject({ userId: "u-bin", tenantId: "acme", text: "Is third-party cover mandatory?" });
  }, 20_000);
});
