import { copyFile, mkdir, mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadDocumentDir, loadDocumentFile, mediaTypeOf, parseDocumentBytes, parseSidecar, toUnits } from "../../src/documents/index.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const sidecar = (attributes: Record<string, unknown>): string => JSON.stringify({ metadataAttributes: attributes });

describe("metadata", () => {
  it("reads Bedrock sidecars: plain strings and the typed STRING form; other attributes are ignored", () => {
    expect(parseSidecar(sidecar({ id: "a", title: { value: { type: "STRING", stringValue: "T" }, includeForEmbedding: true }, year: 2024 }))).toEqual({
      kind: "ok",
      fields: { id: "a", title: "T" },
    });
    expect(parseSidecar("{not json")).toEqual({ kind: "invalid", reason: "metadata sidecar is not valid JSON" });
    expect(parseSidecar('{"id": "a"}')).toEqual({ kind: "invalid", reason: 'metadata sidecar has no "metadataAttributes" object' });
    expect(parseSidecar(sidecar({ lang: 1 }))).toEqual({ kind: "invalid", field: "lang", reason: 'metadata sidecar attribute "lang" must be a string' });
    expect(parseSidecar(sidecar({ lang: { value: { type: "NUMBER", numberValue: 1 } } }))).toEqual({
      kind: "invalid",
      field: "lang",
      reason: 'metadata sidecar attribute "lang" must be a string',
    });
  });

  it("takes each field from the file, else its sidecar, else the defaults, else (title only) the document's own heading", async () => {
    const html = `<html><head><meta name="frontdesk:id" content="from-meta"></head><body><h1>Own title</h1><p>Text.</p></body></html>`;
    const result = await parseDocumentBytes(encode(html), {
      path: "a.html",
      sidecar: sidecar({ id: "from-sidecar", product: "home-fire" }),
      defaults: { id: "from-defaults", product: "from-defaults", domain: "home", lang: "en" },
    });
    expect(result).toMatchObject({
      kind: "ok",
      document: { metadata: { id: "from-meta", title: "Own title", product: "home-fire", domain: "home", lang: "en", source: "a.html", mediaType: "text/html" } },
    });
    // The heading that gave the title is the title, not a section.
    expect(result.kind === "ok" && result.document.blocks).toEqual([{ kind: "paragraph", text: "Text.", sectionPath: [], page: null }]);
  });

  it("lets a caller's overrides win over the file and its sidecar, and hands back the Markdown to store", async () => {
    const md = "---\nid: from-front-matter\ntitle: Front\nproduct: travel\ndomain: travel\nlang: en\n---\n\n## Cover\n\nText.\n";
    const result = await parseDocumentBytes(encode(md), { path: "a.md", sidecar: sidecar({ product: "home" }), overrides: { id: "from-request", title: "", lang: "fa" } });
    // An empty override is no override: the file's title stays.
    expect(result).toMatchObject({ kind: "ok", document: { metadata: { id: "from-request", title: "Front", product: "travel", lang: "fa" } }, markdown: "## Cover\n\nText." });
    const html = await parseDocumentBytes(encode("<h2>Cover</h2><p>Text *here*.</p>"), {
      path: "a.html",
      defaults: { id: "a", title: "T", product: "p", domain: "d", lang: "en" },
    });
    expect(html).toMatchObject({ kind: "ok", markdown: "## Cover\n\nText \\*here\\*.\n" });
  });

  it("names every missing field, and checks id, product and domain as slugs and lang as fa or en", async () => {
    const parse = (attributes: Record<string, string>) => parseDocumentBytes(encode("<p>Text.</p>"), { path: "a.html", sidecar: sidecar(attributes) });
    const good = { id: "a", title: "T", product: "travel", domain: "travel", lang: "fa" };
    expect(await parse({ id: "a" })).toEqual({
      kind: "invalid",
      field: "title",
      reason: "missing metadata field(s): title, product, domain, lang (front matter, a .metadata.json sidecar or defaults)",
    });
    expect(await parse({ ...good, id: "Travel_EN" })).toEqual({
      kind: "invalid",
      field: "id",
      reason: 'invalid id "Travel_EN" (lower-case letters, digits and single dashes only)',
    });
    expect(await parse({ ...good, product: "motor body" })).toEqual({
      kind: "invalid",
      field: "product",
      reason: 'invalid product "motor body" (lower-case letters, digits and single dashes only)',
    });
    expect(await parse({ ...good, domain: "-x" })).toEqual({ kind: "invalid", field: "domain", reason: 'invalid domain "-x" (lower-case letters, digits and single dashes only)' });
    expect(await parse({ ...good, lang: "de" })).toEqual({ kind: "invalid", field: "lang", reason: 'unsupported lang "de" (expected fa or en)' });
    expect(await parse({ ...good, id: "a".repeat(129) })).toEqual({ kind: "invalid", field: "id", reason: "id longer than 128 characters" });
    // Any slug is a domain here: whether it is a configured one is the caller's check.
    expect(await parse({ ...good, domain: "pet-insurance" })).toMatchObject({ kind: "ok" });
  });
});

describe("mediaTypeOf", () => {
  it("maps extensions and declared types, case-insensitively", () => {
    expect(mediaTypeOf({ path: "A.PDF" })).toBe("application/pdf");
    expect(mediaTypeOf({ path: "x.htm" })).toBe("text/html");
    expect(mediaTypeOf({ path: "x.markdown" })).toBe("text/markdown");
    expect(mediaTypeOf({ mediaType: "Application/VND.openxmlformats-officedocument.wordprocessingml.document", path: "x.pdf" })).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(mediaTypeOf({ mediaType: "application/zip" })).toBeNull();
    expect(mediaTypeOf({ path: "x.doc" })).toBeNull();
  });
});

describe("the bundled sample corpus", () => {
  it("loads all 26 markdown documents with no problem and no warning", async () => {
    const { documents, problems } = await loadDocumentDir(join(import.meta.dirname, "..", "..", "data", "corpus"));
    expect(problems).toEqual([]);
    expect(documents).toHaveLength(26);
    expect(documents.flatMap(({ warnings }) => warnings)).toEqual([]);
    const travel = documents.find(({ document }) => document.metadata.id === "travel-en")?.document;
    const items = travel === undefined ? [] : toUnits(travel).units.filter((unit) => unit.kind === "item");
    expect(items.map((unit) => unit.text)).toContain(
      "How much does travel insurance cost? — The travel premium for one adult aged 13 to 65 on the Silver plan costs: 8 to 15 days: 6,800,000 rials",
    );
  });
});

describe("loadDocumentDir", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "frontdesk-documents-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("loads every format recursively in path order and reports every bad file by path and reason", async () => {
    await mkdir(join(dir, "en"));
    await mkdir(join(dir, "fa"));
    await mkdir(join(dir, ".git"));
    for (const name of ["travel-en.md", "travel-en.pdf", "travel-en.pdf.metadata.json"]) await copyFile(join(FIXTURES, name), join(dir, "en", name));
    for (const name of ["travel-fa.docx", "travel-fa.docx.metadata.json"]) await copyFile(join(FIXTURES, name), join(dir, "fa", name));
    await copyFile(join(FIXTURES, "scanned.pdf"), join(dir, "scanned.pdf"));
    await writeFile(join(dir, "README.md"), "# About this folder\n");
    await writeFile(join(dir, "en", "readme.html"), "<p>About</p>");
    await writeFile(join(dir, ".draft.md"), "---\nid: hidden\n---\n");
    await writeFile(join(dir, ".git", "x.md"), "junk");
    await writeFile(join(dir, "notes.csv"), "not a document type");
    await writeFile(join(dir, "no-meta.html"), "<p>Text.</p>");
    await writeFile(join(dir, "bad-sidecar.html"), "<p>Text.</p>");
    await writeFile(join(dir, "bad-sidecar.html.metadata.json"), "{");
    await writeFile(join(dir, "orphan.pdf.metadata.json"), sidecar({ id: "x" }));
    // A real 50 MB file (sparse: no disk used), over the 20 MiB default.
    await writeFile(join(dir, "huge.pdf"), "%PDF-1.7\n");
    await truncate(join(dir, "huge.pdf"), 50 * 1024 * 1024);

    const { documents, problems } = await loadDocumentDir(dir);
    // travel-en.pdf has the same id as travel-en.md: the first in path order wins.
    expect(documents.map(({ document }) => [document.metadata.source, document.metadata.id])).toEqual([
      [join(dir, "en", "travel-en.md"), "travel-en"],
      [join(dir, "fa", "travel-fa.docx"), "travel-fa"],
    ]);
    expect(problems).toEqual([
      { source: join(dir, "bad-sidecar.html"), reason: "metadata sidecar is not valid JSON" },
      { source: join(dir, "en", "travel-en.pdf"), field: "id", reason: `duplicate id "travel-en" (first defined in ${join(dir, "en", "travel-en.md")})` },
      { source: join(dir, "huge.pdf"), reason: "file too large: 52428800 bytes (limit 20971520 bytes)" },
      {
        source: join(dir, "no-meta.html"),
        field: "id",
        reason: "missing metadata field(s): id, title, product, domain, lang (front matter, a .metadata.json sidecar or defaults)",
      },
      { source: join(dir, "orphan.pdf.metadata.json"), reason: "metadata sidecar without a document (orphan.pdf not found)" },
      { source: join(dir, "scanned.pdf"), reason: "no text layer (scanned PDF?)" },
    ]);
  });

  it("loadDocumentFile: one file with its sidecar; an unreadable path is a problem, not a throw", async () => {
    await copyFile(join(FIXTURES, "travel-fa.pdf"), join(dir, "t.pdf"));
    await copyFile(join(FIXTURES, "travel-fa.pdf.metadata.json"), join(dir, "t.pdf.metadata.json"));
    expect(await loadDocumentFile(join(dir, "t.pdf"))).toMatchObject({
      kind: "ok",
      document: { metadata: { id: "travel-fa", lang: "fa", mediaType: "application/pdf" } },
      warnings: [],
    });
    await mkdir(join(dir, "folder.md"));
    expect(await loadDocumentFile(join(dir, "folder.md"))).toEqual({ kind: "invalid", reason: "unreadable file (EISDIR)" });
    expect(await loadDocumentFile(join(dir, "missing.md"))).toEqual({ kind: "invalid", reason: "unreadable file (ENOENT)" });
  });

  it("fills missing fields from the caller's defaults (ingest flags) and applies its limits", async () => {
    await writeFile(join(dir, "a.html"), "<h1>Fire cover</h1><p>Text.</p>");
    await writeFile(join(dir, "b.txt"), "A text longer than the HTML file.");
    const { documents, problems } = await loadDocumentDir(dir, { defaults: { id: "fire-en", product: "home-fire", domain: "home", lang: "en" }, limits: { maxFileBytes: 32 } });
    expect(documents.map(({ document }) => document.metadata)).toEqual([
      { id: "fire-en", title: "Fire cover", product: "home-fire", domain: "home", lang: "en", source: join(dir, "a.html"), mediaType: "text/html" },
    ]);
    expect(problems).toEqual([{ source: join(dir, "b.txt"), reason: "file too large: 33 bytes (limit 32 bytes)" }]);
  });
});
