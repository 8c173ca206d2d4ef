import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { HTTP2_PREFACE } from "../../src/server/listener.js";
import { loadService, metadata, unary } from "../support/grpc-js.js";
import { ACME_KEY, answerResult, progress, startServer, type Running } from "./helpers.js";

// Browsers on the wire: @connectrpc/connect-web's transports over Node's fetch, which speaks
// HTTP/1.1 only (undici without allowH2), to the same plain-text port gRPC clients reach over
// HTTP/2 with prior knowledge. Before the listener split connections by their first bytes, every
// HTTP/1.1 request to this port failed to parse. CORS for FRONTDESK_CORS_ORIGINS only.

const ALLOWED = "https://app.example.com";
const request = { threadId: "t-1", userId: "u-1", text: "Is third-party cover mandatory?" };

let s: Running;
beforeAll(async () => {
  s = await startServer({ env: { FRONTDESK_CORS_ORIGINS: `${ALLOWED}, https://other.example.com`, FRONTDESK_CORS_MAX_AGE_S: "600" } });
  s.fake.script = async (_input, { onProgress }) => {
    onProgress?.(progress(1, "triage", "started"));
    onProgress?.(progress(2, "triage", "completed"));
    return { kind: "completed", result: answerResult };
  };
});
afterAll(async () => {
  await s.close();
});

/** The headers a browser page would send: its origin, and the API key. */
function pageHeaders(origin: string): Interceptor {
  return (next) => (req) => {
    req.header.set("origin", origin);
    req.header.set("authorization", `Bearer ${ACME_KEY}`);
    return next(req);
  };
}

const transports: [string, (origin: string) => Transport][] = [
  ["Connect", (origin) => createConnectTransport({ baseUrl: s.baseUrl, interceptors: [pageHeaders(origin)] })],
  ["gRPC-Web", (origin) => createGrpcWebTransport({ baseUrl: s.baseUrl, interceptors: [pageHeaders(origin)] })],
];

describe.each(transports)("@connectrpc/connect-web %s transport over HTTP/1.1", (name, transport) => {
  test("a unary Turn from an allowed origin: answered, with CORS headers that expose Connect's", async () => {
    let headers: Headers | undefined;
    const res = await createClient(AgentService, transport(ALLOWED)).turn(request, { onHeader: (h) => (headers = h) });
    expect(res.result?.turnId).toBe(answerResult.turnId);
    expect(s.fake.calls.at(-1)?.input.tenantId).toBe("acme");
    expect(headers?.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(headers?.get("access-control-expose-headers")).toContain("Grpc-Status");
    expect(headers?.get("vary")).toBe("Origin");
  });

  test("server-streaming StreamTurn arrives message by message", async () => {
    const cases: string[] = [];
    for await (const m of createClient(AgentService, transport(ALLOWED)).streamTurn({ turn: request })) cases.push(m.event.case ?? "");
    expect(cases).toEqual(["progress", "progress", "result"]);
  });

  test("an origin not on the list gets no CORS headers (a browser would keep the answer from the page)", async () => {
    let headers: Headers | undefined;
    await createClient(AgentService, transport("https://evil.example.net")).turn(request, { onHeader: (h) => (headers = h) });
    expect(headers?.get("access-control-allow-origin")).toBeNull();
    expect(headers?.get("access-control-expose-headers")).toBeNull();
  });

  test("errors cross as the protocol carries them", async () => {
    const noKey: Interceptor = (next) => (req) => {
      req.header.set("origin", ALLOWED);
      return next(req);
    };
    const t = name === "Connect" ? createConnectTransport({ baseUrl: s.baseUrl, interceptors: [noKey] }) : createGrpcWebTransport({ baseUrl: s.baseUrl, interceptors: [noKey] });
    const err = await createClient(AgentService, t)
      .turn(request)
      .catch((e: unknown) => ConnectError.from(e));
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unauthenticated);
  });
});

describe("CORS preflight", () => {
  const preflight = (origin: string) =>
    fetch(`${s.baseUrl}/frontdesk.v1.AgentService/Turn`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, connect-protocol-version" },
    });

  test("an allowed origin (compared case-insensitively): 204 with Connect's methods and headers, frontdesk's own, and the max age", async () => {
    const mixedCase = "https://App.Example.com";
    const res = await preflight(mixedCase);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(mixedCase);
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/u);
    expect(allowed).toEqual(expect.arrayContaining(["content-type", "connect-protocol-version", "x-grpc-web", "authorization", "x-api-key", "grpc-timeout"]));
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  test("an origin not on the list: 403 and no CORS headers; the handler never runs", async () => {
    const before = s.fake.calls.length;
    const res = await preflight("https://evil.example.net");
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(s.fake.calls.length).toBe(before);
  });

  test("without FRONTDESK_CORS_ORIGINS there are no CORS headers at all", async () => {
    const plain = await startServer();
    try {
      const res = await fetch(`${plain.baseUrl}/healthz`, { headers: { origin: ALLOWED } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("vary")).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe("the same port still speaks HTTP/2", () => {
  test("@grpc/grpc-js (prior-knowledge h2c) makes a turn", async () => {
    const client = new grpc.Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
    try {
      const res = (await unary(client, loadService().Turn, request, metadata(ACME_KEY))) as { result: { threadId: string } };
      expect(res.result.threadId).toBe("t-1");
    } finally {
      client.close();
    }
  });

  test("an HTTP/2 preface that arrives byte by byte still opens an HTTP/2 connection", async () => {
    const socket = net.connect(s.port, "127.0.0.1");
    try {
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      const reply = new Promise<Buffer>((resolve) => socket.once("data", resolve));
      for (const byte of HTTP2_PREFACE) {
        socket.write(Buffer.from([byte]));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      // An empty SETTINGS frame: length 0, type 0x4, no flags, stream 0.
      socket.write(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]));
      const frame = await reply;
      // The server's first frame is its own SETTINGS.
      expect(frame[3]).toBe(4);
    } finally {
      socket.destroy();
    }
  });

  test("bytes that are neither an HTTP/2 preface nor HTTP/1.1 get 400 from the HTTP/1.1 server", async () => {
    const socket = net.connect(s.port, "127.0.0.1");
    try {
      const reply = new Promise<string>((resolve) => {
        let text = "";
        socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
        socket.once("close", () => resolve(text));
      });
      socket.write("PRX garbage\r\n\r\n");
      expect(await reply).toMatch(/^HTTP\/1\.1 400 /u);
    } finally {
      socket.destroy();
    }
  });
});
