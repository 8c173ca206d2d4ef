import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { promisify } from "node:util";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { StreamTurnResponse } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { startTcpProxy } from "../support/tcp-proxy.js";
import { ACME_KEY, answerResult, progress, sleep, startServer, untilAborted, waitFor, type Running } from "./helpers.js";

// FRONTDESK_IDLE_TIMEOUT_MS: a connection with no open call is closed after it, whatever the peer
// sends meanwhile (pings, settings); a call that is running is never cut for being quiet; a request
// that stalls half-sent is. Counted on both sides: the server's open sockets, the clients' closes.

const IDLE_MS = 400;
const turn = { threadId: "t-1", userId: "u-1", text: "hi" };

let s: Running | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

function openSockets(running: Running): Promise<number> {
  return new Promise((resolve, reject) => running.frontdesk.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
}

/** An HTTP/2 connection that completes its preface and settings, then does nothing. */
function idleSession(baseUrl: string): Promise<{ session: http2.ClientHttp2Session; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(baseUrl);
    const opened = Date.now();
    const closed = new Promise<number>((done) => session.once("close", () => done(Date.now() - opened)));
    session.on("error", () => undefined);
    session.once("connect", () => resolve({ session, closed }));
    session.once("error", reject);
  });
}

/** A TCP connection that never sends a byte (not even the HTTP/2 preface). */
function silentSocket(port: number): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.resume();
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

describe("idle connections", () => {
  test("a few hundred idle connections (HTTP/2 sessions and silent sockets) are all closed after the idle time", async () => {
    // A longer idle time here: opening 300 connections on a busy machine takes a while.
    const idleMs = 1_500;
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(idleMs) } });
    const opening = Date.now();
    const sessions = await Promise.all(Array.from({ length: 250 }, () => idleSession(s!.baseUrl)));
    const sockets = await Promise.all(Array.from({ length: 50 }, () => silentSocket(s!.port)));
    // The server accepts them at its own pace: wait until it holds all 300.
    for (let i = 0; i < 100 && (await openSockets(s)) < 300; i++) await sleep(10);
    expect(Date.now() - opening, "all 300 opened well within the idle time").toBeLessThan(idleMs / 2);
    // Still within the idle time: nothing closed yet.
    expect(await openSockets(s)).toBe(300);

    const lifetimes = await Promise.race([Promise.all(sessions.map((c) => c.closed)), sleep(idleMs + 5_000).then(() => null)]);
    expect(lifetimes, "every idle session closed within the idle time and a margin").not.toBeNull();
    for (const ms of lifetimes ?? []) expect(ms).toBeGreaterThanOrEqual(idleMs - 50);
    await Promise.all(sockets.map((c) => c.closed));
    for (let i = 0; i < 100 && (await openSockets(s)) > 0; i++) await sleep(10);
    expect(await openSockets(s)).toBe(0);
  });

  test("pings from the peer do not keep an idle connection open", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    const { session, closed } = await idleSession(s.baseUrl);
    const goaways: number[] = [];
    session.on("goaway", (code: number) => goaways.push(code));
    let acked = 0;
    const pinger = setInterval(() => {
      if (!session.destroyed && !session.closed) session.ping((err) => (err === null ? acked++ : undefined));
    }, 100);
    try {
      const lifetime = await Promise.race([closed, sleep(IDLE_MS * 4).then(() => null)]);
      expect(lifetime).not.toBeNull();
      expect(lifetime ?? 0).toBeGreaterThanOrEqual(IDLE_MS - 50);
      expect(acked).toBeGreaterThanOrEqual(2);
      // A plain GOAWAY (NO_ERROR), not the flood response.
      expect(goaways.length).toBeGreaterThan(0);
      expect(new Set(goaways)).toEqual(new Set([http2.constants.NGHTTP2_NO_ERROR]));
    } finally {
      clearInterval(pinger);
    }
  });

  test('a peer flooding pings gets GOAWAY ENHANCE_YOUR_CALM "too_many_pings" and is disconnected', async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: "60000" } });
    const { session, closed } = await idleSession(s.baseUrl);
    const goaway = new Promise<{ code: number; data: string }>((resolve) =>
      session.once("goaway", (code: number, _last: number, data?: Buffer) => resolve({ code, data: data?.toString("utf8") ?? "" })),
    );
    // One after another, each as soon as the last is answered (a client has at most 10 outstanding).
    for (let i = 0; i < 50 && !session.destroyed && !session.closed; i++) await new Promise<void>((resolve) => session.ping(() => resolve()));
    expect(await Promise.race([goaway, sleep(5_000).then(() => null)])).toEqual({ code: http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, data: "too_many_pings" });
    await closed;
  });

  test("a session that is used, then left idle, is closed the idle time after its last call ended", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    const session = http2.connect(s.baseUrl);
    session.on("error", () => undefined);
    const closed = new Promise<number>((done) => session.once("close", () => done(Date.now())));
    // Three calls spread over more than the idle time: each keeps the connection.
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = session.request({
          ":method": "POST",
          ":path": "/frontdesk.v1.AgentService/GetThread",
          "content-type": "application/json",
          "connect-protocol-version": "1",
          authorization: `Bearer ${ACME_KEY}`,
        });
        req.on("error", reject);
        req.resume();
        req.on("close", () => resolve());
        req.end('{"threadId":"t-1"}');
      });
      await sleep(IDLE_MS / 2);
    }
    const lastCallEnded = Date.now() - IDLE_MS / 2;
    expect(session.closed || session.destroyed).toBe(false);
    const at = await Promise.race([closed, sleep(IDLE_MS * 4).then(() => null)]);
    expect(at).not.toBeNull();
    expect((at ?? 0) - lastCallEnded).toBeGreaterThanOrEqual(IDLE_MS - 50);
  });
});

describe("running calls are not idle", () => {
  test("a turn that runs three times the idle time without a message is not cut", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    let cut: boolean | undefined;
    s.fake.script = async (_input, { onProgress, signal }) => {
      onProgress?.(progress(1, "triage", "started"));
      await Promise.race([sleep(IDLE_MS * 3), untilAborted(signal)]);
      cut = signal?.aborted;
      return { kind: "completed", result: answerResult };
    };
    const received: StreamTurnResponse[] = [];
    for await (const m of s.client().streamTurn({ turn })) received.push(m);
    expect(received.map((m) => m.event.case)).toEqual(["progress", "result"]);
    expect(cut).toBe(false);
  });

  test("a watch stream with nothing to say for longer than the idle time stays open", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    const controller = new AbortController();
    const events: string[] = [];
    const watching = (async () => {
      for await (const m of s!.client().watchThread({ threadId: "t-1" }, { signal: controller.signal })) events.push(m.event?.event.case ?? "");
    })().catch((e: unknown) => ConnectError.from(e));
    await waitFor(() => events.length === 1);
    await sleep(IDLE_MS * 3);
    s.fake.publish("acme", "t-1", { kind: "progress", turnId: "turn-1", progress: progress(1, "triage", "started") });
    await waitFor(() => events.length === 2);
    expect(events).toEqual(["started", "progress"]);
    controller.abort();
    expect(await watching).toMatchObject({ code: Code.Canceled });
  });
});

describe("dead peers", () => {
  test("a busy connection whose peer stops answering pings is closed, and its running call is aborted", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    s.fake.script = async (_input, { onProgress, signal }) => {
      onProgress?.(progress(1, "triage", "started"));
      return untilAborted(signal);
    };
    // A proxy between client and server that can go silent, as a peer behind a dead network does.
    const proxy = await startTcpProxy(s.port);
    try {
      const session = http2.connect(`http://127.0.0.1:${proxy.port}`);
      session.on("error", () => undefined);
      const req = session.request({
        ":method": "POST",
        ":path": "/frontdesk.v1.AgentService/StreamTurn",
        "content-type": "application/connect+json",
        "connect-protocol-version": "1",
        authorization: `Bearer ${ACME_KEY}`,
      });
      req.on("error", () => undefined);
      const firstData = new Promise<void>((resolve) => req.once("data", () => resolve()));
      const json = Buffer.from(JSON.stringify({ turn }));
      const frame = Buffer.alloc(5 + json.length);
      frame.writeUInt32BE(json.length, 1);
      json.copy(frame, 5);
      req.end(frame);
      await firstData;
      const wentSilent = Date.now();
      proxy.mode = "blackhole";
      await waitFor(() => s!.fake.calls[0]?.signal?.aborted === true, IDLE_MS * 2 + 3_000);
      // One idle time until the ping, at most another for its answer.
      expect(Date.now() - wentSilent).toBeGreaterThanOrEqual(IDLE_MS * 2 - 100);
      expect(s.frontdesk.server.listening).toBe(true);
      session.destroy();
    } finally {
      await proxy.close();
    }
  });
});

describe("slow connections", () => {
  test("a request whose body never arrives is cut after the idle time; the turn never runs", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    const session = http2.connect(s.baseUrl);
    session.on("error", () => undefined);
    const started = Date.now();
    const req = session.request({
      ":method": "POST",
      ":path": "/frontdesk.v1.AgentService/Turn",
      "content-type": "application/grpc",
      te: "trailers",
      authorization: `Bearer ${ACME_KEY}`,
    });
    req.on("error", () => undefined);
    req.write(Buffer.from([0, 0, 0, 0, 40])); // announces 40 bytes, sends none
    const ended = await Promise.race([new Promise<number>((resolve) => req.once("close", () => resolve(Date.now() - started))), sleep(IDLE_MS * 6).then(() => null)]);
    expect(ended).not.toBeNull();
    expect(ended ?? 0).toBeGreaterThanOrEqual(IDLE_MS - 50);
    // Reset with CANCEL, which gRPC clients report as CANCELLED.
    expect(req.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
    expect(s.fake.calls).toHaveLength(0);
    session.destroy();
  });
});

describe("over TLS", () => {
  let dir: string;
  let cert: string;
  let key: string;
  let ca: Buffer;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "frontdesk-idle-tls-"));
    cert = path.join(dir, "cert.pem");
    key = path.join(dir, "key.pem");
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ]);
    ca = await readFile(cert);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const closedWithin = <T>(closed: Promise<T>, ms: number) => Promise.race([closed, sleep(ms).then(() => null)]);

  test("an idle HTTP/2 session, an idle HTTP/1.1 keep-alive connection and an unfinished handshake are all closed after the idle time", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS), FRONTDESK_TLS_CERT: cert, FRONTDESK_TLS_KEY: key } });
    const origin = `https://127.0.0.1:${s.port}`;

    const h2 = http2.connect(origin, { ca });
    h2.on("error", () => undefined);
    const h2Closed = new Promise<void>((resolve) => h2.once("close", () => resolve()));

    // One Connect call over HTTP/1.1 with keep-alive, then nothing on that connection.
    const agent = new https.Agent({ keepAlive: true, ca, maxSockets: 1 });
    const h1 = await new Promise<{ closed: Promise<void> }>((resolve, reject) => {
      const req = https.request(
        `${origin}/frontdesk.v1.AgentService/GetThread`,
        { method: "POST", agent, headers: { "content-type": "application/json", "connect-protocol-version": "1", authorization: `Bearer ${ACME_KEY}` } },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ closed: new Promise<void>((done) => req.socket?.once("close", () => done())) }));
        },
      );
      req.on("error", reject);
      req.end('{"threadId":"t-1"}');
    });

    // TCP connected, TLS never started.
    const raw = net.connect(s.port, "127.0.0.1");
    raw.on("error", () => undefined);
    const rawClosed = new Promise<void>((resolve) => raw.once("close", () => resolve()));

    // Started, never finished: the ClientHello is sent, the socket then stops reading.
    const stalled = tls.connect({ host: "127.0.0.1", port: s.port, ca, servername: "localhost" });
    stalled.on("error", () => undefined);
    const stalledClosed = new Promise<void>((resolve) => stalled.once("close", () => resolve()));

    const margin = IDLE_MS + 3_000;
    expect(await closedWithin(h2Closed, margin), "HTTP/2 over TLS").not.toBeNull();
    expect(await closedWithin(h1.closed, margin), "HTTP/1.1 keep-alive").not.toBeNull();
    expect(await closedWithin(rawClosed, margin), "no handshake").not.toBeNull();
    expect(await closedWithin(stalledClosed, margin), "a handshake in progress or done, then idle").not.toBeNull();
    agent.destroy();
  });
});

describe("HTTP/1.1 on the plain-text port", () => {
  test("a keep-alive connection idle after its call, half a request line and a stalled body are closed after the idle time; a quiet running call is not", async () => {
    s = await startServer({ env: { FRONTDESK_IDLE_TIMEOUT_MS: String(IDLE_MS) } });
    const closedWithin = <T>(closed: Promise<T>, ms: number) => Promise.race([closed, sleep(ms).then(() => null)]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const h1 = await new Promise<{ closed: Promise<void> }>((resolve, reject) => {
      const req = http.request(
        `${s!.baseUrl}/frontdesk.v1.AgentService/GetThread`,
        { method: "POST", agent, headers: { "content-type": "application/json", "connect-protocol-version": "1", authorization: `Bearer ${ACME_KEY}` } },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ closed: new Promise<void>((done) => req.socket?.once("close", () => done())) }));
        },
      );
      req.on("error", reject);
      req.end('{"threadId":"t-1"}');
    });
    // A few bytes of a request line: past the HTTP/2 check, then nothing (headersTimeout).
    const partial = net.connect(s.port, "127.0.0.1");
    partial.on("error", () => undefined);
    partial.write("POST /frontdesk.v1.Agent");
    const partialClosed = new Promise<void>((resolve) => partial.once("close", () => resolve()));
    // Whole headers, a tenth of the body they announce, then nothing.
    const stalled = net.connect(s.port, "127.0.0.1");
    stalled.on("error", () => undefined);
    stalled.write(
      `POST /frontdesk.v1.AgentService/Turn HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnect-Protocol-Version: 1\r\nAuthorization: Bearer ${ACME_KEY}\r\nContent-Length: 100\r\n\r\n{"threadId"`,
    );
    const stalledClosed = new Promise<void>((resolve) => stalled.once("close", () => resolve()));

    // A Connect turn over HTTP/1.1 that runs three times the idle time is answered.
    s.fake.script = async () => {
      await sleep(IDLE_MS * 3);
      return { kind: "completed", result: answerResult };
    };
    const slow = fetch(`${s.baseUrl}/frontdesk.v1.AgentService/Turn`, {
      method: "POST",
      headers: { "content-type": "application/json", "connect-protocol-version": "1", authorization: `Bearer ${ACME_KEY}` },
      body: JSON.stringify(turn),
    });

    const margin = IDLE_MS + 3_000;
    expect(await closedWithin(h1.closed, margin), "HTTP/1.1 keep-alive").not.toBeNull();
    expect(await closedWithin(partialClosed, margin), "half a request").not.toBeNull();
    expect(await closedWithin(stalledClosed, margin), "a stalled body").not.toBeNull();
    expect((await slow).status).toBe(200);
    agent.destroy();
  });
});
