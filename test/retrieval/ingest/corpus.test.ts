import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCorpusDir, parseDocument } from "../../../src/retrieval/ingest/corpus.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "corpus");
const options = { source: "docs/x.md", tenantId: "acme" };
const frontMatter = (fields: Record<string, string>): string =>
  `---\n${Object.entries(fields)
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n")}\n---\n`;
const valid = { id: "motor-en", title: "Motor", product: "motor-tp", domain: "motor", lang: "en" };

describe("parseDocument", () => {
  it("parses front matter and body, with quotes, BOM and CRLF", () => {
    const text = `\uFEFF---\r\nid: motor-en\r\ntitle: "Motor: third party"\r\nproduct: motor-tp\r\ndomain: motor\r\nlang: en\r\n---\r\n\r\nBody text.\r\n`;
    expect(parseDocument(text, options)).toEqual({
      kind: "ok",
      document: {
        id: "motor-en",
        title: "Motor: third party",
        product: "motor-tp",
        domain: "motor",
        lang: "en",
        body: "Body text.",
        tenantId: "acme",
        source: "docs/x.md",
      },
    });
  });

  it.each([
    ["no front matter", "Just text.", "missing front matter (the first line must be ---)", undefined],
    ["unterminated front matter", "---\nid: a\n", "unterminated front matter (no closing ---)", undefined],
    ["a missing field", `${frontMatter({ ...valid, title: "" })}Body`, "missing front matter field(s): title", "title"],
    ["several missing fields", `${frontMatter({ id: "a", lang: "en" })}Body`, "missing front matter field(s): title, product, domain", "title"],
    ["an unsupported lang", `${frontMatter({ ...valid, lang: "de" })}Body`, 'unsupported lang "de" (expected fa or en)', "lang"],
    ["an unsafe id", `${frontMatter({ ...valid, id: "a b#1" })}Body`, 'invalid id "a b#1" (letters, digits, . _ - only)', "id"],
    ["an overlong id", `${frontMatter({ ...valid, id: "a".repeat(129) })}Body`, "id longer than 128 characters", "id"],
    ["an empty body", `${frontMatter(valid)}  \n\n`, "empty body", "body"],
    ["a malformed line", "---\nid motor\n---\nBody", 'malformed front matter line 2: "id motor"', undefined],
    ["a duplicate field", "---\nid: a\nid: b\n---\nBody", 'duplicate front matter field "id"', undefined],
  ])("rejects %s with the path and a reason", (_name, text, reason, field) => {
    expect(parseDocument(text, options)).toEqual({ kind: "invalid", source: "docs/x.md", reason, ...(field === undefined ? {} : { field }) });
  });

  it("rejects an unknown domain when a domain list is given, and accepts any domain without one", () => {
    const text = `${frontMatter({ ...valid, domain: "pets" })}Body`;
    expect(parseDocument(text, { ...options, domains: ["motor", "health"] })).toEqual({
      kind: "invalid",
      source: "docs/x.md",
      reason: 'unknown domain "pets" (expected one of: motor, health)',
      field: "domain",
    });
    expect(parseDocument(text, options).kind).toBe("ok");
  });

  it("rejects bytes that are not UTF-8 (a Windows-1256 Persian file)", () => {
    const header = new TextEncoder().encode(frontMatter(valid));
    const cp1256 = Uint8Array.from([0xc8, 0xed, 0xe3, 0xe5]); // "بیمه" in Windows-1256
    const bytes = new Uint8Array([...header, ...cp1256]);
    expect(parseDocument(bytes, options)).toEqual({ kind: "invalid", source: "docs/x.md", reason: "not valid UTF-8" });
    expect(parseDocument(new TextEncoder().encode(`${frontMatter(valid)}بیمه`), options).kind).toBe("ok");
  });
});

describe("loadCorpusDir", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "corpus-"));
    await mkdir(join(dir, "b", "nested"), { recursive: true });
    await mkdir(join(dir, ".git"));
    await writeFile(join(dir, "b", "nested", "z.md"), `${frontMatter({ ...valid, id: "z" })}Zed`);
    await writeFile(join(dir, "a.txt"), `${frontMatter({ ...valid, id: "a" })}Alpha`);
    await writeFile(join(dir, "c.md"), `${frontMatter({ ...valid, id: "a" })}Duplicate of a`);
    await writeFile(join(dir, "d.md"), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe]));
    await writeFile(join(dir, "e.md"), `${frontMatter({ ...valid, id: "e", domain: "pets" })}Pets`);
    await writeFile(join(dir, "notes.json"), "{}");
    await writeFile(join(dir, "README.md"), "# About this corpus");
    await writeFile(join(dir, "b", "readme.txt"), "Nested readme");
    await writeFile(join(dir, ".git", "x.md"), "not a document");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads *.md and *.txt recursively in path order, skips READMEs, and reports each problem with its path", async () => {
    const { documents, problems } = await loadCorpusDir(dir, { tenantId: "acme", domains: ["motor"] });
    expect(documents.map((d) => [d.id, d.source])).toEqual([
      ["a", join(dir, "a.txt")],
      ["z", join(dir, "b", "nested", "z.md")],
    ]);
    expect(documents.every((d) => d.tenantId === "acme")).toBe(true);
    expect(problems).toEqual([
      { source: join(dir, "c.md"), reason: `duplicate id "a" (first defined in ${join(dir, "a.txt")})` },
      { source: join(dir, "d.md"), reason: "not valid UTF-8" },
      { source: join(dir, "e.md"), reason: 'unknown domain "pets" (expected one of: motor)' },
    ]);
  });

  it("loads the fixture corpus without problems", async () => {
    const { documents, problems } = await loadCorpusDir(FIXTURES, { tenantId: "acme" });
    expect(problems).toEqual([]);
    expect(documents.map((d) => d.id)).toEqual(["health-supp-fa", "home-fire-fa", "motor-tp-fa", "health-supp-en", "motor-tp-en", "travel-en"]);
  });
});
