import type { HistoryLine } from "../../../src/domain/conversation.js";
import { createOfflineModelProvider } from "../../../src/models/offline/index.js";
import { ROLE_SCHEMAS, type Role, type RoleIO } from "../../../src/models/roles.js";

export const provider = createOfflineModelProvider();

/** Invokes a role through the provider (so the schema check runs) and returns its output. */
export async function run<R extends Role>(role: R, input: RoleIO[R]["input"]): Promise<RoleIO[R]["output"]> {
  const { output } = await provider.invoke(role, input);
  // The provider validated already; parsing again proves the test sees schema-valid output.
  ROLE_SCHEMAS[role].parse(output);
  return output;
}

/** One history line of a completed knowledge turn. */
export function turn(rewrittenQuery: string, language: "fa" | "en" = "en", user = rewrittenQuery): HistoryLine {
  return { user, reply: "…", outcome: "answer", language, rewrittenQuery };
}
