import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { pino } from "pino";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { createApp, type App, type AppOverrides } from "../../src/app.js";
import { loadConfig } from "../../src/config/config.js";
import { buildServer, type FrontdeskServer } from "../../src/server/server.js";

export const logger = pino({ level: "silent" });

export interface RealServer {
  app: App;
  frontdesk: FrontdeskServer;
  port: number;
  client: Client<typeof AgentService>;
  close(): Promise<void>;
}

/** The real application (offline model, bundled corpus) behind a real server on 127.0.0.1. */
export async function startRealServer(env: Record<string, string> = {}, overrides: AppOverrides = {}): Promise<RealServer> {
  const config = loadConfig({ FRONTDESK_PORT: "0", FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent", ...env });
  const app = await createApp(config, logger, overrides);
  const frontdesk = buildServer({ turnService: app.turnService, config, logger, domains: app.domains });
  const { port } = await frontdesk.listen();
  const client = createClient(AgentService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` }));
  return {
    app,
    frontdesk,
    port,
    client,
    async close() {
      await frontdesk.close();
      await app.close();
    },
  };
}
