import { SpanKind } from "@opentelemetry/api";
import type { ModelBundle } from "../models/bundle.js";
import { ModelError, type ModelProvider, type Role } from "../models/index.js";
import type { Lease, Persistence, ThreadLocks, TurnEvents, TurnTransaction, Watch } from "../persistence/index.js";
import type { Retriever } from "../retrieval/index.js";
import type { TurnAttempt, TurnService } from "../service/types.js";
import { adoptRequestId, inSpan, markFailed, secondsSince, semconv, type Telemetry } from "../telemetry/index.js";

/**
 * Decorators the composition root puts around the ports, so that metrics and spans are taken at
 * the seams instead of inside every implementation. Each keeps its port's contract exactly.
 */

/** gen_ai.provider.name and gen_ai.operation.name per provider id (semantic conventions' well-known values where one exists). */
function genAiNames(providerId: string): { provider: string; operation: string } {
  return providerId === "gemini" ? { provider: "gcp.gemini", operation: "generate_content" } : { provider: `frontdesk.${providerId}`, operation: "chat" };
}

/**
 * Every model call attempt: a CLIENT span with the GenAI conventions (operation, provider,
 * requested model, token usage) and the call, duration and token metrics by role and provider.
 * The model of a role is the bundle's profile for it (Gemini); the offline provider's is "offline".
 */
export function instrumentModels(inner: ModelProvider, bundle: Pick<ModelBundle, "models">, telemetry: Telemetry): ModelProvider {
  const { metrics, tracer } = telemetry;
  const names = genAiNames(inner.id);
  const modelOf = (role: Role): string => (inner.id === "gemini" ? (bundle.models.profiles[bundle.models.roles[role]]?.model ?? "unknown") : inner.id);
  return {
    id: inner.id,
    async invoke(role, input, options) {
      const model = modelOf(role);
      const labels = { role, provider: inner.id };
      const startedMs = performance.now();
      return tracer.startActiveSpan(
        `${names.operation} ${model}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [semconv.GEN_AI_OPERATION_NAME]: names.operation,
            [semconv.GEN_AI_PROVIDER_NAME]: names.provider,
            [semconv.GEN_AI_REQUEST_MODEL]: model,
            "frontdesk.model.role": role,
          },
        },
        async (span) => {
          try {
            const response = await inner.invoke(role, input, options);
            metrics.modelCalls.inc({ ...labels, result: "ok" });
            metrics.modelTokens.inc({ ...labels, type: "input" }, response.usage.inputTokens);
            metrics.modelTokens.inc({ ...labels, type: "output" }, response.usage.outputTokens);
            span.setAttributes({ [semconv.GEN_AI_USAGE_INPUT_TOKENS]: response.usage.inputTokens, [semconv.GEN_AI_USAGE_OUTPUT_TOKENS]: response.usage.outputTokens });
            return response;
          } catch (error) {
            const result = error instanceof ModelError ? error.kind : options?.signal?.aborted === true ? "cancelled" : "error";
            metrics.modelCalls.inc({ ...labels, result });
            if (error instanceof ModelError && error.usage !== undefined) {
              metrics.modelTokens.inc({ ...labels, type: "input" }, error.usage.inputTokens);
              metrics.modelTokens.inc({ ...labels, type: "output" }, error.usage.outputTokens);
            }
            markFailed(span, error);
            if (error instanceof ModelError) span.setAttribute(semconv.ERROR_TYPE, error.kind);
            throw error;
          } finally {
            metrics.modelCallDuration.observe(labels, secondsSince(startedMs));
            span.end();
          }
        },
      );
    },
  };
}

/**
 * Retrieval: a span per call (backend, hits) and the end-to-end latency, plus the stage latencies
 * the backend reports (the embedded index times sparse, dense, fuse and rerank).
 */
export function instrumentRetriever(inner: Retriever, backend: string, telemetry: Telemetry): Retriever {
  const { metrics, tracer } = telemetry;
  return {
    taxonomy: (tenantId, signal) => inner.taxonomy(tenantId, signal),
    retrieve(request, signal) {
      const startedMs = performance.now();
      return inSpan(tracer, "retrieve", { "frontdesk.retrieval.backend": backend, "frontdesk.retrieval.top_k": request.topK }, async (span) => {
        try {
          const result = await inner.retrieve(request, signal);
          span.setAttribute("frontdesk.retrieval.hits", result.hits.length);
          for (const [stage, ms] of Object.entries(result.stageMs ?? {})) {
            metrics.retrievalStageDuration.observe({ stage, backend }, ms / 1_000);
            span.setAttribute(`frontdesk.retrieval.${stage}_ms`, Math.round(ms * 1_000) / 1_000);
          }
          return result;
        } finally {
          metrics.retrievalDuration.observe({ backend }, secondsSince(startedMs));
        }
      });
    },
  };
}

/** The checkpoint commit: latency and bytes by backend, and a span (with db.system.name for the databases). */
export function instrumentTransaction(inner: TurnTransaction, backend: Persistence["kind"], telemetry: Telemetry): TurnTransaction {
  const { metrics, tracer } = telemetry;
  const db = backend === "postgres" ? { [semconv.DB_SYSTEM_NAME]: "postgresql" } : backend === "file" ? { [semconv.DB_SYSTEM_NAME]: "sqlite" } : {};
  return {
    begin: (threadId) => inner.begin(threadId),
    discard: (threadId) => inner.discard(threadId),
    commit(threadId) {
      const startedMs = performance.now();
      return inSpan(tracer, "checkpoint commit", { ...db, "frontdesk.persistence.backend": backend }, async (span) => {
        const bytes = await inner.commit(threadId);
        metrics.checkpointCommitDuration.observe({ backend }, secondsSince(startedMs));
        metrics.checkpointCommitBytes.observe({ backend }, bytes);
        span.setAttribute("frontdesk.checkpoint.bytes", bytes);
        return bytes;
      });
    },
  };
}

/** Thread locks held by this process. */
export function instrumentLocks(inner: ThreadLocks, telemetry: Telemetry): ThreadLocks {
  const { locksHeld } = telemetry.metrics;
  return {
    close: () => inner.close(),
    async tryAcquire(threadKey) {
      const lease = await inner.tryAcquire(threadKey);
      if (lease === null) return null;
      locksHeld.inc();
      let released = false;
      const counted: Lease = {
        async release() {
          if (!released) {
            released = true;
            locksHeld.dec();
          }
          await lease.release();
        },
      };
      return counted;
    },
  };
}

/** Open watchers, and watchers dropped for falling behind. */
export function instrumentEvents(inner: TurnEvents, telemetry: Telemetry): TurnEvents {
  const { watchers, watchersDropped } = telemetry.metrics;
  return {
    publish: (event) => inner.publish(event),
    close: () => inner.close(),
    async subscribe(filter) {
      const watch = await inner.subscribe(filter);
      watchers.inc();
      let open = true;
      const closed = () => {
        if (!open) return;
        open = false;
        watchers.dec();
      };
      const counted: Watch = {
        close() {
          closed();
          watch.close();
        },
        async *[Symbol.asyncIterator]() {
          try {
            for await (const message of watch) {
              if (message.kind === "fell_behind") watchersDropped.inc({ reason: message.reason });
              yield message;
            }
          } finally {
            closed();
          }
        },
      };
      return counted;
    },
  };
}

const REFUSAL_ABORT_CAUSE = "turn_in_progress";

function assertNever(value: never): never {
  throw new Error(`unhandled attempt: ${JSON.stringify(value)}`);
}

/**
 * Turns: outcomes (and escalation reasons) of the turns that ran the graph, their duration,
 * the attempts answered without running it, ABORTED by cause. The turn's log lines and spans
 * take the TurnRequest's request_id as the request id.
 */
export function instrumentTurnService(inner: TurnService, telemetry: Telemetry): TurnService {
  const { metrics } = telemetry;
  const counted = (attempt: TurnAttempt, startedMs: number): TurnAttempt => {
    switch (attempt.kind) {
      case "completed": {
        const outcome = attempt.result.outcome;
        const reason = outcome.kind === "escalate" ? outcome.reason : "none";
        metrics.turns.inc({ outcome: outcome.kind, reason });
        metrics.turnDuration.observe({ outcome: outcome.kind }, secondsSince(startedMs));
        break;
      }
      case "busy":
        metrics.aborted.inc({ cause: REFUSAL_ABORT_CAUSE });
        metrics.turnRefusals.inc({ kind: attempt.kind });
        break;
      case "replayed":
      case "thread_closed":
      case "request_conflict":
      case "unknown_domain":
        metrics.turnRefusals.inc({ kind: attempt.kind });
        break;
      default:
        assertNever(attempt);
    }
    return attempt;
  };
  return {
    async runTurn(input, options) {
      adoptRequestId(input.requestId);
      const startedMs = performance.now();
      try {
        return counted(await inner.runTurn(input, options), startedMs);
      } catch (error) {
        const outcome = options?.signal?.aborted === true ? "cancelled" : "failed";
        metrics.turns.inc({ outcome, reason: "none" });
        metrics.turnDuration.observe({ outcome }, secondsSince(startedMs));
        throw error;
      }
    },
    async deleteThread(tenantId, threadId) {
      const attempt = await inner.deleteThread(tenantId, threadId);
      if (attempt.kind === "busy") metrics.aborted.inc({ cause: "delete_during_turn" });
      return attempt;
    },
    getThread: (tenantId, threadId) => inner.getThread(tenantId, threadId),
    deleteUserMemory: (tenantId, userId) => inner.deleteUserMemory(tenantId, userId),
    watch: (filter) => inner.watch(filter),
  };
}
