import { copyFile, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentFromFields, loadCorpusDir, parseDocumentFile } from "../../../src/retrieval/ingest/corpus.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "corpus");
const DOCUMENT_FIXTURES = join(import.meta.dirname, "..", "..", "documents", "fixtures");
const frontMatter = (fields: Record<string, string>): string =>
  `---\n${Object.entries(fields)
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n")}\n---\n`;
const valid = { id: "motor-en", title: "Motor", product: "motor-tp", domain: "motor", lang: "en" };
const sidecar = (attributes: Record<string, string>): string => JSON.stringify({ metadataAttributes: attributes });

describe("documentFromFields (a JSONL record, an API message)", () => {
  const fields = (overrides: Record<string, string> = {}) => {
    const all: Record<string, string> = { ...valid, body: "Body text.\r\n", ...overrides };
    return (field: string) => all[field];
  };
  const options = { source: "docs.jsonl:3", tenantId: "acme" };

  it("builds the document, its body with CRLF and BOM normalised", () => {
    expect(documentFromFields(fields({ body: "\uFEFFLine one.\r\nLine two.\r\n" }), options)).toEqual({
      kind: "ok",
      document: { ...valid, body: "Line one.\nLine two.", tenantId: "acme", source: "docs.jsonl:3" },
      warnings: [],
    });
  });

  it.each([
    ["a missing field", { title: "" }, "missing field(s): title", "title"],
    ["several missing fields", { title: "", product: " ", domain: "" }, "missing field(s): title, product, domain", "title"],
    ["an unsupported lang", { lang: "de" }, 'unsupported lang "de" (expected fa or en)', "lang"],
    ["an id that is not a slug", { id: "Motor_EN" }, 'invalid id "Motor_EN" (lower-case letters, digits and single dashes only)', "id"],
    ["a product that is not a slug", { product: "motor tp" }, 'invalid product "motor tp" (lower-case letters, digits and single dashes only)', "product"],
    ["a domain that is not a slug", { domain: "Motor" }, 'invalid domain "Motor" (lower-case letters, digits and single dashes only)', "domain"],
    ["an overlong id", { id: "a".repeat(129) }, "id longer than 128 characters", "id"],
    ["an empty body", { body: "  \n\n" }, "empty body", "body"],
  ])("rejects %s, naming the field", (_name, overrides, reason, field) => {
    expect(documentFromFields(fields(overrides), options)).toEqual({ kind: "invalid", source: "docs.jsonl:3", reason, field });
  });

  it("takes any slug as a domain: it is the document's own, not one from a list", () => {
    expect(documentFromFields(fields({ domain: "pet-insurance" }), options).kind).toBe("ok");
  });
});

describe("loadCorpusDir", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "corpus-"));
    await mkdir(join(dir, "b", "nested"), { recursive: true });
    await mkdir(join(dir, ".git"));
    await writeFile(join(dir, "b", "nested", "z.md"), frontMatter({ ...valid, id: "z" }) + "Zed");
    await writeFile(join(dir, "a.txt"), frontMatter({ ...valid, id: "a" }) + "Alpha *one*");
    await writeFile(join(dir, "c.md"), frontMatter({ ...valid, id: "a" }) + "Duplicate of a");
    await writeFile(join(dir, "d.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]));
    // Any slug is a domain.
    await writeFile(join(dir, "e.md"), frontMatter({ ...valid, id: "e", domain: "pets" }) + "Pets");
    // No front matter: the sidecar says what the file does not.
    await writeFile(join(dir, "f.md"), "## Cover\n\nFire and flood.\n");
    await writeFile(join(dir, "f.md.metadata.json"), sidecar({ id: "f", title: "Home", product: "home", domain: "home", lang: "en" }));
    await writeFile(join(dir, "g.md"), "No metadata at all.");
    await writeFile(join(dir, "orphan.pdf.metadata.json"), sidecar({ id: "x" }));
    await copyFile(join(DOCUMENT_FIXTURES, "travel-en.docx"), join(dir, "h.docx"));
    await writeFile(join(dir, "h.docx.metadata.json"), sidecar({ id: "h", title: "Travel", product: "travel", domain: "travel", lang: "en" }));
    await copyFile(join(DOCUMENT_FIXTURES, "scanned.pdf"), join(dir, "s.pdf"));
    await writeFile(join(dir, "s.pdf.metadata.json"), sidecar({ id: "s", title: "Scan", product: "travel", domain: "travel", lang: "en" }));
    await writeFile(join(dir, "notes.json"), "{}");
    await writeFile(join(dir, "README.md"), "# About this corpus");
    await writeFile(join(dir, "b", "readme.txt"), "Nested readme");
    await writeFile(join(dir, ".git", "x.md"), "not a document");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads every format recursively in path order, with sidecars, skips READMEs, and reports each problem with its path", async () => {
    const { documents, problems } = await loadCorpusDir(dir, { tenantId: "acme" });
    expect(documents.map((d) => [d.id, d.source])).toEqual([
      ["a", join(dir, "a.txt")],
      ["z", join(dir, "b", "nested", "z.md")],
      ["e", join(dir, "e.md")],
      ["f", join(dir, "f.md")],
      ["h", join(dir, "h.docx")],
    ]);
    expect(documents.every((d) => d.tenantId === "acme")).toBe(true);
    expect(problems).toEqual([
      { source: join(dir, "c.md"), field: "id", reason: `duplicate id "a" (first defined in ${join(dir, "a.txt")})` },
      { source: join(dir, "d.md"), reason: "not valid UTF-8" },
      { source: join(dir, "g.md"), field: "id", reason: "missing metadata field(s): id, title, product, domain, lang (front matter, a .metadata.json sidecar or defaults)" },
      { source: join(dir, "orphan.pdf.metadata.json"), reason: "metadata sidecar without a document (orphan.pdf not found)" },
      { source: join(dir, "s.pdf"), reason: "no text layer (scanned PDF?)" },
    ]);
  });

  it("keeps a markdown file's own body, and stores any other format as the Markdown of its blocks", async () => {
    const { documents } = await loadCorpusDir(dir, { tenantId: "acme" });
    const byId = new Map(documents.map((d) => [d.id, d]));
    expect(byId.get("f")?.body).toBe("## Cover\n\nFire and flood.");
    // Plain text is text: its markup characters are escaped in the Markdown it is stored as.
    expect(byId.get("a")?.body).toBe("Alpha \\*one\\*");
    expect(byId.get("h")?.body).toContain("**Premium for one adult, in thousand rials**\n\n| Plan | Up to 7 days | 8 to 15 days | 16 to 31 days |");
  });

  it("fills what no file says from the defaults (ingest flags)", async () => {
    const result = await parseDocumentFile(join(dir, "g.md"), { tenantId: "acme", defaults: { id: "g", title: "G", product: "p", domain: "d", lang: "fa" } });
    expect(result).toMatchObject({ kind: "ok", document: { id: "g", title: "G", lang: "fa", body: "No metadata at all." } });
  });

  it("loads the fixture corpus without problems", async () => {
    const { documents, problems } = await loadCorpusDir(FIXTURES, { tenantId: "acme" });
    expect(problems).toEqual([]);
    expect(documents.map((d) => d.id)).toEqual(["health-supp-fa", "home-fire-fa", "motor-tp-fa", "health-supp-en", "motor-tp-en", "travel-en"]);
  });
});
