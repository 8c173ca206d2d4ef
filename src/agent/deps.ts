import type { AgentBundle } from "./bundle.js";
import type { Config } from "../config/config.js";
import type { Logger } from "../domain/logger.js";
import type { ModelProvider } from "../models/provider.js";
import type { RetryPolicy } from "../dependency/retry.js";
import type { ProfileStore } from "../persistence/ports.js";
import type { Retriever } from "../retrieval/index.js";
import type { Telemetry } from "../telemetry/index.js";
import type { Gates } from "./gates.js";
import type { OutgoingCheck } from "./outgoing.js";
import type { Policy } from "./policy.js";
import type { ConceptLexicon } from "../text/concepts.js";

/** The limits and thresholds the graph reads, resolved once from Config. */
export interface AgentSettings {
  budgets: Config["budgets"];
  limits: Pick<Config["limits"], "historyTurns" | "summaryMaxChars" | "replayRecords">;
  retrieval: { topK: number };
  grading: {
    minConfidence: number;
    /** At or above: sufficient without asking a model. */
    sufficientScore: number;
    /** Below: insufficient without asking a model. Between the two: the model grades. */
    insufficientScore: number;
    /** Results within this score of the best count as equally good when judging ambiguity. */
    ambiguityMargin: number;
    /** A message the classifier read as out of scope is answered only by a reading this complete. */
    outOfScopeCoverage: number;
    /** At most this many options in a clarifying question. */
    maxClarifyOptions: number;
  };
  /** Phrase the clarifying question with the model (options stay fixed). Default false: copy. */
  clarifyWithModel: boolean;
  /**
   * Ask the grade role when the reader finds no answer but retrieval scored in the uncertain band.
   * Off for the offline provider, whose grade is the reader itself: the call would add nothing.
   */
  gradeWithModel: boolean;
  retry: RetryPolicy;
  /** Model calls stop this long before the turn's deadline, leaving time to hand off. */
  handoffReserveMs: number;
}

/** Everything a node needs, injected once when the graph is built. */
export interface AgentDeps {
  models: ModelProvider;
  retriever: Retriever;
  profiles: ProfileStore;
  policy: Policy;
  /** The learned intent gates (the bundle's classifier), consulted after the policy lists. */
  gates: Gates;
  bundle: AgentBundle;
  /** The outgoing-text check (with the prompts' text); absent: policy lists and internals only. */
  outgoing?: OutgoingCheck;
  settings: AgentSettings;
  /** Milliseconds since the epoch; injected so tests control time. */
  now: () => number;
  newId: () => string;
  logger: Logger;
  /** Node spans and durations, model-call retries. Default: none collected. */
  telemetry?: Telemetry;
  /** The concept lexicon retrieval matches through, for the reader (src/text/concepts.ts). Default: none. */
  lexicon?: ConceptLexicon;
}

export function settingsFromConfig(config: Config): AgentSettings {
  return {
    budgets: config.budgets,
    limits: {
      historyTurns: config.limits.historyTurns,
      summaryMaxChars: config.limits.summaryMaxChars,
      replayRecords: config.limits.replayRecords,
    },
    retrieval: { topK: config.retrieval.topK },
    grading: config.grading,
    clarifyWithModel: config.models.clarifyWithModel,
    gradeWithModel: config.models.provider !== "offline",
    retry: config.models.retry,
    handoffReserveMs: config.models.handoffReserveMs,
  };
}
