import { chatCommand, type CommandIo } from "./chat.js";
import { configCommand } from "./config.js";
import { serveCommand, type CreateAppFn } from "./serve.js";

export const MAIN_HELP = `Usage: frontdesk <command> [options]

Commands:
  serve   run the turn service (gRPC, gRPC-Web and Connect on one port)
  chat    talk to a running server from the terminal
  ingest  add or update documents (a folder, a JSONL file, or one file)
  config  validate a config bundle: frontdesk config validate [DIR]
  eval    measure turn quality on the evaluation scenarios (in-process or against a server)
  db      migrate (or check) the PostgreSQL schema in DATABASE_URL

Run "frontdesk <command> --help" for a command's options and environment variables.
`;

function defaultIo(): CommandIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
  };
}

/**
 * The application is imported only when serving: `--help`, `chat` and a refused configuration
 * never pay for loading the agent, the models and the corpus.
 */
async function loadCreateApp(): Promise<CreateAppFn> {
  const { createApp } = await import("../app/index.js");
  return createApp;
}

/**
 * How long the process may stay once its command has returned: long enough for stdout and stderr
 * to drain. Past it, whatever still holds the event loop (a model call that never returned and
 * ignored its abort signal, a socket a library left open) does not keep the process alive.
 */
export const EXIT_LINGER_MS = 1_000;

/** Ends the process with `code` once its command is done: at once if nothing is left running, else after EXIT_LINGER_MS. */
export function endProcess(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_LINGER_MS).unref();
}

/** Runs one command and returns the process exit code (2: usage or configuration error). */
export async function main(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "serve":
        return await serveCommand(rest, io, { createApp: loadCreateApp });
      case "chat":
        return await chatCommand(rest, io);
      case "ingest": {
        // Loaded on demand, like the app for serve: other commands never pay for the retrieval stack.
        const { ingestCommand } = await import("./ingest.js");
        return await ingestCommand(rest, io);
      }
      case "config":
        return await configCommand(rest, io);
      case "eval": {
        // Loaded on demand, like the application: other commands never pay for the harness.
        const { evalCommand } = await import("./eval.js");
        return await evalCommand(rest, io);
      }
      case "db": {
        // Loaded on demand, like the application: other commands never load the database drivers.
        const { dbCommand } = await import("./db.js");
        return await dbCommand(rest, io);
      }
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(MAIN_HELP);
        return command === undefined ? 2 : 0;
      default:
        io.stderr.write(`frontdesk: unknown command "${command}"\n\n${MAIN_HELP}`);
        return 2;
    }
  } catch (err) {
    // parseArgs rejects unknown or malformed flags with a TypeError carrying a clear message.
    if (err instanceof TypeError && "code" in err && String(err.code).startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`frontdesk ${command}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
