import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { detectLanguage } from "../../text/language.js";
import { forgetFacts, forgetRequest } from "../memory-filter.js";
import type { AgentDeps } from "../deps.js";
import type { AgentStateUpdate, AgentStateValue } from "../state.js";

/**
 * Reads the user's long-term profile and detects the reply language from the user's text. A
 * message asking to forget something removes it from the store first, whatever the rest of the
 * turn does.
 */
export function loadMemoryNode(deps: AgentDeps) {
  return async (state: AgentStateValue, _config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = state.turn!;
    let profile = await deps.profiles.get(turn.tenantId, turn.userId);
    const forget = forgetRequest(turn.text);
    if (forget !== null) {
      const kept = forgetFacts(profile, forget);
      if (Object.keys(kept).length === 0) await deps.profiles.delete(turn.tenantId, turn.userId);
      else if (JSON.stringify(kept) !== JSON.stringify(profile)) await deps.profiles.put(turn.tenantId, turn.userId, kept);
      profile = kept;
    }
    // The detected language of this message wins. Text without letters ("2", "?") keeps the
    // caller's locale hint, else the conversation's language, else the user's preference.
    const hint = turn.locale !== "" ? turn.locale : (state.history.at(-1)?.language ?? profile.preferredLanguage);
    const { language } = detectLanguage(turn.text, hint, deps.bundle.defaultLanguage);
    return { profile, language };
  };
}
