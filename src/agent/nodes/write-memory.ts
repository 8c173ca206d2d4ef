import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { UserProfile } from "../../domain/profile.js";
import { filterSensitive, forgetRequest, mergeProfile } from "../memory-filter.js";
import { ruleWords } from "../phrases.js";
import { callModel } from "../model-call.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue } from "../state.js";

const FACT_NOUNS = "car|vehicle|wife|husband|spouse|kids|children|son|daughter|family|parents|home|house|apartment|flat|phone|laptop";
const ENGLISH_FACT = new RegExp(`\\b(i|we)('m|'re|'ve| am| are| have| own| drive| live| got)\\b|\\b(my|our) (${FACT_NOUNS})\\b`, "iu");
const PERSIAN_FACT_WORDS = new Set([
  "دارم",
  "داریم",
  "هستم",
  "هستیم",
  "ام",
  "هایم",
  "هام",
  "ماشینم",
  "خودروم",
  "همسرم",
  "شوهرم",
  "خانمم",
  "گوشیم",
  "موبایلم",
  "پدرم",
  "مادرم",
  "فرزندانم",
  "بچه‌هایم",
  "لپتاپم",
  "متاهلم",
  "مجردم",
]);

/**
 * Durable facts come only from statements about oneself ("I drive…", «ماشینم…»); without one the
 * extraction call is skipped, which keeps most turns at fewer model calls.
 */
export function mentionsPersonalFacts(text: string): boolean {
  return ENGLISH_FACT.test(text) || ruleWords(text).some((w) => PERSIAN_FACT_WORDS.has(w));
}

/** Runs after a grounded answer: keeps durable, non-sensitive facts about the user. */
export function writeMemoryNode(deps: AgentDeps) {
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = state.turn!;
    // load_memory already removed what this message asks to forget; it teaches nothing new.
    if (forgetRequest(turn.text) !== null) return { memoryWritten: false };
    let facts: UserProfile = { preferredLanguage: state.language };
    let update: AgentStateUpdate = {};
    if (mentionsPersonalFacts(turn.text)) {
      const call = await callModel(deps, state, "extract_memory", { text: turn.text, language: state.language, profile: state.profile }, config.signal);
      update = { ...call.accounting };
      // The answer is already good: a failed extraction only means nothing new is remembered.
      if (call.kind === "ok") facts = { ...call.output.facts, ...facts };
    }
    const merged = mergeProfile(state.profile, filterSensitive(facts));
    const changed = JSON.stringify(merged) !== JSON.stringify(state.profile);
    if (changed) await deps.profiles.put(turn.tenantId, turn.userId, merged);
    return { ...update, profile: merged, memoryWritten: changed };
  };
}
