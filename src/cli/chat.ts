import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Code, ConnectError } from "@connectrpc/connect";
import { createAgentClient, threadClosedHandoff } from "../client/agent-client.js";
import type { ClarifyOption } from "../domain/turn.js";
import { renderError, renderProgress, renderResult, renderThreadClosed, resolveChoice } from "./render.js";

export interface ChatOptions {
  /** Default http://127.0.0.1:8080 (FRONTDESK_URL). */
  baseUrl: string;
  /** Default a random id, printed at start so the thread can be resumed with --thread. */
  threadId: string;
  /** Default "cli-user". */
  userId: string;
  /** FRONTDESK_API_KEY; omitted when the server runs without keys. */
  apiKey?: string;
  domain?: string;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Progress redraws one line in place on a terminal; plain lines otherwise (pipes, tests). */
  tty: boolean;
  /** TLS: extra CA certificates to trust (PEM). */
  ca?: string | Buffer;
}

const CLEAR_LINE = "\r\x1b[2K";

/** Errors after which another turn cannot succeed either: stop instead of prompting again. */
const FATAL = new Set<Code>([Code.Unauthenticated, Code.PermissionDenied, Code.Unavailable, Code.Unimplemented]);

/**
 * The interactive loop: one StreamTurn per input line until EOF or /quit. Returns the exit code:
 * 0 when the conversation ended (including a handover), 1 when the server refused us for good.
 */
export async function runChat(options: ChatOptions): Promise<number> {
  const { output, tty } = options;
  const write = (text: string) => output.write(text);
  const client = createAgentClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, ca: options.ca });
  const rl = createInterface({ input: options.input, terminal: false });
  let clarifyOptions: ClarifyOption[] = [];
  const prompt = () => {
    if (tty) write("you> ");
  };

  write(`thread ${options.threadId} · user ${options.userId} · /quit to leave\n`);
  prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === "/quit") break;
      if (line === "") {
        prompt();
        continue;
      }
      const text = resolveChoice(line, clarifyOptions);
      if (text !== line) write(`→ ${text}\n`);
      let progressShown = false;
      try {
        const stream = client.streamTurn({ threadId: options.threadId, userId: options.userId, text, ...(options.domain !== undefined ? { domain: options.domain } : {}) });
        for await (const item of stream) {
          if (item.kind === "progress") {
            write(tty ? `${CLEAR_LINE}${renderProgress(item.progress)}` : `${renderProgress(item.progress)}\n`);
            progressShown = true;
          } else {
            if (tty && progressShown) write(CLEAR_LINE);
            write(`${renderResult(item.result)}\n`);
            clarifyOptions = item.result.outcome.kind === "clarify" ? item.result.outcome.options : [];
          }
        }
      } catch (err) {
        if (tty && progressShown) write(CLEAR_LINE);
        const error = ConnectError.from(err);
        if (error.code === Code.FailedPrecondition) {
          write(`${renderThreadClosed(threadClosedHandoff(error))}\n`);
          return 0;
        }
        write(`${renderError(error)}\n`);
        if (FATAL.has(error.code)) return 1;
      }
      prompt();
    }
    return 0;
  } finally {
    rl.close();
    // The HTTP/2 connection would otherwise keep the process alive until its idle timeout.
    client.close();
  }
}

export const CHAT_HELP = `Usage: frontdesk chat [options]

Talk to a running frontdesk server, one StreamTurn per line. Type a number to pick a
clarify option, /quit (or end of input) to leave. Works with piped input.

Options:
  --url URL        server address (default http://127.0.0.1:8080)
  --thread ID      thread id to use or resume (default: a new random id, printed)
  --user ID        user id (default cli-user)
  --api-key KEY    API key (prefer FRONTDESK_API_KEY: flags show up in process lists)
  --domain D       restrict retrieval to one domain (motor, health, ...)
  -h, --help       show this help

Environment:
  FRONTDESK_URL      default for --url
  FRONTDESK_API_KEY  default for --api-key
`;

export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  stdoutIsTTY: boolean;
}

export async function chatCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: "string" },
      thread: { type: "string" },
      user: { type: "string" },
      "api-key": { type: "string" },
      domain: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout.write(CHAT_HELP);
    return 0;
  }
  const apiKey = values["api-key"] ?? io.env["FRONTDESK_API_KEY"];
  const options: ChatOptions = {
    baseUrl: values.url ?? io.env["FRONTDESK_URL"] ?? "http://127.0.0.1:8080",
    threadId: values.thread ?? `cli-${randomUUID()}`,
    userId: values.user ?? "cli-user",
    input: io.stdin,
    output: io.stdout,
    tty: io.stdoutIsTTY,
  };
  if (apiKey !== undefined && apiKey !== "") options.apiKey = apiKey;
  if (values.domain !== undefined) options.domain = values.domain;
  return runChat(options);
}
