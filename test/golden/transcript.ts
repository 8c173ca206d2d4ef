import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_FIXTURES, DEFAULT_SCENARIOS } from "../../src/cli/eval.js";
import { loadConfig } from "../../src/config/config.js";
import { silentLogger } from "../../src/domain/logger.js";
import { createInProcessTarget, type InProcessTarget } from "../../src/eval/in-process.js";
import { loadScenarios, type Scenario } from "../../src/eval/scenario.js";

/**
 * Golden transcripts: for a dozen representative conversations of the evaluation set, the node
 * path of every turn, the checkpointed state after it and its result, pinned to JSON files in this
 * folder. Volatile values (ids, timestamps, durations) and LangGraph's internal channels are
 * removed; retrieved chunks are kept as id, score and neighbour ids (their text is the corpus's);
 * scores are rounded to 4 decimals.
 * Regenerate on purpose with `npm run golden:update`, and review the diff like code.
 */
export const GOLDEN_DIR = path.dirname(fileURLToPath(import.meta.url));

export const GOLDEN_IDS = [
  "en-motor-tp-bodily-limit",
  "fa-motor-body-deductible",
  "fu-motor-tp-wife-then-kids-en",
  "fu-fa-health-wife-then-children",
  "amb-cost-pick-number-en",
  "loop-cost-never-converges-en",
  "handoff-mid-conversation-en",
  "restricted-fa-cancel-policy",
  "chitchat-fa-greeting-then-question",
  "unknown-pet-insurance-en",
  "frustration-repeat-en",
  "inject-doc-student-claim-en",
] as const;

const VOLATILE = new Set(["turnId", "completedAt", "durationMs", "startedAtMs", "elapsedMs"]);

/** Stable, reviewable JSON: volatile keys dropped, keys sorted, fractions rounded. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value === "number") return Number.isInteger(value) ? value : Number(value.toFixed(4));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    // LangGraph's own channels ("__pregel_tasks") are the library's bookkeeping, not our state.
    if (VOLATILE.has(key) || key.startsWith("__")) continue;
    out[key] = normalize((value as Record<string, unknown>)[key]);
  }
  return out;
}

type Hit = { chunk: { chunkId: string }; score: number; neighbors: Array<{ chunkId: string }> };

export interface Transcripts {
  record(id: (typeof GOLDEN_IDS)[number]): Promise<string>;
  close(): Promise<void>;
}

export async function openTranscripts(): Promise<Transcripts> {
  const scenarios = new Map((await loadScenarios([DEFAULT_SCENARIOS])).map((s) => [s.id, s]));
  const config = loadConfig({ FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent" });
  const plain = await createInProcessTarget({ config, logger: silentLogger });
  const fixtures = await createInProcessTarget({ config, logger: silentLogger, extraCorpusDirs: [DEFAULT_FIXTURES] });

  async function record(scenario: Scenario, target: InProcessTarget): Promise<string> {
    const threadId = `golden-${scenario.id}`;
    const turns: unknown[] = [];
    for (const turn of scenario.turns) {
      const observed = await target.runTurn({ threadId, userId: `golden-${scenario.id}`, text: turn.user });
      const state = (await target.threadState(threadId)) ?? {};
      const { result, hits, ...rest } = state as Record<string, unknown> & { result?: unknown; hits?: Hit[] };
      turns.push({
        user: turn.user,
        path: observed.nodes.map((n) => n.node),
        result: result ?? { refused: observed.detail },
        state: {
          ...rest,
          hits: (hits ?? []).map((h) => ({ chunkId: h.chunk.chunkId, score: h.score, neighbors: h.neighbors.map((n) => n.chunkId) })),
        },
      });
    }
    return `${JSON.stringify(normalize({ id: scenario.id, description: scenario.description, turns }), null, 2)}\n`;
  }

  return {
    async record(id) {
      const scenario = scenarios.get(id);
      if (scenario === undefined) throw new Error(`golden conversation ${id} is not in eval/scenarios`);
      return record(scenario, scenario.fixtures.length > 0 ? fixtures : plain);
    },
    async close() {
      await plain.close();
      await fixtures.close();
    },
  };
}

export const goldenFile = (id: string) => path.join(GOLDEN_DIR, `${id}.json`);

export async function readGolden(id: string): Promise<string | null> {
  return readFile(goldenFile(id), "utf8").catch(() => null);
}

export async function writeGolden(id: string, text: string): Promise<void> {
  await writeFile(goldenFile(id), text);
}
