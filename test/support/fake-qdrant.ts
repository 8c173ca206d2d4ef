import { startFakeHttp, type FakeHttpServer, type FakeReply, type RecordedRequest } from "./fake-http.js";

/**
 * An in-process stand-in for the subset of Qdrant's REST API frontdesk uses, served over real
 * HTTP on 127.0.0.1 so the real @qdrant/js-client-rest talks to it. It implements the semantics
 * the adapter relies on, as Qdrant documents them:
 *
 * - collections with named dense vectors (Cosine: stored normalised) and named sparse vectors
 *   with the `idf` modifier (IDF = ln(1 + (N - n + 0.5) / (n + 0.5)) over the whole collection);
 * - filters: must / should / must_not, nested filters, `match.value`, `match.any`, `range`, `has_id`, `is_null`;
 * - the Query API: prefetches (sparse dot product, dense cosine, each filtered and limited) fused
 *   by RRF with Qdrant's 0-based positions (score 1 / (k + position)), then filter and limit;
 * - scroll ordered by point id with `next_page_offset`, count, upsert, delete by filter.
 *
 * It is not Qdrant: no HNSW approximation (exact search), ties broken by first appearance, no
 * consistency or sharding. Unknown vector names, wrong dimensions and unknown routes are 400/404.
 */

interface Point {
  id: string;
  dense: Map<string, number[]>;
  sparse: Map<string, { indices: number[]; values: number[] }>;
  payload: Record<string, unknown>;
}

interface Collection {
  vectors: Record<string, { size: number; distance: string }>;
  sparseVectors: Record<string, { modifier?: string }>;
  metadata: Record<string, unknown> | undefined;
  payloadSchema: Record<string, unknown>;
  points: Map<string, Point>;
}

type Json = Record<string, unknown>;

export interface FakeQdrant {
  url: string;
  server: FakeHttpServer;
  collections: Map<string, Collection>;
  /** Makes the next `count` requests fail with `status` (then the fake works again). */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

export async function startFakeQdrant(): Promise<FakeQdrant> {
  const collections = new Map<string, Collection>();
  let failures = { count: 0, status: 500 };
  const server = await startFakeHttp((request) => {
    if (failures.count > 0) {
      failures.count--;
      return { status: failures.status, body: { status: { error: "injected failure" } } };
    }
    return route(collections, request);
  });
  return {
    url: server.url,
    server,
    collections,
    failNext(count, status) {
      failures = { count, status };
    },
    close: () => server.close(),
  };
}

const ok = (result: unknown): FakeReply => ({ body: { result, status: "ok", time: 0.0001 } });
const error = (status: number, message: string): FakeReply => ({ status, body: { status: { error: message }, time: 0 } });

function route(collections: Map<string, Collection>, request: RecordedRequest): FakeReply {
  const url = new URL(request.url, "http://fake");
  const parts = url.pathname.split("/").filter((p) => p !== "");
  if (parts[0] !== "collections" || parts[1] === undefined) return error(404, `no route ${request.method} ${url.pathname}`);
  const name = decodeURIComponent(parts[1]);
  const rest = parts.slice(2).join("/");
  const body = (request.body ?? {}) as Json;
  const collection = collections.get(name);

  if (rest === "" && request.method === "PUT") {
    if (collection !== undefined) return error(409, `Wrong input: Collection \`${name}\` already exists!`);
    collections.set(name, {
      vectors: (body["vectors"] ?? {}) as Collection["vectors"],
      sparseVectors: (body["sparse_vectors"] ?? {}) as Collection["sparseVectors"],
      metadata: body["metadata"] as Json | undefined,
      payloadSchema: {},
      points: new Map(),
    });
    return ok(true);
  }
  if (collection === undefined) return error(404, `Not found: Collection \`${name}\` doesn't exist!`);
  if (rest === "" && request.method === "GET") {
    return ok({
      status: "green",
      optimizer_status: "ok",
      points_count: collection.points.size,
      segments_count: 1,
      config: {
        params: {
          vectors: collection.vectors,
          sparse_vectors: collection.sparseVectors,
          shard_number: 1,
          replication_factor: 1,
          write_consistency_factor: 1,
          on_disk_payload: true,
        },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
        optimizer_config: { deleted_threshold: 0.2, vacuum_min_vector_number: 1000, default_segment_number: 0, flush_interval_sec: 5 },
        ...(collection.metadata === undefined ? {} : { metadata: collection.metadata }),
      },
      payload_schema: collection.payloadSchema,
    });
  }
  if (rest === "" && request.method === "DELETE") {
    collections.delete(name);
    return ok(true);
  }
  if (rest === "index" && request.method === "PUT") {
    collection.payloadSchema[String(body["field_name"])] = { data_type: body["field_schema"], points: collection.points.size };
    return ok({ operation_id: 1, status: "completed" });
  }
  if (rest === "points" && request.method === "PUT") return upsert(collection, body);
  if (rest === "points/delete" && request.method === "POST") {
    const filter = body["filter"] as Json | undefined;
    if (filter === undefined) return error(400, "fake: delete needs a filter");
    for (const [id, point] of collection.points) if (matches(filter, point)) collection.points.delete(id);
    return ok({ operation_id: 2, status: "completed" });
  }
  if (rest === "points/count" && request.method === "POST") {
    const filter = body["filter"] as Json | undefined;
    return ok({ count: [...collection.points.values()].filter((p) => filter === undefined || matches(filter, p)).length });
  }
  if (rest === "points/scroll" && request.method === "POST") return scroll(collection, body);
  if (rest === "points/query" && request.method === "POST") return query(collection, body);
  return error(404, `no route ${request.method} ${url.pathname}`);
}

function upsert(collection: Collection, body: Json): FakeReply {
  const points = body["points"];
  if (!Array.isArray(points)) return error(400, "fake: upsert needs points");
  for (const raw of points as Json[]) {
    const id = String(raw["id"]);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u.test(id)) return error(400, `fake: point id ${id} is not a UUID`);
    const point: Point = { id, dense: new Map(), sparse: new Map(), payload: (raw["payload"] ?? {}) as Json };
    for (const [vectorName, value] of Object.entries((raw["vector"] ?? {}) as Json)) {
      if (Array.isArray(value)) {
        const config = collection.vectors[vectorName];
        if (config === undefined) return error(400, `Wrong input: Not existing vector name: ${vectorName}`);
        if (value.length !== config.size) return error(400, `Wrong input: Vector dimension error: expected dim: ${config.size}, got ${value.length}`);
        point.dense.set(vectorName, normalize(value as number[]));
      } else {
        if (collection.sparseVectors[vectorName] === undefined) return error(400, `Wrong input: Not existing vector name: ${vectorName}`);
        const sparse = value as { indices: number[]; values: number[] };
        point.sparse.set(vectorName, { indices: [...sparse.indices], values: sparse.values.map(Math.fround) });
      }
    }
    collection.points.set(id, point);
  }
  return ok({ operation_id: 3, status: "completed" });
}

function scroll(collection: Collection, body: Json): FakeReply {
  const filter = body["filter"] as Json | undefined;
  const limit = Number(body["limit"] ?? 10);
  const offset = body["offset"] === undefined || body["offset"] === null ? undefined : String(body["offset"]);
  const all = [...collection.points.values()].filter((p) => filter === undefined || matches(filter, p)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const start = offset === undefined ? 0 : all.findIndex((p) => p.id >= offset);
  const page = start < 0 ? [] : all.slice(start, start + limit);
  const next = start < 0 ? undefined : all[start + limit];
  return ok({ points: page.map((p) => withPayload(p, body["with_payload"])), next_page_offset: next === undefined ? null : next.id });
}

function query(collection: Collection, body: Json): FakeReply {
  const prefetches = (Array.isArray(body["prefetch"]) ? body["prefetch"] : body["prefetch"] === undefined ? [] : [body["prefetch"]]) as Json[];
  const lists: { point: Point; score: number }[][] = [];
  for (const prefetch of prefetches) {
    const result = search(collection, prefetch);
    if (result.kind === "error") return result.reply;
    lists.push(result.hits);
  }
  const q = body["query"] as Json | undefined;
  let k: number;
  if (q !== undefined && "rrf" in q) k = Number((q["rrf"] as Json)["k"] ?? 2);
  else if (q !== undefined && q["fusion"] === "rrf") k = 2;
  else return error(400, "fake: only RRF fusion queries are implemented");

  const fused = new Map<string, { point: Point; score: number; order: number }>();
  let order = 0;
  for (const list of lists) {
    list.forEach(({ point }, position) => {
      const entry = fused.get(point.id) ?? { point, score: 0, order: order++ };
      entry.score += 1 / (k + position);
      fused.set(point.id, entry);
    });
  }
  const filter = body["filter"] as Json | undefined;
  const limit = Number(body["limit"] ?? 10);
  const ranked = [...fused.values()]
    .filter((entry) => filter === undefined || matches(filter, entry.point))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit);
  return ok({ points: ranked.map((entry) => ({ ...withPayload(entry.point, body["with_payload"]), version: 1, score: Math.fround(entry.score) })) });
}

type SearchResult = { kind: "hits"; hits: { point: Point; score: number }[] } | { kind: "error"; reply: FakeReply };

function search(collection: Collection, prefetch: Json): SearchResult {
  const fail = (status: number, message: string): SearchResult => ({ kind: "error", reply: error(status, message) });
  const using = String(prefetch["using"] ?? "");
  const filter = prefetch["filter"] as Json | undefined;
  const limit = Number(prefetch["limit"] ?? 10);
  const candidates = [...collection.points.values()].filter((p) => filter === undefined || matches(filter, p));
  const vector = prefetch["query"];
  let hits: { point: Point; score: number }[];
  if (Array.isArray(vector)) {
    const config = collection.vectors[using];
    if (config === undefined) return fail(400, `Wrong input: Not existing vector name: ${using}`);
    if (vector.length !== config.size) return fail(400, `Wrong input: Vector dimension error: expected dim: ${config.size}, got ${vector.length}`);
    const q = normalize(vector as number[]);
    hits = candidates.flatMap((point) => {
      const stored = point.dense.get(using);
      return stored === undefined ? [] : [{ point, score: Math.fround(dot(q, stored)) }];
    });
  } else if (typeof vector === "object" && vector !== null && "indices" in vector) {
    const config = collection.sparseVectors[using];
    if (config === undefined) return fail(400, `Wrong input: Not existing vector name: ${using}`);
    const q = vector as { indices: number[]; values: number[] };
    // IDF over the whole collection, as Qdrant's modifier computes it.
    const withVector = [...collection.points.values()].filter((p) => p.sparse.has(using));
    const df = new Map<number, number>();
    for (const point of withVector) for (const index of point.sparse.get(using)?.indices ?? []) df.set(index, (df.get(index) ?? 0) + 1);
    const idf = (index: number): number => {
      if (config.modifier !== "idf") return 1;
      const n = df.get(index) ?? 0;
      return Math.log(1 + (withVector.length - n + 0.5) / (n + 0.5));
    };
    hits = candidates.flatMap((point) => {
      const stored = point.sparse.get(using);
      if (stored === undefined) return [];
      let score = 0;
      let overlap = false;
      q.indices.forEach((index, i) => {
        const at = stored.indices.indexOf(index);
        if (at < 0) return;
        overlap = true;
        score += idf(index) * (q.values[i] ?? 0) * (stored.values[at] ?? 0);
      });
      return overlap ? [{ point, score: Math.fround(score) }] : [];
    });
  } else {
    return fail(400, "fake: prefetch query must be a dense or sparse vector");
  }
  hits.sort((a, b) => b.score - a.score);
  return { kind: "hits", hits: hits.slice(0, limit) };
}

function withPayload(point: Point, selector: unknown): Json {
  if (selector === false || selector === undefined) return { id: point.id };
  if (Array.isArray(selector)) return { id: point.id, payload: Object.fromEntries(Object.entries(point.payload).filter(([key]) => selector.includes(key))) };
  return { id: point.id, payload: point.payload };
}

function matches(filter: Json, point: Point): boolean {
  const list = (value: unknown): Json[] => (value === undefined || value === null ? [] : Array.isArray(value) ? (value as Json[]) : [value as Json]);
  const must = list(filter["must"]);
  const should = list(filter["should"]);
  const mustNot = list(filter["must_not"]);
  return (
    must.every((condition) => condition_(condition, point)) &&
    (should.length === 0 || should.some((condition) => condition_(condition, point))) &&
    !mustNot.some((condition) => condition_(condition, point))
  );
}

function condition_(condition: Json, point: Point): boolean {
  if ("has_id" in condition) return Array.isArray(condition["has_id"]) && (condition["has_id"] as unknown[]).includes(point.id);
  // Qdrant's is_null: the key is present with the value null.
  if ("is_null" in condition) {
    const key = String((condition["is_null"] as Json)["key"]);
    return key in point.payload && point.payload[key] === null;
  }
  if (!("key" in condition)) return matches(condition, point);
  const value = point.payload[String(condition["key"])];
  const m = condition["match"] as Json | undefined;
  if (m !== undefined) {
    if ("value" in m) return value === m["value"];
    if ("any" in m) return Array.isArray(m["any"]) && (m["any"] as unknown[]).includes(value);
    return false;
  }
  const range = condition["range"] as Json | undefined;
  if (range !== undefined) {
    if (typeof value !== "number") return false;
    const bound = (key: string) => (typeof range[key] === "number" ? (range[key] as number) : undefined);
    const [gt, gte, lt, lte] = [bound("gt"), bound("gte"), bound("lt"), bound("lte")];
    return (gt === undefined || value > gt) && (gte === undefined || value >= gte) && (lt === undefined || value < lt) && (lte === undefined || value <= lte);
  }
  return false;
}

function normalize(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm === 0 ? vector.map(() => 0) : vector.map((value) => Math.fround(value / norm));
}

function dot(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}
