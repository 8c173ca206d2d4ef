/**
 * Node names are checkpoint data (LangGraph stores the next node by name) and appear in every
 * progress event: renaming one is a migration. test/agent/names.test.ts pins them.
 */
export const NODES = {
  loadMemory: "load_memory",
  triage: "triage",
  contextualize: "contextualize",
  retrieve: "retrieve",
  grade: "grade",
  clarify: "clarify",
  generate: "generate",
  verify: "verify",
  escalate: "escalate",
  writeMemory: "write_memory",
  recordTurn: "record_turn",
} as const;

export type NodeName = (typeof NODES)[keyof typeof NODES];
