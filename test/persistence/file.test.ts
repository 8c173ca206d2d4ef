import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createFilePersistence } from "../../src/persistence/sqlite/index.js";
import { chunk, fakeRetriever, harness, scriptedModels, turn } from "../agent/support.js";

const deductible = chunk("motor-body-en#3", "The minimum deductible is 5,000,000 rials.", { title: "Motor Body Insurance" });
const models = () =>
  scriptedModels({
    triage: () => ({ intent: "knowledge", confidence: 0.9 }),
    contextualize: (input) => ({ query: input.text }),
    grade: () => ({ verdict: "sufficient", relevantChunkIds: ["motor-body-en#3"] }),
    generate: () => ({ claims: [{ text: "The minimum deductible is 5,000,000 rials.", chunkIds: ["motor-body-en#3"] }], answered: true, confidence: 0.9 }),
    extract_memory: () => ({ facts: { vehicle: "Peugeot 206" } }),
  });

describe("local file persistence (embedded default)", () => {
  it("keeps threads and profiles across a restart of the process", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-file-"));
    const retriever = fakeRetriever(() => [{ chunk: deductible, score: 0.9 }]);

    const first = harness({ models: models(), retriever, persistence: createFilePersistence(dir) });
    expect((await first.service.runTurn(turn("I drive a Peugeot. What is the minimum deductible?"))).kind).toBe("completed");
    expect((await first.service.runTurn(turn("And for a second claim?"))).kind).toBe("completed");
    const before = await first.service.getThread("default", "thread-1");
    await first.persistence.close();

    const second = harness({ models: models(), retriever, persistence: createFilePersistence(dir) });
    expect(await second.service.getThread("default", "thread-1")).toEqual(before);
    expect(before?.turnCount).toBe(2);
    expect(await second.persistence.profiles.get("default", "user-1")).toEqual({ vehicle: "Peugeot 206", preferredLanguage: "en" });
    expect((await second.service.runTurn(turn("What about glass?"))).kind).toBe("completed");
    expect((await second.service.getThread("default", "thread-1"))?.turnCount).toBe(3);
    await second.persistence.close();
  });

  it("writes one checkpoint per turn and keeps only the latest per thread", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-file-"));
    const h = harness({ models: models(), retriever: fakeRetriever(() => [{ chunk: deductible, score: 0.9 }]), persistence: createFilePersistence(dir) });
    for (const text of ["What is the deductible?", "Is glass covered?", "What about paint?"]) {
      expect((await h.service.runTurn(turn(text))).kind).toBe("completed");
    }
    await h.persistence.close();
    const db = new Database(path.join(dir, "frontdesk.sqlite"), { readonly: true });
    const rows = db.prepare("SELECT thread_id, COUNT(*) AS n FROM checkpoints GROUP BY thread_id").all();
    const writes = db.prepare("SELECT COUNT(*) AS n FROM writes").get() as { n: number };
    db.close();
    expect(rows).toEqual([{ thread_id: "default/thread-1", n: 1 }]);
    expect(writes.n).toBe(0);
  });
});
