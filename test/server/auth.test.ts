import http2 from "node:http2";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AgentService } from "../../gen/frontdesk/v1/agent_service_pb.js";
import { Health, HealthCheckResponse_ServingStatus } from "../../gen/grpc/health/v1/health_pb.js";
import { createTenantResolver } from "../../src/server/auth.js";
import { ACME_KEY, GLOBEX_KEY, answerResult, startServer, type Running } from "./helpers.js";

const turn = { threadId: "t-1", userId: "u-1", text: "hi" };

function codeOf(p: Promise<unknown>): Promise<Code | null> {
  return p.then(
    () => null,
    (e: unknown) => ConnectError.from(e).code,
  );
}

/** A raw Connect JSON POST, so the test controls every header and the exact body bytes. */
function rawPost(baseUrl: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(baseUrl);
    session.on("error", reject);
    const req = session.request({ ":method": "POST", ":path": path, "content-type": "application/json", ...headers });
    let status = 0;
    let data = "";
    req.on("response", (h) => {
      status = Number(h[":status"]);
    });
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (data += chunk));
    req.on("end", () => {
      session.close();
      resolve({ status, body: data });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("resolver", () => {
  const resolver = createTenantResolver({
    apiKeys: [
      { tenantId: "acme", key: ACME_KEY },
      { tenantId: "globex", key: GLOBEX_KEY },
    ],
    defaultTenant: "default",
  });
  test.each([
    [{ authorization: `Bearer ${ACME_KEY}` }, "acme"],
    [{ authorization: `bearer ${GLOBEX_KEY}` }, "globex"],
    [{ "x-api-key": GLOBEX_KEY }, "globex"],
    [{ authorization: `Bearer ${ACME_KEY}x` }, null],
    [{ authorization: ACME_KEY }, null],
    [{ authorization: "Bearer " }, null],
    [{}, null],
    // An authorization header that fails is not rescued by x-api-key.
    [{ authorization: "Bearer nope", "x-api-key": ACME_KEY }, null],
  ])("%j → %s", (headers, tenant) => {
    expect(resolver.resolve(new Headers(headers))).toBe(tenant);
  });

  test("no keys configured: every caller is the default tenant", () => {
    const open = createTenantResolver({ apiKeys: [], defaultTenant: "solo" });
    expect(open.resolve(new Headers())).toBe("solo");
    expect(open.tenants).toEqual(["solo"]);
  });
});

describe("with API keys", () => {
  let s: Running;
  beforeAll(async () => {
    s = await startServer();
    s.fake.script = async (input) => ({ kind: "completed", result: { ...answerResult, threadId: input.threadId } });
  });
  afterAll(() => s.close());

  test("missing and wrong keys are UNAUTHENTICATED on every method, and nothing runs", async () => {
    for (const key of [null, "wrong-key-0123456789abcdef"]) {
      const client = s.client(key);
      expect(await codeOf(client.turn(turn))).toBe(Code.Unauthenticated);
      expect(await codeOf(client.getThread({ threadId: "t-1" }))).toBe(Code.Unauthenticated);
      const stream = (async () => {
        for await (const _ of client.streamTurn({ turn })) void _;
      })();
      expect(await codeOf(stream)).toBe(Code.Unauthenticated);
    }
    expect(s.fake.calls).toHaveLength(0);
    expect(s.fake.threadCalls).toHaveLength(0);
  });

  test("the right key: the fake sees that key's tenant", async () => {
    await s.client(ACME_KEY).turn(turn);
    await s.client(GLOBEX_KEY).turn(turn);
    expect(s.fake.calls.map((c) => c.input.tenantId)).toEqual(["acme", "globex"]);
  });

  test("x-api-key is accepted", async () => {
    const client = createClient(
      AgentService,
      createConnectTransport({
        baseUrl: s.baseUrl,
        httpVersion: "2",
        interceptors: [
          (next) => (req) => {
            req.header.set("x-api-key", GLOBEX_KEY);
            return next(req);
          },
        ],
      }),
    );
    await client.turn(turn);
    expect(s.fake.calls.at(-1)?.input.tenantId).toBe("globex");
  });

  test("a tenant cannot be smuggled in through headers or the body", async () => {
    const res = await rawPost(
      s.baseUrl,
      "/frontdesk.v1.AgentService/Turn",
      { authorization: `Bearer ${ACME_KEY}`, "x-tenant-id": "globex", tenant: "globex" },
      JSON.stringify({ ...turn, tenantId: "globex", tenant_id: "globex" }),
    );
    expect(res.status).toBe(200);
    expect(s.fake.calls.at(-1)?.input.tenantId).toBe("acme");
    expect(Object.keys(s.fake.calls.at(-1)?.input ?? {}).sort()).toEqual(["requestId", "tenantId", "text", "threadId", "userId"]);
  });

  test("GetThread is scoped by the caller's tenant", async () => {
    s.fake.threads.set("acme/t-9", {
      threadId: "t-9",
      status: "active",
      handoff: null,
      recentTurns: [],
      summary: "",
      turnCount: 1,
      updatedAt: null,
    });
    expect((await s.client(ACME_KEY).getThread({ threadId: "t-9" })).thread?.threadId).toBe("t-9");
    expect(await codeOf(s.client(GLOBEX_KEY).getThread({ threadId: "t-9" }))).toBe(Code.NotFound);
    expect(s.fake.threadCalls.slice(-2)).toEqual([
      { tenantId: "acme", threadId: "t-9" },
      { tenantId: "globex", threadId: "t-9" },
    ]);
  });

  test("health stays open to unauthenticated probes", async () => {
    const health = createClient(Health, s.transport(null));
    expect((await health.check({ service: "" })).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
  });
});

describe("without API keys", () => {
  let s: Running;
  beforeAll(async () => {
    s = await startServer({ env: { FRONTDESK_API_KEYS: "", FRONTDESK_DEFAULT_TENANT: "solo" } });
  });
  afterAll(() => s.close());

  test("every caller is the default tenant, whatever key it sends", async () => {
    await s.client(null).turn(turn);
    await s.client("anything-at-all-here").turn(turn);
    expect(s.fake.calls.map((c) => c.input.tenantId)).toEqual(["solo", "solo"]);
  });
});
