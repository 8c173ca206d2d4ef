import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";

/**
 * A real `frontdesk serve` process on PostgreSQL (test/e2e/fixtures/replica.ts), as one replica
 * behind a load balancer is: the multi-process and chaos tests prove their claims across process
 * boundaries, not in one heap.
 */
export interface Replica {
  child: ChildProcess;
  port: number;
  client: Client<typeof AgentService>;
  stderr: () => string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** kill -9 and wait for the exit. */
  kill(): Promise<void>;
}

export async function spawnReplica(databaseUrl: string, name: string, env: Record<string, string> = {}): Promise<Replica> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PACKAGE_ROOT, "test/e2e/fixtures/replica.ts")], {
    cwd: PACKAGE_ROOT,
    env: {
      ...process.env,
      FRONTDESK_PORT: "0",
      FRONTDESK_CHECKPOINTER: "postgres",
      DATABASE_URL: databaseUrl,
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_SHUTDOWN_GRACE_MS: "500",
      FRONTDESK_TEST_SLOW_MS: "2500",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`replica ${name} did not start in time: ${stderr}`)), 45_000);
    child.once("exit", (code) => reject(new Error(`replica ${name} exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return {
    child,
    port,
    client: createClient(AgentService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}` })),
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
