import { copyFile, mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createApp } from "../../src/app/index.js";
import type { CommandIo } from "../../src/cli/chat.js";
import { INGEST_HELP } from "../../src/cli/ingest.js";
import { main } from "../../src/cli/main.js";
import { loadConfig } from "../../src/config/config.js";
import { contentHash } from "../../src/documents/index.js";
import { createLocalEmbedder, createQdrantIndex } from "../../src/retrieval/index.js";
import { startRealServer } from "../e2e/support.js";
import { paragraphId } from "../retrieval/helpers.js";
import { startFakeQdrant, type FakeQdrant } from "../support/fake-qdrant.js";

function capture(tty = false): { stream: Writable & { isTTY?: boolean; columns?: number }; text: () => string } {
  let text = "";
  const stream: Writable & { isTTY?: boolean; columns?: number } = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  if (tty) {
    stream.isTTY = true;
    stream.columns = 120;
  }
  return { stream, text: () => text };
}

function io(env: Record<string, string | undefined>, options: { ttyStderr?: boolean } = {}) {
  const stdout = capture();
  const stderr = capture(options.ttyStderr === true);
  const value: CommandIo = { stdin: new PassThrough(), stdout: stdout.stream, stderr: stderr.stream, env, stdoutIsTTY: false };
  return { io: value, stdout, stderr };
}

const md = (fields: Record<string, string>, body: string): string =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\n${body}\n`;
const base = { title: "Bicycle Insurance", product: "bicycle", domain: "general", lang: "en" };

describe("frontdesk ingest", () => {
  let dir = "";
  let docs = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "frontdesk-ingest-"));
    docs = path.join(dir, "docs");
    await mkdir(docs);
    await writeFile(
      path.join(docs, "bicycle-en.md"),
      md({ id: "bicycle-en", ...base }, "Bicycle insurance covers theft of a locked bicycle.\n\n## Bicycle theft deductible\n\nThe bicycle theft deductible is 15%."),
    );
    await writeFile(
      path.join(docs, "kayak-en.md"),
      md({ id: "kayak-en", ...base, title: "Kayak Insurance", product: "kayak" }, "Kayak insurance covers a kayak stolen from a locked rack."),
    );
    await writeFile(path.join(docs, "no-lang.md"), md({ id: "no-lang", ...base, lang: "" }, "Body."));
    await writeFile(path.join(docs, "pets.md"), md({ id: "pets", ...base, domain: "Pets" }, "Body."));
    await writeFile(path.join(docs, "blob.md"), md({ id: "blob", ...base }, `An image: ${"A".repeat(900)}`));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test("stores the good documents in the data directory, reports each bad one, exits 1; a server serves them after a restart", async () => {
    const dataDir = path.join(dir, "data-1");
    const env = { FRONTDESK_DATA_DIR: dataDir };
    const run = io(env);
    expect(await main(["ingest", docs], run.io)).toBe(1);
    expect(
      run.stderr
        .text()
        .split("\n")
        .filter((line) => line !== ""),
    ).toEqual([
      `frontdesk ingest: ${path.join(docs, "blob.md")}: chunk over the size limit: an unbroken run of 900 characters cannot fit in a chunk of 700`,
      `frontdesk ingest: ${path.join(docs, "no-lang.md")}: missing metadata field(s): lang (front matter, a .metadata.json sidecar or defaults)`,
      `frontdesk ingest: ${path.join(docs, "pets.md")}: invalid domain "Pets" (lower-case letters, digits and single dashes only)`,
    ]);
    expect(run.stdout.text()).toBe(
      `ingested 2 document(s) into the document store in ${dataDir} for tenant default: 2 added, 0 replaced, 0 unchanged (3 chunks written); 3 failed\n`,
    );

    // Unchanged documents are a no-op the second time.
    const again = io(env);
    expect(await main(["ingest", path.join(docs, "bicycle-en.md")], again.io)).toBe(0);
    expect(again.stdout.text()).toContain("0 added, 0 replaced, 1 unchanged (0 chunks written); 0 failed");

    const app = await createApp(loadConfig({ ...env, FRONTDESK_LOG_LEVEL: "silent" }), pino({ level: "silent" }));
    try {
      const listed = await app.documents.listDocuments("default", { pageSize: 1000 });
      expect(listed.documents.map((d) => d.id)).toEqual(expect.arrayContaining(["bicycle-en", "kayak-en", "motor-body-en"]));
      expect(listed.documents.find((d) => d.id === "bicycle-en")?.source).toBe(path.join(docs, "bicycle-en.md"));
      const chunk = await app.documents.getChunk("default", paragraphId("bicycle-en", "The bicycle theft deductible is 15%."));
      expect(chunk).toMatchObject({ text: "The bicycle theft deductible is 15%.", chunkIndex: 1, sectionPath: ["Bicycle theft deductible"] });
    } finally {
      await app.close();
    }
  });

  test("reads JSONL, reporting bad lines as path:line", async () => {
    const file = path.join(dir, "docs.jsonl");
    await writeFile(
      file,
      [
        JSON.stringify({ id: "j1", ...base, body: "Line one document." }),
        JSON.stringify({ id: "j2", ...base, lang: "de", body: "x" }),
        "not json",
        JSON.stringify({ id: "j4", ...base, title: "بیمه دوچرخه", lang: "fa", body: "سرقت دوچرخه پوشش دارد." }),
      ].join("\n"),
    );
    const run = io({ FRONTDESK_DATA_DIR: path.join(dir, "data-2") });
    expect(await main(["ingest", file], run.io)).toBe(1);
    expect(run.stderr.text()).toBe(`frontdesk ingest: ${file}:2: unsupported lang "de" (expected fa or en)\nfrontdesk ingest: ${file}:3: not valid JSON\n`);
    expect(run.stdout.text()).toContain("2 added, 0 replaced, 0 unchanged");
  });

  test("--dry-run checks everything and writes nothing", async () => {
    const dataDir = path.join(dir, "data-3");
    const run = io({ FRONTDESK_DATA_DIR: dataDir });
    expect(await main(["ingest", "--dry-run", docs], run.io)).toBe(1);
    expect(run.stdout.text()).toBe("dry run for tenant default: 2 document(s) would be ingested; 3 failed; nothing was written\n");
    const writeRun = io({ FRONTDESK_DATA_DIR: dataDir });
    await main(["ingest", path.join(docs, "kayak-en.md")], writeRun.io);
    // The dry run had stored nothing: the kayak document is new now.
    expect(writeRun.stdout.text()).toContain("1 added");
  });

  test("draws a progress bar on a terminal", async () => {
    const run = io({ FRONTDESK_DATA_DIR: path.join(dir, "data-4") }, { ttyStderr: true });
    expect(await main(["ingest", docs], run.io)).toBe(1);
    const err = run.stderr.text();
    expect(err).toContain("5/5 documents | 2 written | 3 failed");
    expect(err).toContain(`${path.join(docs, "pets.md")}: invalid domain "Pets"`);
  });

  test("usage and configuration errors exit 2 with a reason", async () => {
    const keys = { FRONTDESK_API_KEYS: "acme:acme-key-0123456789abcdef,globex:globex-key-0123456789abcdef", FRONTDESK_DATA_DIR: path.join(dir, "data-5") };
    const cases: [string[], Record<string, string>, RegExp][] = [
      [["ingest"], {}, /expected exactly one PATH/u],
      [["ingest", docs], keys, /--tenant is required when several tenants are configured \(acme, globex\)/u],
      [["ingest", docs, "--tenant", "initech"], keys, /--tenant initech is not a configured tenant/u],
      [["ingest", path.join(dir, "missing")], {}, /ENOENT|no such file/u],
      [["ingest", docs], { FRONTDESK_DOCUMENT_STORE: "memory" }, /FRONTDESK_DOCUMENT_STORE=memory keeps nothing/u],
      [["ingest", docs], { FRONTDESK_CHUNK_CHARS: "zero" }, /FRONTDESK_CHUNK_CHARS/u],
      [["ingest", docs, "--id", "one"], {}, /--id names one document: use it with a single file, not a folder or JSONL/u],
      [["ingest", docs, "--lang", "de"], {}, /--lang de: expected fa or en/u],
      [["ingest", docs, "--domain", "Motor Cars"], {}, /--domain Motor Cars: expected a slug/u],
    ];
    for (const [argv, env, message] of cases) {
      const run = io(env);
      expect(await main(argv, run.io), argv.join(" ")).toBe(2);
      expect(run.stderr.text()).toMatch(message);
    }
    const help = io({});
    expect(await main(["ingest", "--help"], help.io)).toBe(0);
    expect(help.stdout.text()).toBe(INGEST_HELP);
    const ok = io({ ...keys });
    expect(await main(["ingest", path.join(docs, "kayak-en.md"), "--tenant", "globex"], ok.io)).toBe(0);
    expect(ok.stdout.text()).toContain("for tenant globex: 1 added");
  });

  describe("with Qdrant", () => {
    let fake: FakeQdrant;
    beforeAll(async () => {
      fake = await startFakeQdrant();
    });
    afterAll(() => fake.close());

    test("writes into the collection (created on first use), served at once", async () => {
      const env = { QDRANT_URL: fake.url, FRONTDESK_QDRANT_COLLECTION: "ingested", FRONTDESK_DATA_DIR: path.join(dir, "data-q") };
      const run = io(env);
      expect(await main(["ingest", docs], run.io)).toBe(1);
      expect(run.stdout.text()).toBe(
        `ingested 2 document(s) into Qdrant collection ingested at ${fake.url} for tenant default: 2 added, 0 replaced, 0 unchanged (3 chunks written); 3 failed\n`,
      );
      const index = createQdrantIndex({ url: fake.url, collection: "ingested", embedder: createLocalEmbedder() });
      const { hits } = await index.retrieve({ query: "bicycle theft deductible", tenantId: "default", topK: 1 });
      expect(hits[0]?.chunk.chunkId).toBe(paragraphId("bicycle-en", "The bicycle theft deductible is 15%."));

      fake.failNext(100, 503);
      const down = io({ ...env, FRONTDESK_MODEL_RETRY_ATTEMPTS: "1" });
      expect(await main(["ingest", path.join(docs, "kayak-en.md")], down.io)).toBe(1);
      expect(down.stderr.text()).toMatch(/^frontdesk ingest: Qdrant get collection failed/u);
      fake.failNext(0, 503);
    });
  });

  describe("a folder mixing markdown, HTML, DOCX and PDF (the travel fixtures, rendered from one content)", () => {
    const FIXTURES = path.join(import.meta.dirname, "..", "documents", "fixtures");
    const FORMATS = ["md", "html", "docx", "pdf"] as const;
    const ROWS = {
      en: "Premium for one adult, in thousand rials — Plan B — Up to 7 days: 35; 8 to 15 days: 49; 16 to 31 days: 70",
      fa: "حق بیمه یک بزرگسال، به هزار ریال — طرح ب — تا ۷ روز: ۳۵; ۸ تا ۱۵ روز: ۴۹; ۱۶ تا ۳۱ روز: ۷۰",
    };
    let mixed = "";
    beforeAll(async () => {
      mixed = path.join(dir, "mixed");
      await mkdir(mixed);
      for (const lang of ["en", "fa"] as const) {
        for (const format of FORMATS) {
          const target = path.join(mixed, `travel-${lang}.${format}`);
          const source = path.join(FIXTURES, `travel-${lang}.${format}`);
          // One id per file (the fixtures share theirs): a sidecar names it, the file keeps the rest.
          if (format === "md") await writeFile(target, (await readFile(source, "utf8")).replace(/^---\n[\s\S]*?\n---\n/u, ""));
          else await copyFile(source, target);
          const attributes = JSON.parse(await readFile(path.join(FIXTURES, `travel-${lang}.${format === "md" ? "html" : format}.metadata.json`), "utf8")) as {
            metadataAttributes: Record<string, unknown>;
          };
          await writeFile(`${target}.metadata.json`, JSON.stringify({ metadataAttributes: { ...attributes.metadataAttributes, id: `travel-${lang}-${format}` } }));
        }
      }
    });

    test("indexes every one (--dry-run too), and GetChunk resolves a row of each format to its verbatim row text", async () => {
      const dataDir = path.join(dir, "data-mixed");
      const env = { FRONTDESK_DATA_DIR: dataDir };
      const dry = io(env);
      expect(await main(["ingest", "--dry-run", mixed], dry.io)).toBe(0);
      expect(dry.stdout.text()).toBe("dry run for tenant default: 8 document(s) would be ingested; 0 failed; nothing was written\n");
      expect(dry.stderr.text()).toBe("");
      const run = io(env);
      expect(await main(["ingest", mixed], run.io)).toBe(0);
      expect(run.stdout.text()).toContain("ingested 8 document(s)");
      expect(run.stdout.text()).toContain("8 added, 0 replaced, 0 unchanged");

      const server = await startRealServer({ FRONTDESK_DATA_DIR: dataDir, FRONTDESK_DOCUMENT_STORE: "file" });
      try {
        for (const lang of ["en", "fa"] as const) {
          for (const format of FORMATS) {
            const documentId = `travel-${lang}-${format}`;
            const { chunk } = await server.documents.getChunk({ chunkId: `${documentId}#${contentHash("row", ROWS[lang])}` });
            expect(chunk?.text, documentId).toBe(ROWS[lang]);
            expect(chunk?.unit.case, documentId).toBe("row");
            const cells = chunk?.unit.case === "row" ? chunk.unit.value.cells.map((cell) => cell.value) : [];
            expect(cells, documentId).toEqual(lang === "en" ? ["Plan B", "35", "49", "70"] : ["طرح ب", "۳۵", "۴۹", "۷۰"]);
          }
        }
        const listed = await server.documents.listDocuments({ domain: "travel", pageSize: 100 });
        expect(listed.documents.map((d) => d.id).filter((id) => /^travel-(?:en|fa)-/u.test(id))).toHaveLength(8);
      } finally {
        await server.close();
      }
    });

    test("fills missing metadata from the flags, --id for a single file", async () => {
      const bare = path.join(dir, "bare.html");
      await writeFile(bare, "<h2>Cover</h2><p>Bare documents are covered.</p>");
      const missing = io({ FRONTDESK_DATA_DIR: path.join(dir, "data-bare") });
      expect(await main(["ingest", "--dry-run", bare], missing.io)).toBe(1);
      expect(missing.stderr.text()).toContain(`${bare}: missing metadata field(s): id, title, product, domain, lang`);
      const flagged = io({ FRONTDESK_DATA_DIR: path.join(dir, "data-bare") });
      expect(await main(["ingest", bare, "--id", "bare-en", "--title", "Bare", "--product", "bare", "--domain", "general", "--lang", "en"], flagged.io)).toBe(0);
      expect(flagged.stdout.text()).toContain("1 added");
    });
  });
});
