import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { pino, type Logger } from "pino";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { DocumentService } from "../../gen/frontdesk/v1/document_service_pb.js";
import { createApp, type App, type AppOverrides } from "../../src/app/index.js";
import { loadConfig } from "../../src/config/config.js";
import { buildServer, type FrontdeskServer } from "../../src/server/server.js";

export const logger = pino({ level: "silent" });

export interface RealServer {
  app: App;
  frontdesk: FrontdeskServer;
  port: number;
  client: Client<typeof AgentService>;
  documents: Client<typeof DocumentService>;
  close(): Promise<void>;
}

/** The real application (offline model, bundled corpus) behind a real server on 127.0.0.1, with DocumentService. */
export async function startRealServer(
  env: Record<string, string> = {},
  overrides: AppOverrides & { logger?: Logger } = {},
  options: { logger?: Logger } = {},
): Promise<RealServer> {
  const config = loadConfig({ FRONTDESK_PORT: "0", FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent", ...env });
  const { logger: appLogger, ...appOverrides } = overrides;
  const log = options.logger ?? appLogger ?? logger;
  const app = await createApp(config, log, appOverrides);
  const frontdesk = buildServer({
    turnService: app.turnService,
    config,
    logger: log,
    documents: { index: app.documents, rules: app.documentRules },
    telemetry: app.telemetry,
  });
  const { port } = await frontdesk.listen();
  const transport = createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
  const client = createClient(AgentService, transport);
  return {
    app,
    frontdesk,
    port,
    client,
    documents: createClient(DocumentService, transport),
    async close() {
      await frontdesk.close();
      await app.close();
    },
  };
}
