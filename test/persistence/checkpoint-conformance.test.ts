import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createMemoryPersistence } from "../../src/persistence/memory.js";
import type { Persistence } from "../../src/persistence/ports.js";
import { createFilePersistence } from "../../src/persistence/sqlite/index.js";
import { conformance, OneTurnPerWrite } from "../support/checkpoint-conformance.js";
import { PRUNED_HISTORY_CASES, STOCK_SAVER_STORES_WHOLE_VALUES } from "../support/checkpoint-conformance-cases.js";

// LangGraph's conformance suite against the savers of the memory and file backends, and against
// the stock savers they wrap as controls (the Postgres ones: checkpoint-conformance.int.test.ts).
// Skipped and expected-to-fail cases, with their reasons: test/support/checkpoint-conformance-cases.ts.

conformance({
  checkpointerName: "stock MemorySaver",
  createCheckpointer: () => new MemorySaver(),
  expectedFailures: STOCK_SAVER_STORES_WHOLE_VALUES,
});

conformance({
  checkpointerName: "stock SqliteSaver",
  createCheckpointer: () => SqliteSaver.fromConnString(":memory:"),
  destroyCheckpointer: (saver) => {
    saver.db.close();
  },
  expectedFailures: STOCK_SAVER_STORES_WHOLE_VALUES,
});

const opened = new WeakMap<OneTurnPerWrite, { persistence: Persistence; dir?: string }>();

// What FRONTDESK_CHECKPOINTER=memory runs: TurnScopedSaver over MemorySaver, pruning at each commit.
conformance({
  checkpointerName: "memory, one checkpoint per turn",
  createCheckpointer: () => {
    const persistence = createMemoryPersistence();
    const saver = new OneTurnPerWrite(persistence.saver, persistence.locks);
    opened.set(saver, { persistence });
    return saver;
  },
  destroyCheckpointer: async (saver) => opened.get(saver)?.persistence.close(),
  skips: PRUNED_HISTORY_CASES,
  expectedFailures: STOCK_SAVER_STORES_WHOLE_VALUES,
});

// What FRONTDESK_CHECKPOINTER=file runs: TurnScopedSaver over SqliteSaver on a fresh file, pruning at each commit.
conformance({
  checkpointerName: "file, one checkpoint per turn",
  createCheckpointer: () => {
    const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-conformance-"));
    const persistence = createFilePersistence(dir);
    const saver = new OneTurnPerWrite(persistence.saver, persistence.locks);
    opened.set(saver, { persistence, dir });
    return saver;
  },
  destroyCheckpointer: async (saver) => {
    const held = opened.get(saver);
    await held?.persistence.close();
    if (held?.dir !== undefined) rmSync(held.dir, { recursive: true, force: true });
  },
  skips: PRUNED_HISTORY_CASES,
  expectedFailures: STOCK_SAVER_STORES_WHOLE_VALUES,
});
