import { ModelError } from "../errors.js";
import type { ModelCallOptions, ModelProvider, ModelResponse } from "../provider.js";
import { ROLE_SCHEMAS, type Role, type RoleIO } from "../roles.js";
import { clarify } from "./clarify.js";
import { contextualize } from "./contextualize.js";
import { extractMemory } from "./extract-memory.js";
import { generate } from "./generate.js";
import { grade } from "./grade.js";
import { DEFAULT_THRESHOLDS, type OfflineThresholds } from "./thresholds.js";
import { triage } from "./triage.js";
import { verify } from "./verify.js";

export { DEFAULT_THRESHOLDS, type OfflineThresholds } from "./thresholds.js";

export interface OfflineModelOptions {
  /** Overrides of the grading, answering and verification thresholds; see DEFAULT_THRESHOLDS. */
  thresholds?: Partial<OfflineThresholds>;
}

type Handlers = { [R in Role]: (input: RoleIO[R]["input"], thresholds: OfflineThresholds) => RoleIO[R]["output"] };

const HANDLERS: Handlers = {
  triage: (input) => triage(input),
  contextualize: (input) => contextualize(input),
  grade: (input, t) => grade(input, t),
  clarify: (input) => clarify(input),
  generate: (input, t) => generate(input, t),
  verify: (input, t) => verify(input, t),
  extract_memory: (input) => extractMemory(input),
};

/**
 * Usage is an estimate: about four characters of JSON per token, as no tokenizer runs here. A
 * chunk's `structure` (rows under their headers, for a model's prompt) is left out: this provider
 * reads the chunk's text, and its estimates stay what they were before evidence carried it.
 */
function estimateTokens(value: unknown): number {
  return Math.ceil((JSON.stringify(value, (key, v: unknown) => (key === "structure" ? undefined : v)) ?? "").length / 4);
}

function resolveThresholds(overrides: Partial<OfflineThresholds> | undefined): OfflineThresholds {
  const resolved: OfflineThresholds = { ...DEFAULT_THRESHOLDS };
  for (const [key, value] of Object.entries(overrides ?? {}) as Array<[keyof OfflineThresholds, number | undefined]>) {
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0 || (key !== "maxClaims" && value > 1) || (key === "maxClaims" && (!Number.isInteger(value) || value < 1))) {
      throw new ModelError("configuration", "offline", `offline threshold ${key} is out of range: ${value}`);
    }
    resolved[key] = value;
  }
  return resolved;
}

/**
 * The deterministic offline model: rule-based and lexical, one pure module per role, no network.
 * It is the embedded default and the model every test runs against. Outputs go through the same
 * role schemas as any provider's, so a bug here surfaces as ModelError("malformed_output").
 */
export function createOfflineModelProvider(options: OfflineModelOptions = {}): ModelProvider {
  const thresholds = resolveThresholds(options.thresholds);
  return {
    id: "offline",
    async invoke<R extends Role>(role: R, input: RoleIO[R]["input"], callOptions?: ModelCallOptions): Promise<ModelResponse<RoleIO[R]["output"]>> {
      const signal = callOptions?.signal;
      if (signal?.aborted === true) throw signal.reason;
      const handler = HANDLERS[role] as (input: RoleIO[R]["input"], thresholds: OfflineThresholds) => unknown;
      let raw: unknown;
      try {
        raw = handler(input, thresholds);
      } catch (error: unknown) {
        throw new ModelError("malformed_output", role, `offline ${role} failed`, { cause: error });
      }
      const parsed = ROLE_SCHEMAS[role].safeParse(raw);
      if (!parsed.success) {
        throw new ModelError("malformed_output", role, `offline ${role} produced output that fails its schema`, { cause: parsed.error });
      }
      const output = parsed.data as RoleIO[R]["output"];
      return { output, usage: { inputTokens: estimateTokens(input), outputTokens: estimateTokens(output) } };
    },
  };
}
