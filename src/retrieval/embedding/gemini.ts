import { GoogleGenerativeAIEmbeddings, type GoogleGenerativeAIEmbeddingsParams } from "@langchain/google-genai";
import { DependencyError } from "../../dependency/errors.js";
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from "../../dependency/retry.js";
import type { Embedder } from "../types.js";
import { normalize } from "./normalize.js";

/** The task types the Gemini embedding API distinguishes; the values are the API's enum names. */
type TaskType = NonNullable<GoogleGenerativeAIEmbeddingsParams["taskType"]>;

/**
 * The enum lives in @google/generative-ai, a dependency of @langchain/google-genai rather than of
 * ours; its values are exactly these strings, so the literal is the member.
 */
function taskType(value: `${TaskType}`): TaskType {
  return value as TaskType;
}

export interface GeminiEmbedderOptions {
  apiKey: string;
  /** Default "gemini-embedding-001". */
  model?: string;
  /** Requested output dimensionality, and the length every returned vector must have. Default 768. */
  dimension?: number;
  /** Texts per batchEmbedContents request. Default 100 (the API's maximum). */
  batchSize?: number;
  /** Retries of a failed request. Default DEFAULT_RETRY_POLICY. */
  retry?: RetryPolicy;
  /** One request's time limit in milliseconds. Default 30000. */
  timeoutMs?: number;
  /** The API's base URL; tests point it at a fake server on 127.0.0.1. Default Google's. */
  baseUrl?: string;
  /** Called before each retry, for logs. */
  onRetry?: (error: DependencyError, attempt: number) => void;
}

// The dependency named in errors and logs.
const ROLE = "gemini embedding";

/**
 * Gemini embeddings through @langchain/google-genai. Passages are embedded as RETRIEVAL_DOCUMENT in
 * batches, queries as RETRIEVAL_QUERY, each request retried with the model retry policy (the
 * client's own retries are off so there is one policy). Vectors are L2-normalised: the API only
 * normalises its full-size output, and the indexes compare by dot product.
 *
 * The client library settles every batch and turns a failed one into empty vectors without its
 * HTTP status; a batch with any empty or wrongly sized vector therefore counts as a retryable
 * server failure, except a consistent wrong size, which is a configuration error.
 */
export function createGeminiEmbedder(options: GeminiEmbedderOptions): Embedder {
  const model = options.model ?? "gemini-embedding-001";
  const dimension = options.dimension ?? 768;
  const batchSize = options.batchSize ?? 100;
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100) throw new RangeError(`batchSize must be 1..100, got ${batchSize}`);
  if (!Number.isInteger(dimension) || dimension < 1) throw new RangeError(`dimension must be a positive integer, got ${dimension}`);

  const common = {
    apiKey: options.apiKey,
    model,
    outputDimensionality: dimension,
    maxRetries: 0,
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
  };
  const documents = new GoogleGenerativeAIEmbeddings({ ...common, taskType: taskType("RETRIEVAL_DOCUMENT") });
  const queries = new GoogleGenerativeAIEmbeddings({ ...common, taskType: taskType("RETRIEVAL_QUERY") });
  documents.maxBatchSize = batchSize;
  // Newlines carry a chunk's heading structure; the constructor ignores this field, so set it here.
  documents.stripNewLines = false;
  queries.stripNewLines = false;

  const checked = (values: readonly number[][], count: number): Float32Array[] => {
    if (values.length !== count) throw new DependencyError("malformed_output", ROLE, `Gemini returned ${values.length} embeddings for ${count} texts`);
    const empty = values.filter((vector) => vector.length === 0).length;
    if (empty > 0) throw new DependencyError("server", ROLE, `Gemini embedding request failed for ${empty} of ${count} texts (status not exposed by the client)`);
    const wrong = values.find((vector) => vector.length !== dimension);
    if (wrong !== undefined) {
      throw new DependencyError(
        "configuration",
        ROLE,
        `Gemini model ${model} returned ${wrong.length}-dimensional vectors, but the configured dimension is ${dimension} (FRONTDESK_EMBEDDING_DIMENSION)`,
      );
    }
    return values.map((vector) => normalize(Float32Array.from(vector)));
  };

  const call = <T>(run: () => Promise<T>, signal?: AbortSignal): Promise<T> =>
    withRetry(() => guarded(run, timeoutMs, signal), retry, { ...(signal === undefined ? {} : { signal }), ...(options.onRetry ? { onRetry: options.onRetry } : {}) });

  return {
    id: `gemini:${model}:d${dimension}`,
    dimension,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        out.push(...(await call(async () => checked(await documents.embedDocuments(batch), batch.length), signal)));
      }
      return out;
    },
    async embedQuery(query, signal) {
      signal?.throwIfAborted();
      const [vector] = await call(async () => {
        try {
          return checked([await queries.embedQuery(query)], 1);
        } catch (error) {
          throw error instanceof DependencyError ? error : classify(error);
        }
      }, signal);
      if (vector === undefined) throw new DependencyError("malformed_output", ROLE, "Gemini returned no embedding");
      return vector;
    },
  };
}

/**
 * Runs one request with a time limit and the caller's signal. The client takes neither, so the
 * request is abandoned (not cancelled) on timeout or abort; its result is ignored.
 */
function guarded<T>(run: () => Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const timer = setTimeout(() => finish(() => reject(new DependencyError("timeout", ROLE, `Gemini embedding request timed out after ${timeoutMs} ms`))), timeoutMs);
    const onAbort = () => finish(() => reject(signal?.reason));
    signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    function finish(action: () => void): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      action();
    }
    run().then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** An error from the client library, by HTTP status where it has one. */
function classify(error: unknown): DependencyError {
  const status = typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" ? error.status : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 429) return new DependencyError("rate_limited", ROLE, "Gemini embedding rate limited (429)", { cause: error });
  if (status !== undefined && status >= 500) return new DependencyError("server", ROLE, `Gemini embedding failed with ${status}`, { cause: error });
  if (status !== undefined) return new DependencyError("client", ROLE, `Gemini embedding refused with ${status}`, { cause: error });
  // No status: the request never got an answer (connection refused, reset, DNS).
  return new DependencyError("server", ROLE, `Gemini embedding request failed: ${message}`, { cause: error });
}
