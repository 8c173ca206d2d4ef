import { parseArgs } from "node:util";
import type { Logger } from "pino";
import { createLogger } from "../app/logger.js";
import type { TurnService } from "../service/types.js";
import type { ReadinessProbe } from "../domain/readiness.js";
import { BundleError } from "../config/bundle.js";
import { ConfigError, ENV_VARS, loadConfig, type Config } from "../config/config.js";
import { CorpusLoadError, type DocumentIndex, type DocumentRules } from "../retrieval/index.js";
import { assertBindAllowed, buildServer } from "../server/server.js";
import { logMixin, type Telemetry } from "../telemetry/index.js";
import { startMetricsServer, type MetricsServer } from "../telemetry/metrics-server.js";
import type { CommandIo } from "./chat.js";

/** What serve needs from the application (src/app.ts's App). */
export interface ServeApp {
  turnService: TurnService;
  close(): Promise<void>;
  /** When present, DocumentService is served too. */
  documents?: DocumentIndex;
  documentRules?: DocumentRules;
  /** RPC spans and metrics; with FRONTDESK_METRICS_ADDR, its registry is served for scraping. */
  telemetry?: Telemetry;
  /** The dependencies readiness asks (grpc.health.v1, /readyz); none: ready while the process runs. */
  probes?: readonly ReadinessProbe[];
}

export type CreateAppFn = (config: Config, logger: Logger) => Promise<ServeApp>;

export interface RunningServe {
  /** e.g. h2c://127.0.0.1:8080 */
  url: string;
  port: number;
  /** The scrape URL when FRONTDESK_METRICS_ADDR is set. */
  metricsUrl: string | null;
  /**
   * Graceful, and always ends: the server first (running turns finish within the grace period,
   * then are aborted and cut off), then the metrics listener and the app, given at most APP_CLOSE_TIMEOUT_MS.
   */
  close(): Promise<void>;
}

/**
 * How long closing the application (stores, pools, indexes) may take once the server is closed.
 * It takes milliseconds; longer means something still holds a resource — a turn stuck in a call
 * that ignored its abort signal keeps its thread-lock connection, and a pool's end() waits for it
 * forever. Shutdown goes on without it: the process is about to exit.
 */
export const APP_CLOSE_TIMEOUT_MS = 5_000;

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
    ...(app.telemetry === undefined ? {} : { telemetry: app.telemetry }),
    ...(app.probes === undefined ? {} : { probes: app.probes }),
  });
  let port: number;
  let metrics: MetricsServer | null = null;
  try {
    const scrape = config.telemetry.metrics;
    if (scrape !== null && app.telemetry !== undefined) metrics = await startMetricsServer({ registry: app.telemetry.registry, ...scrape });
    ({ port } = await frontdesk.listen());
  } catch (err) {
    await metrics?.close();
    await app.close();
    throw err;
  }
  const url = `${frontdesk.scheme}://${hostForUrl(config.server.host)}:${port}`;
  logger.info({ url, tenants: frontdesk.tenants }, `frontdesk listening on ${url} (tenants: ${frontdesk.tenants.join(", ")})`);
  if (metrics !== null) logger.info({ metrics: metrics.url }, `metrics on ${metrics.url}`);
  return {
    url,
    port,
    metricsUrl: metrics?.url ?? null,
    async close() {
      await frontdesk.close();
      await metrics?.close();
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([app.close().then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), APP_CLOSE_TIMEOUT_MS)))]).finally(
        () => clearTimeout(timer),
      );
      if (!closed) logger.warn({ timeoutMs: APP_CLOSE_TIMEOUT_MS }, "the application did not close in time, stopping without it");
      logger.info("frontdesk stopped");
    },
  };
}

export const SERVE_HELP = `Usage: frontdesk serve [options]

Serve AgentService and DocumentService (gRPC, gRPC-Web and Connect on one port, over HTTP/2
and HTTP/1.1), grpc.health.v1, /healthz, /readyz and server reflection. On SIGINT/SIGTERM it
drains: readiness turns NOT_SERVING first, running turns get the grace period, then it stops.

Options:
  --host H       address to bind (FRONTDESK_HOST, default 127.0.0.1)
  --port P       port, 0 for any free one (FRONTDESK_PORT, default 8080)
  --corpus DIR   corpus directory (FRONTDESK_CORPUS_DIR, default the bundled data/corpus): .md,
                 .markdown, .txt, .html, .htm, .docx and .pdf files, with <file>.metadata.json
                 sidecars; a document that cannot be loaded stops start-up (exit status 1, every
                 one listed) unless FRONTDESK_CORPUS_SKIP_INVALID=true
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
  /** Called once the server listens (tests and embedders learn the port this way). */
  onListening?: (running: RunningServe) => void;
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
    // Personal data redacted (src/app/logger.ts); every line logged while serving a request carries
    // its request id and trace id (logMixin).
    logger = deps.logger ? deps.logger(config) : createLogger(config.logLevel, undefined, logMixin);
    // Fail fast before importing the application (and its corpus) for a refused bind.
    assertBindAllowed(config);
    running = await runServe(config, logger, await deps.createApp());
    deps.onListening?.(running);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(`frontdesk serve: ${oneLine(err.message)}\n`);
      return 2;
    }
    if (err instanceof CorpusLoadError) {
      // Every bad document on its own line: the operator fixes them all in one pass.
      io.stderr.write(`frontdesk serve: ${err.message}\n`);
      return 1;
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
