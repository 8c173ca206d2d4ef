import { copyFile, mkdtemp, mkdir, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParseResult } from "../../../src/retrieval/ingest/corpus.js";
import { ingestDocuments, IngestInterruptedError, type IngestProgress } from "../../../src/retrieval/ingest/ingest.js";
import { countDocuments, readDocuments } from "../../../src/retrieval/ingest/read.js";
import { checkDocument, type DocumentRules } from "../../../src/retrieval/ingest/rules.js";
import {
  createChunker,
  createEmbeddedRetriever,
  createLocalDocumentIndex,
  createLocalEmbedder,
  createMemoryDocumentStore,
  type DocumentIndex,
  type SourceDocument,
  type UpsertOutcome,
} from "../../../src/retrieval/index.js";
import { sourceDocument } from "../helpers.js";

const DOCUMENT_FIXTURES = join(import.meta.dirname, "..", "..", "documents", "fixtures");
const rules: DocumentRules = {
  chunker: createChunker({ maxChars: 200, maxTableRows: 3 }),
  maxChunkChars: 400,
  maxDocumentChars: 5_000,
  maxFileBytes: 1024 * 1024,
  maxIdChars: 128,
};

const doc = sourceDocument;

const md = (fields: Record<string, string>, body: string): string =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\n${body}\n`;
const fields = { id: "motor-en", title: "Motor", product: "motor-tp", domain: "motor", lang: "en" };

async function collect(results: AsyncIterable<ParseResult>): Promise<ParseResult[]> {
  const out: ParseResult[] = [];
  for await (const result of results) out.push(result);
  return out;
}

async function* from(results: ParseResult[]): AsyncGenerator<ParseResult> {
  yield* results;
}

describe("checkDocument", () => {
  it("accepts a document whose chunks fit, with its chunk count", () => {
    expect(checkDocument(doc(), rules)).toEqual({ kind: "ok", chunkCount: 2, warnings: [] });
  });

  it("rejects a body over the document limit", () => {
    expect(checkDocument(doc({ body: "word ".repeat(1_001) }), rules)).toEqual({ kind: "invalid", field: "body", reason: "body of 5005 characters is over the limit of 5000" });
  });

  it("rejects an unbroken run longer than a chunk instead of cutting it mid-token", () => {
    const body = `A picture:\n\ndata:image/png;base64,${"A".repeat(300)}`;
    expect(checkDocument(doc({ body }), rules)).toEqual({
      kind: "invalid",
      field: "body",
      reason: "chunk over the size limit: an unbroken run of 322 characters cannot fit in a chunk of 200",
    });
  });

  it("rejects a chunk whose title and headings push it over the embedding limit", () => {
    // 359 characters: longer than a chunk, so every chunk's embedded text repeats it in front.
    const title = "Glass ".repeat(60).trim();
    const problem = checkDocument(doc({ title, body: "Intro.\n\n## Deductible\n\n" + "The deductible is five percent of the claim. ".repeat(4) }), rules);
    expect(problem).toMatchObject({ kind: "invalid", field: "title" });
    expect(problem.kind === "invalid" && problem.reason).toMatch(/^chunk 1 over the size limit: \d+ characters of title, headings and text \(limit 400\)$/u);
  });

  it("rejects a document with nothing to index, and reports what the chunker bounded", () => {
    expect(checkDocument(doc({ body: "## Only\n\n## Headings" }), rules)).toEqual({ kind: "invalid", field: "body", reason: "no text to index (headings only?)" });
    const table = `| Plan | Price |\n| --- | --- |\n${["A", "B", "C", "D", "E"].map((p) => `| ${p} | 1 |`).join("\n")}`;
    expect(checkDocument(doc({ body: table }), rules)).toEqual({
      kind: "ok",
      chunkCount: 3,
      warnings: [{ code: "table-truncated", message: "table 1 has 5 rows; only the first 3 are indexed (maxTableRows)" }],
    });
  });
});

describe("readDocuments", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ingest-"));
    await mkdir(join(dir, "docs", "fa"), { recursive: true });
    const docs = join(dir, "docs");
    await writeFile(join(docs, "a-good.md"), md(fields, "Third-party cover is compulsory."));
    await writeFile(join(docs, "b-no-id.md"), md({ ...fields, id: "" }, "Body."));
    await writeFile(join(docs, "c-no-title.md"), md({ ...fields, id: "c", title: "" }, "Body."));
    await writeFile(join(docs, "d-no-lang.md"), md({ ...fields, id: "d", lang: "" }, "Body."));
    await writeFile(join(docs, "e-pets.md"), md({ ...fields, id: "e", domain: "pets" }, "Body."));
    await writeFile(join(docs, "f-empty.txt"), md({ ...fields, id: "f" }, "   "));
    const header = new TextEncoder().encode(md({ ...fields, id: "g", lang: "fa" }, ""));
    await writeFile(join(docs, "fa", "g-cp1256.md"), new Uint8Array([...header, 0xc8, 0xed, 0xe3, 0xe5]));
    await writeFile(join(docs, "h-duplicate.md"), md(fields, "Another motor document."));
    await writeFile(join(docs, "README.md"), "Not a document.");
    await writeFile(join(docs, "notes.json"), "{}");
    await copyFile(join(DOCUMENT_FIXTURES, "travel-en.pdf"), join(docs, "i-travel.pdf"));
    await writeFile(join(docs, "i-travel.pdf.metadata.json"), JSON.stringify({ metadataAttributes: { id: "travel-en", title: "Travel" } }));
    await copyFile(join(DOCUMENT_FIXTURES, "images-only.docx"), join(docs, "j-images.docx"));

    const lines = [
      JSON.stringify({ id: "j1", title: "Travel", product: "travel", domain: "travel", lang: "en", body: "Lost luggage is paid." }),
      "",
      "{not json",
      JSON.stringify(["an", "array"]),
      JSON.stringify({ id: "j5", title: "T", product: "p", domain: "travel", lang: "en", body: 42 }),
      JSON.stringify({ id: "j6", title: "", product: "p", domain: "travel", lang: "en", body: "B" }),
      JSON.stringify({ id: "j7", title: "بیمه سفر", product: "travel", domain: "travel", lang: "fa", body: "چمدان گمشده جبران می‌شود." }),
    ];
    const encoded = lines.map((line) => Buffer.from(line, "utf8"));
    // Line 8 is Windows-1256 bytes inside an otherwise valid JSON line.
    encoded.push(
      Buffer.concat([Buffer.from('{"id":"j8","title":"', "utf8"), Buffer.from([0xc8, 0xed]), Buffer.from('","product":"p","domain":"travel","lang":"fa","body":"x"}', "utf8")]),
    );
    encoded.push(Buffer.from(JSON.stringify({ id: "j1", title: "Again", product: "p", domain: "travel", lang: "en", body: "Duplicate." }), "utf8"));
    await writeFile(join(dir, "docs.jsonl"), Buffer.concat(encoded.flatMap((line) => [line, Buffer.from("\n")])));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads a folder of every format in path order and reports each bad document with its path and reason", async () => {
    const docs = join(dir, "docs");
    // The flags fill what neither the file nor its sidecar says.
    const results = await collect(readDocuments(docs, { tenantId: "acme", defaults: { product: "travel", domain: "travel", lang: "en" } }));
    expect(results.map((r) => (r.kind === "ok" ? ["ok", r.document.id, r.document.source] : ["invalid", r.source, r.reason]))).toEqual([
      ["ok", "motor-en", join(docs, "a-good.md")],
      ["invalid", join(docs, "b-no-id.md"), "missing metadata field(s): id (front matter, a .metadata.json sidecar or defaults)"],
      // The document's own first heading would do for a title; this one has none.
      ["invalid", join(docs, "c-no-title.md"), "missing metadata field(s): title (front matter, a .metadata.json sidecar or defaults)"],
      // The front matter's empty lang is filled by the flag.
      ["ok", "d", join(docs, "d-no-lang.md")],
      ["ok", "e", join(docs, "e-pets.md")],
      ["invalid", join(docs, "f-empty.txt"), "no text found"],
      ["invalid", join(docs, "fa", "g-cp1256.md"), "not valid UTF-8"],
      ["invalid", join(docs, "h-duplicate.md"), `duplicate id "motor-en" (first defined in ${join(docs, "a-good.md")})`],
      ["ok", "travel-en", join(docs, "i-travel.pdf")],
      ["invalid", join(docs, "j-images.docx"), "no text found (images only? 1 image(s))"],
    ]);
    expect(await countDocuments(docs)).toBe(10);
  });

  it("reads JSONL line by line, reporting each bad line as path:line", async () => {
    const path = join(dir, "docs.jsonl");
    const results = await collect(readDocuments(path, { tenantId: "acme" }));
    expect(results.map((r) => (r.kind === "ok" ? ["ok", r.document.id, r.document.source] : ["invalid", r.source, r.reason]))).toEqual([
      ["ok", "j1", `${path}:1`],
      ["invalid", `${path}:3`, "not valid JSON"],
      ["invalid", `${path}:4`, "not a JSON object"],
      ["invalid", `${path}:5`, 'field "body" must be a string'],
      ["invalid", `${path}:6`, "missing field(s): title"],
      ["ok", "j7", `${path}:7`],
      ["invalid", `${path}:8`, "not valid UTF-8"],
      ["invalid", `${path}:9`, `duplicate id "j1" (first defined in ${path}:1)`],
    ]);
    const persian = results[5];
    expect(persian?.kind === "ok" && persian.document).toMatchObject({ lang: "fa", tenantId: "acme", body: "چمدان گمشده جبران می‌شود." });
    expect(await countDocuments(path)).toBe(8);
  });

  it("reads one file, and refuses inputs it does not understand", async () => {
    const results = await collect(readDocuments(join(dir, "docs", "a-good.md"), { tenantId: "acme" }));
    expect(results.map((r) => r.kind)).toEqual(["ok"]);
    await expect(collect(readDocuments(join(dir, "docs", "notes.json"), { tenantId: "acme" }))).rejects.toThrow(
      /expected a directory, a .jsonl file, or a .md\/.markdown\/.txt\/.html\/.htm\/.docx\/.pdf file/u,
    );
  });
});

/** A DocumentIndex that records its upsert batches and can be made to fail. */
function recordingIndex(inner: DocumentIndex) {
  const batches: string[][] = [];
  let failWith: Error | null = null;
  const index: DocumentIndex = {
    ...inner,
    async upsert(documents, signal): Promise<UpsertOutcome[]> {
      if (failWith !== null) throw failWith;
      batches.push(documents.map((d) => d.id));
      return inner.upsert(documents, signal);
    },
  };
  return { index, batches, fail: (error: Error) => (failWith = error) };
}

describe("ingestDocuments", () => {
  const ok = (document: SourceDocument): ParseResult => ({ kind: "ok", document, warnings: [] });

  it("writes valid documents in batches, skips and reports bad ones, and is a no-op the second time", async () => {
    const local = createLocalDocumentIndex({ retriever: createEmbeddedRetriever({ embedder: createLocalEmbedder({ dimension: 64 }) }), store: createMemoryDocumentStore() });
    const { index, batches } = recordingIndex(local);
    const input = (): ParseResult[] => [
      ok(doc({ id: "a" })),
      { kind: "invalid", source: "b.md", field: "lang", reason: 'unsupported lang "de" (expected fa or en)' },
      ok(doc({ id: "c" })),
      ok(doc({ id: "huge", source: "huge.md", body: "x".repeat(5_001) })),
      ok(doc({ id: "e" })),
    ];
    const problems: string[] = [];
    const progress: IngestProgress[] = [];
    const report = await ingestDocuments(from(input()), {
      index,
      rules,
      batchDocuments: 2,
      onProblem: (p) => problems.push(`${p.source}: ${p.reason}`),
      onProgress: (p) => progress.push(p),
    });
    expect(report).toEqual({
      added: 3,
      replaced: 0,
      unchanged: 0,
      chunks: 6,
      failed: [
        { source: "b.md", field: "lang", reason: 'unsupported lang "de" (expected fa or en)' },
        { source: "huge.md", field: "body", reason: "body of 5001 characters is over the limit of 5000" },
      ],
      warnings: [],
    });
    expect(problems).toEqual(['b.md: unsupported lang "de" (expected fa or en)', "huge.md: body of 5001 characters is over the limit of 5000"]);
    expect(batches).toEqual([["a", "c"], ["e"]]);
    expect(progress.at(-1)).toEqual({ read: 5, written: 3, failed: 2 });

    const again = await ingestDocuments(from([ok(doc({ id: "a" })), ok(doc({ id: "c", body: "Changed text." }))]), { index, rules, batchDocuments: 10 });
    expect([again.added, again.replaced, again.unchanged, again.chunks]).toEqual([0, 1, 1, 1]);
  });

  it("stops with what was done so far when the index fails", async () => {
    const local = createLocalDocumentIndex({ retriever: createEmbeddedRetriever({ embedder: createLocalEmbedder({ dimension: 64 }) }), store: createMemoryDocumentStore() });
    const { index, fail } = recordingIndex(local);
    const documents = [ok(doc({ id: "a" })), ok(doc({ id: "b" })), ok(doc({ id: "c" }))];
    let calls = 0;
    const error = await ingestDocuments(from(documents), {
      index,
      rules,
      batchDocuments: 1,
      onProgress: () => {
        if (++calls === 1) fail(new Error("qdrant: connection refused"));
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestInterruptedError);
    expect((error as Error).message).toBe("ingestion stopped: qdrant: connection refused");
    expect((error as IngestInterruptedError).report.added).toBe(1);
  });
});

describe("bad input, end to end (read, check, index)", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ingest-bad-"));
    const meta = (id: string) => JSON.stringify({ metadataAttributes: { id, title: id, product: "travel", domain: "travel", lang: "en" } });
    for (const name of ["ragged-table.md", "merged-cells.html", "scanned.pdf", "images-only.docx", "mixed-scan.pdf"]) {
      await copyFile(join(DOCUMENT_FIXTURES, name), join(dir, name));
      await writeFile(join(dir, `${name}.metadata.json`), meta(name.replace(/\.[a-z]+$/u, "").replace(/[^a-z0-9]+/gu, "-")));
    }
    // 50 MB of a "PDF": refused by its size, never read.
    await writeFile(join(dir, "huge.pdf"), "%PDF-1.7\n");
    await truncate(join(dir, "huge.pdf"), 50 * 1024 * 1024);
    await writeFile(join(dir, "huge.pdf.metadata.json"), meta("huge"));
    // 5,000 rows: kept up to the row limit, with a warning.
    const rows = Array.from({ length: 5_000 }, (_, i) => `| Plan ${i} | ${i} |`).join("\n");
    await writeFile(
      join(dir, "long-table.md"),
      `---\nid: long-table\ntitle: Prices\nproduct: travel\ndomain: travel\nlang: en\n---\n## Prices\n\n| Plan | Price |\n| --- | --- |\n${rows}\n`,
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("gives a clear problem per file or a bounded, working index: never a crash, never an empty document", async () => {
    const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder({ dimension: 64 }) });
    const index = createLocalDocumentIndex({ retriever, store: createMemoryDocumentStore() });
    const limits = { maxFileBytes: 20 * 1024 * 1024, maxTableRows: 1_000, maxIdChars: 128 };
    const big: DocumentRules = {
      chunker: createChunker({ maxTableRows: 1_000 }),
      maxChunkChars: 1_500,
      maxDocumentChars: 200_000,
      maxFileBytes: limits.maxFileBytes,
      maxIdChars: 128,
    };
    const report = await ingestDocuments(readDocuments(dir, { tenantId: "acme", limits }), { index, rules: big, batchDocuments: 10 });
    expect(report.failed.map((p) => [p.source.slice(dir.length + 1), p.reason])).toEqual([
      ["huge.pdf", `file too large: ${50 * 1024 * 1024} bytes (limit ${20 * 1024 * 1024} bytes)`],
      ["images-only.docx", "no text found (images only? 1 image(s))"],
      ["scanned.pdf", "no text layer (scanned PDF?)"],
    ]);
    expect(report.added).toBe(4);
    const warnings = report.warnings.map((w) => `${w.source.slice(dir.length + 1)}: ${w.code}`);
    expect(warnings).toEqual(
      expect.arrayContaining(["long-table.md: table-truncated", "merged-cells.html: merged-cells", "mixed-scan.pdf: page-without-text", "ragged-table.md: ragged-row"]),
    );
    const long = (await index.listDocuments("acme", { pageSize: 10 })).documents.find((d) => d.id === "long-table");
    expect(long?.chunkCount).toBe(1_000);
    // A row of it is retrievable alone, and brings the nearest rows of its table (40 by default).
    const { hits } = await retriever.retrieve({ query: "Plan 500", tenantId: "acme", documentIds: ["long-table"], topK: 1 });
    expect(hits[0]?.chunk.text).toBe("Prices — Plan 500 — Price: 500");
    expect(hits[0]?.neighbors).toHaveLength(40);
  });
});
