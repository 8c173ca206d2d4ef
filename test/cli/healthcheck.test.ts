import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";
import { startServer } from "../server/helpers.js";

/** Runs bin/healthcheck.js (the container's HEALTHCHECK) with the given environment. */
async function healthcheck(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/healthcheck.js")], {
    env: { PATH: process.env["PATH"] ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, out };
}

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("bin/healthcheck.js", () => {
  test("exits 0 when the server answers /healthz (liveness), with API keys configured and none sent", async () => {
    const s = await startServer();
    try {
      const r = await healthcheck({ FRONTDESK_PORT: String(s.port), FRONTDESK_HOST: "0.0.0.0" });
      expect(r).toEqual({ code: 0, out: `healthcheck http://127.0.0.1:${s.port}: live\n` });
    } finally {
      await s.close();
    }
  }, 20_000);

  test("exits 1 when nothing answers", async () => {
    const port = await closedPort();
    const r = await healthcheck({ FRONTDESK_PORT: String(port) });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`healthcheck http://127.0.0.1:${port}: `);
    expect(r.out).toContain("ECONNREFUSED");
  }, 20_000);
});
