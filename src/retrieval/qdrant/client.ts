import { QdrantClient, type Schemas } from "@qdrant/js-client-rest";
import { DependencyError } from "../../dependency/errors.js";
import { withRetry, type RetryPolicy } from "../../dependency/retry.js";
import { RetrievalUnavailableError } from "../types.js";

export interface CollectionClientOptions {
  /** e.g. http://127.0.0.1:6333 */
  url: string;
  /** Sent as the `api-key` header. */
  apiKey?: string;
  collection: string;
  /** One request's time limit in milliseconds. */
  timeoutMs: number;
  /** Retries of failed requests (all requests here are idempotent). */
  retry: RetryPolicy;
}

/** The typed REST operations of @qdrant/js-client-rest. */
export type QdrantApi = ReturnType<QdrantClient["api"]>;

/** One collection's requests, each with the time limit, the caller's signal and the retry policy. */
export interface CollectionClient {
  readonly collection: string;
  readonly api: QdrantApi;
  /**
   * One request, retried on timeouts, 429 and 5xx. Failures come out as RetrievalUnavailableError
   * (CollectionMissingError for a 404); an abort stays the caller's reason.
   */
  call<T>(what: string, run: (init: RequestInit) => Promise<{ data: { result?: T | null } }>, signal?: AbortSignal): Promise<T>;
  scroll(what: string, request: Schemas["ScrollRequest"], signal?: AbortSignal): Promise<Schemas["ScrollResult"]>;
  upsert(points: Schemas["PointStruct"][], signal?: AbortSignal): Promise<Schemas["UpdateResult"]>;
  deleteWhere(filter: Schemas["Filter"], signal?: AbortSignal): Promise<Schemas["UpdateResult"]>;
}

export function createCollectionClient(options: CollectionClientOptions): CollectionClient {
  const { collection, timeoutMs, retry } = options;
  // The client's own timeout would replace the caller's signal; ours combines both (see `call`).
  const client = new QdrantClient({
    url: options.url,
    timeout: Number.POSITIVE_INFINITY,
    checkCompatibility: false,
    ...(options.apiKey === undefined ? {} : { headers: { "api-key": options.apiKey } }),
  });
  const api = client.api();

  const call = async <T>(what: string, run: (init: RequestInit) => Promise<{ data: { result?: T | null } }>, signal?: AbortSignal): Promise<T> => {
    try {
      return await withRetry(
        async () => {
          const timeout = AbortSignal.timeout(timeoutMs);
          try {
            const response = await run({ signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
            const result = response.data.result;
            if (result === undefined || result === null) throw new DependencyError("malformed_output", "qdrant", `Qdrant ${what}: response without a result`);
            return result;
          } catch (error) {
            if (signal?.aborted === true) throw signal.reason;
            throw classify(what, error, timeout.aborted);
          }
        },
        retry,
        signal === undefined ? {} : { signal },
      );
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (error instanceof DependencyError && error.kind === "client" && statusOf(error.cause) === 404) throw new CollectionMissingError(collection, { cause: error });
      throw new RetrievalUnavailableError(`Qdrant ${what} failed`, { cause: error });
    }
  };

  return {
    collection,
    api,
    call,
    scroll: (what, request, signal) => call<Schemas["ScrollResult"]>(what, (init) => api.scrollPoints({ collection_name: collection, ...request }, init), signal),
    upsert: (points, signal) => call<Schemas["UpdateResult"]>("upsert", (init) => api.upsertPoints({ collection_name: collection, wait: true, points }, init), signal),
    deleteWhere: (filter, signal) => call<Schemas["UpdateResult"]>("delete", (init) => api.deletePoints({ collection_name: collection, wait: true, filter }, init), signal),
  };
}

/** Raised by `call` for a 404 on the collection; ensureCollection turns it into "create". */
export class CollectionMissingError extends RetrievalUnavailableError {
  constructor(collection: string, options: { cause: unknown }) {
    super(`Qdrant collection ${collection} does not exist`, options);
  }
}

/** The HTTP status of a client error, when it has one. */
export function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" ? error.status : undefined;
}

/** The first HTTP status along an error's cause chain. */
export function causeChain(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (statusOf(current) !== undefined) return current;
    current = current.cause;
  }
  return current;
}

function classify(what: string, error: unknown, timedOut: boolean): DependencyError {
  if (timedOut) return new DependencyError("timeout", "qdrant", `Qdrant ${what} timed out`, { cause: error });
  if (error instanceof DependencyError) return error;
  const status = statusOf(error);
  if (status === 429) return new DependencyError("rate_limited", "qdrant", `Qdrant ${what}: 429`, { cause: error });
  if (status !== undefined && status >= 500) return new DependencyError("server", "qdrant", `Qdrant ${what}: ${status}`, { cause: error });
  if (status !== undefined) return new DependencyError("client", "qdrant", `Qdrant ${what}: ${status}`, { cause: error });
  // No status: no answer at all (connection refused or reset).
  return new DependencyError("server", "qdrant", `Qdrant ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
