import { parseArgs } from "node:util";
import type { Logger } from "pino";
import { createLogger } from "../app/logger.js";
import type { TurnService } from "../service/types.js";
import { BundleError } from "../config/bundle.js";
import { ConfigError, ENV_VARS, loadConfig, type Config } from "../config/config.js";
import type { DocumentIndex, DocumentRules } from "../retrieval/index.js";
import { assertBindAllowed, buildServer } from "../server/server.js";
import type { CommandIo } from "./chat.js";

/** What serve needs from the application (src/app.ts's App). */
export interface ServeApp {
  turnService: TurnService;
  close(): Promise<void>;
  /** When present, DocumentService is served too. */
  documents?: DocumentIndex;
  documentRules?: DocumentRules;
}

export type CreateAppFn = (config: Config, logger: Logger) => Promise<ServeApp>;

export interface RunningServe {
  /** e.g. h2c://127.0.0.1:8080 */
  url: string;
  port: number;
  /** Graceful: the server first (running turns finish within the grace period), then the app. */
  close(): Promise<void>;
}

export interface ServeFlags {
  host?: string | undefined;
  port?: string | undefined;
  corpus?: string | undefined;
}

/** Flags override their environment variables; everything else comes from the environment. */
export function serveEnv(flags: ServeFlags, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  if (flags.host !== undefined) out["FRONTDESK_HOST"] = flags.host;
  if (flags.port !== undefined) out["FRONTDESK_PORT"] = flags.port;
  if (flags.corpus !== undefined) out["FRONTDESK_CORPUS_DIR"] = flags.corpus;
  return out;
}

function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** Starts the app and the server; the caller decides when to stop (signals, tests). */
export async function runServe(config: Config, logger: Logger, createApp: CreateAppFn): Promise<RunningServe> {
  // Refuse before loading the corpus: a misconfigured bind should fail in milliseconds.
  assertBindAllowed(config);
  const app = await createApp(config, logger);
  const frontdesk = buildServer({
    turnService: app.turnService,
    config,
    logger,
    ...(app.documents !== undefined && app.documentRules !== undefined ? { documents: { index: app.documents, rules: app.documentRules } } : {}),
  });
  let port: number;
  try {
    ({ port } = await frontdesk.listen());
  } catch (err) {
    await app.close();
    throw err;
  }
  const url = `${frontdesk.scheme}://${hostForUrl(config.server.host)}:${port}`;
  logger.info({ url, tenants: frontdesk.tenants }, `frontdesk listening on ${url} (tenants: ${frontdesk.tenants.join(", ")})`);
  return {
    url,
    port,
    async close() {
      await frontdesk.close();
      await app.close();
      logger.info("frontdesk stopped");
    },
  };
}

export const SERVE_HELP = `Usage: frontdesk serve [options]

Serve AgentService and DocumentService (gRPC, gRPC-Web and Connect on one HTTP/2 port),
grpc.health.v1 and server reflection. Stops gracefully on SIGINT/SIGTERM.

Options:
  --host H       address to bind (FRONTDESK_HOST, default 127.0.0.1)
  --port P       port, 0 for any free one (FRONTDESK_PORT, default 8080)
  --corpus DIR   corpus directory (FRONTDESK_CORPUS_DIR, default the bundled data/corpus)
  -h, --help     show this help

Flags override their environment variables. Without FRONTDESK_API_KEYS ("tenant:key,...")
every caller is the default tenant and only loopback hosts are allowed, unless
FRONTDESK_ALLOW_PUBLIC_BIND=true.

Environment:
${ENV_VARS.map((name) => `  ${name}`).join("\n")}
`;

/** One line for the terminal: loadConfig lists several problems on separate lines. */
export function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/gu, "; ").replace(/:;/gu, ":");
}

export interface ServeCommandDeps {
  createApp: () => Promise<CreateAppFn>;
  /** Resolves when the process should stop; defaults to the first SIGINT or SIGTERM. */
  waitForStop?: () => Promise<string>;
  /** Defaults to pino JSON on stdout at config.logLevel, personal data redacted (src/app/logger.ts). */
  logger?: (config: Config) => Logger;
}

function firstSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      // A second signal during the grace period means "now".
      process.once("SIGINT", () => process.exit(130));
      process.once("SIGTERM", () => process.exit(143));
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

export async function serveCommand(argv: string[], io: CommandIo, deps: ServeCommandDeps): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      corpus: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout.write(SERVE_HELP);
    return 0;
  }
  let running: RunningServe;
  let logger: Logger;
  try {
    const config = loadConfig(serveEnv(values, io.env));
    logger = deps.logger ? deps.logger(config) : createLogger(config.logLevel);
    // Fail fast before importing the application (and its corpus) for a refused bind.
    assertBindAllowed(config);
    running = await runServe(config, logger, await deps.createApp());
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`frontdesk serve: ${oneLine(err.message)}\n`);
      return 2;
    }
    if (err instanceof BundleError) {
      // One problem per line: a bundle edited by hand often has several.
      io.stderr.write(`frontdesk serve: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`frontdesk serve: failed to start: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return 1;
  }
  const signal = await (deps.waitForStop ?? firstSignal)();
  logger.info({ signal }, "shutting down");
  await running.close();
  return 0;
}
