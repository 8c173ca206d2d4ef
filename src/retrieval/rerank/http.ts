import { DependencyError } from "../../dependency/errors.js";
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from "../../dependency/retry.js";

import type { Reranker } from "../types.js";

export type RerankProtocol = "tei" | "jina";

export interface HttpRerankerOptions {
  /** The service's base URL; requests go to `${url}/rerank` (e.g. http://tei:8080, https://api.jina.ai/v1). */
  url: string;
  /**
   * Request shape. "tei" (default): text-embeddings-inference, `{query, texts}` answered with
   * `[{index, score}]`. "jina": Jina / Cohere style, `{model, query, documents}` answered with
   * `{results: [{index, relevance_score}]}`. Either response shape is accepted whatever the protocol.
   */
  protocol?: RerankProtocol;
  /** Sent as "model" (the jina protocol; hosted services require it). */
  model?: string;
  /** Sent as `authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** One request's time limit. Default 5000 ms. */
  timeoutMs?: number;
  /** Each candidate's text (title, heading path, text) is cut to this many characters. Default 2000. */
  maxChars?: number;
  /** Default DEFAULT_RETRY_POLICY: timeouts, 429 and 5xx are retried. */
  retry?: RetryPolicy;
  onRetry?: (error: DependencyError, attempt: number) => void;
}

// The dependency named in errors and logs.
const ROLE = "reranker";

/**
 * A cross-encoder (or any model) behind a standard `/rerank` endpoint. Scores are taken as the
 * relevance probability the service returns and clamped to 0..1 (TEI is asked for sigmoid scores,
 * `raw_scores: false`). The reply-language preference of `RerankOptions` is not sent: these
 * models score relevance only.
 */
export function createHttpReranker(options: HttpRerankerOptions): Reranker {
  const endpoint = `${options.url.replace(/\/+$/u, "")}/rerank`;
  const protocol = options.protocol ?? "tei";
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxChars = options.maxChars ?? 2_000;
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey !== undefined) headers["authorization"] = `Bearer ${options.apiKey}`;

  const body = (query: string, texts: string[]): unknown => {
    switch (protocol) {
      case "tei":
        return { query, texts, truncate: true, raw_scores: false, return_text: false };
      case "jina":
        return { ...(options.model === undefined ? {} : { model: options.model }), query, documents: texts, top_n: texts.length, return_documents: false };
      default: {
        const unreachable: never = protocol;
        throw new Error(`unknown rerank protocol ${String(unreachable)}`);
      }
    }
  };

  const once = async (payload: string, count: number, signal?: AbortSignal): Promise<number[]> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(endpoint, { method: "POST", headers, body: payload, signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (timeout.aborted) throw new DependencyError("timeout", ROLE, `rerank request timed out after ${timeoutMs} ms`, { cause: error });
      throw new DependencyError("server", ROLE, `rerank request failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (!response.ok) {
      // The body may echo the request; only the status goes into the message.
      await response.body?.cancel();
      const { status } = response;
      if (status === 429) throw new DependencyError("rate_limited", ROLE, "rerank service rate limited (429)");
      if (status >= 500) throw new DependencyError("server", ROLE, `rerank service failed with ${status}`);
      throw new DependencyError("client", ROLE, `rerank service refused the request with ${status}`);
    }
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch (error) {
      throw new DependencyError("malformed_output", ROLE, "rerank service sent a body that is not JSON", { cause: error });
    }
    return scoresFrom(parsed, count);
  };

  return {
    async rerank(query, candidates, _options, signal) {
      signal?.throwIfAborted();
      if (candidates.length === 0) return [];
      // What a cross-encoder reads: the title, the heading path and the text (no slug words).
      const texts = candidates.map((chunk) =>
        [chunk.title, chunk.section, chunk.text]
          .filter((part) => part !== "")
          .join("\n")
          .slice(0, maxChars),
      );
      const payload = JSON.stringify(body(query, texts));
      return withRetry(() => once(payload, candidates.length, signal), retry, {
        ...(signal === undefined ? {} : { signal }),
        ...(options.onRetry === undefined ? {} : { onRetry: options.onRetry }),
      });
    },
  };
}

/**
 * Scores aligned with the request's texts, from either response shape: TEI's bare array of
 * `{index, score}` or Jina/Cohere's `{results: [{index, relevance_score}]}`. Every index must be
 * answered exactly once.
 */
export function scoresFrom(body: unknown, count: number): number[] {
  const items = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body["results"]) ? body["results"] : null;
  if (items === null) throw new DependencyError("malformed_output", ROLE, "rerank response is neither [{index, score}] nor {results: [...]}");
  const scores = new Array<number | undefined>(count).fill(undefined);
  for (const item of items) {
    const index = isRecord(item) ? item["index"] : undefined;
    const raw = isRecord(item) ? (item["score"] ?? item["relevance_score"]) : undefined;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count) {
      throw new DependencyError("malformed_output", ROLE, `rerank response has an index outside 0..${count - 1}`);
    }
    if (typeof raw !== "number" || !Number.isFinite(raw)) throw new DependencyError("malformed_output", ROLE, `rerank response has no numeric score for index ${index}`);
    if (scores[index] !== undefined) throw new DependencyError("malformed_output", ROLE, `rerank response scores index ${index} twice`);
    scores[index] = Math.min(1, Math.max(0, raw));
  }
  const missing = scores.indexOf(undefined);
  if (missing >= 0) throw new DependencyError("malformed_output", ROLE, `rerank response has no score for index ${missing}`);
  return scores.map((score) => score ?? 0);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
