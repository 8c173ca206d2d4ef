import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocumentBytes, toUnits, type ParseDocumentOptions, type ParseDocumentResult } from "../../src/documents/index.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const DEFAULTS = { title: "Test", product: "travel", domain: "travel", lang: "en" };
const FRONT = "---\nid: doc\ntitle: Doc\nproduct: travel\ndomain: travel\nlang: en\n---\n\n";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

async function fixture(name: string, options: Partial<ParseDocumentOptions> = {}): Promise<ParseDocumentResult> {
  const path = join(FIXTURES, name);
  const sidecar = await readFile(`${path}.metadata.json`, "utf8").catch(() => null);
  return parseDocumentBytes(await readFile(path), { path, source: name, sidecar, ...options });
}

async function ok(result: Promise<ParseDocumentResult>): Promise<Extract<ParseDocumentResult, { kind: "ok" }>> {
  const value = await result;
  if (value.kind !== "ok") throw new Error(`expected ok, got: ${value.reason}`);
  return value;
}

describe("bad tables", () => {
  it("ragged rows are padded or cut to the header width, empty rows dropped, each repair a warning", async () => {
    const { document, warnings } = await ok(fixture("ragged-table.md"));
    expect(document.blocks).toEqual([
      {
        kind: "table",
        caption: "Baggage limits",
        headers: ["Item", "Limit", "Note"],
        rows: [
          ["Lost baggage", "€500", ""],
          ["Delayed baggage", "€100", "after 12 hours"],
          ["Passport", "", "replacement costs"],
        ],
        rowHeaderColumn: 0,
        sectionPath: ["Baggage limits"],
        page: null,
      },
    ]);
    expect(warnings).toEqual([
      { code: "ragged-row", message: 'table 1 ("Baggage limits"): 1 of 3 rows have fewer than 3 cells (padded with empty cells): row 1' },
      { code: "ragged-row", message: 'table 1 ("Baggage limits"): 1 of 3 rows have more than 3 cells (cells past column 3 dropped): row 2' },
    ]);
    // Empty cells stay in the structured cells but are not rendered as "Limit: ".
    const { units } = toUnits(document);
    expect(units.map((unit) => unit.text)).toEqual([
      "Baggage limits — Lost baggage — Limit: €500",
      "Baggage limits — Delayed baggage — Limit: €100; Note: after 12 hours",
      "Baggage limits — Passport — Note: replacement costs",
    ]);
    expect(units[2]).toMatchObject({
      cells: [
        { header: "Item", value: "Passport" },
        { header: "Limit", value: "" },
        { header: "Note", value: "replacement costs" },
      ],
    });
  });

  const MERGED_ROWS = [
    ["Plan A", "72", "102"],
    ["Plan B", "on request", "on request"],
    ["Plan C", "110", "150"],
    ["Plan C", "120", ""],
  ];

  it("merged cells (HTML colspan/rowspan, two header rows, <th> row labels, <caption>) are expanded", async () => {
    const { document, warnings } = await ok(fixture("merged-cells.html"));
    expect(document.metadata).toMatchObject({ id: "family-prices-en", title: "Family travel prices", product: "travel", domain: "travel", lang: "en" });
    expect(document.blocks).toEqual([
      {
        kind: "table",
        caption: "Family plan, thousand rials",
        headers: ["Plan", "Trip length / Up to 7 days", "Trip length / 8 to 15 days"],
        rows: MERGED_ROWS,
        rowHeaderColumn: 0,
        sectionPath: ["Family plan"],
        page: null,
      },
    ]);
    expect(warnings).toEqual([
      { code: "merged-cells", message: 'table 1 ("Family plan, thousand rials") has merged cells (colspan/rowspan); each covered cell repeats the merged text' },
      { code: "ragged-row", message: 'table 1 ("Family plan, thousand rials"): 1 of 4 rows have fewer than 3 cells (padded with empty cells): row 4' },
    ]);
    expect(toUnits(document).units[1]?.text).toBe("Family plan, thousand rials — Plan B — Trip length / Up to 7 days: on request; Trip length / 8 to 15 days: on request");
  });

  it("the same merged table in DOCX (Word's gridSpan/vMerge through mammoth) gives the same rows", async () => {
    const { document, warnings } = await ok(fixture("merged-cells.docx"));
    expect(document.blocks).toMatchObject([{ kind: "table", caption: "Family plan, thousand rials", rows: MERGED_ROWS, rowHeaderColumn: 0 }]);
    expect(warnings).toEqual([
      { code: "merged-cells", message: 'table 1 ("Family plan, thousand rials") has merged cells (colspan/rowspan); each covered cell repeats the merged text' },
    ]);
  });

  it("a table without any text is skipped; a header without a body becomes a paragraph; a table without a header row says so", async () => {
    const html = `<h2>Limits</h2><p>Some text.</p><table><tr><td> </td><td></td></tr></table>
      <table><thead><tr><th>Only</th><th>a header</th></tr></thead></table>
      <table><tr><td>2024</td><td>5%</td></tr><tr><td>2025</td><td>10%</td></tr></table>`;
    const { document, warnings } = await ok(parseDocumentBytes(encode(html), { mediaType: "text/html", defaults: { ...DEFAULTS, id: "t" } }));
    expect(document.blocks).toEqual([
      { kind: "paragraph", text: "Some text.", sectionPath: ["Limits"], page: null },
      { kind: "paragraph", text: "Only | a header", sectionPath: ["Limits"], page: null },
      {
        kind: "table",
        caption: "Limits",
        headers: ["", ""],
        rows: [
          ["2024", "5%"],
          ["2025", "10%"],
        ],
        rowHeaderColumn: null,
        sectionPath: ["Limits"],
        page: null,
      },
    ]);
    expect(warnings).toEqual([
      { code: "empty-table", message: 'table 1 ("Limits") has no text and was skipped' },
      { code: "empty-table", message: 'table 2 ("Limits") has a header row but no body rows; its header is indexed as a paragraph' },
      { code: "no-header-row", message: 'table 3 ("Limits") has no header row; cells are indexed without column names' },
    ]);
    expect(
      toUnits(document)
        .units.map((unit) => unit.text)
        .slice(2),
    ).toEqual(["Limits — 2024; 5%", "Limits — 2025; 10%"]);
  });

  it("a document whose only table is empty is a problem, not an empty document", async () => {
    expect(await parseDocumentBytes(encode(`${FRONT}| a | b |\n| - | - |\n|  |  |\n`.replace("| a | b |", "|   |   |")), { mediaType: "text/markdown" })).toEqual({
      kind: "invalid",
      reason: "no text found",
    });
  });

  it("a hostile colspan is capped (the HTML standard's 1000), never a million-cell row", async () => {
    const html = `<table><tr><th>A</th><th>B</th></tr><tr><td colspan="100000">x</td></tr></table>`;
    const { document } = await ok(parseDocumentBytes(encode(html), { mediaType: "text/html", defaults: { ...DEFAULTS, id: "t" } }));
    expect(document.blocks).toMatchObject([{ kind: "table", headers: ["A", "B"], rows: [["x", "x"]] }]);
  });

  it("a 5,000-row table is indexed up to maxTableRows (default 1000), with a warning that says so", async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `| Plan ${i + 1} | ${i * 10} |`).join("\n");
    const md = `${FRONT}## Prices\n\n| Plan | Premium |\n| --- | --- |\n${rows}\n`;
    const started = Date.now();
    const { document, warnings } = await ok(parseDocumentBytes(encode(md), { mediaType: "text/markdown" }));
    const { units } = toUnits(document);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(units).toHaveLength(1000);
    expect(units[999]?.text).toBe("Prices — Plan 1000 — Premium: 9990");
    expect(warnings).toEqual([{ code: "table-truncated", message: 'table 1 ("Prices") has 5000 rows; only the first 1000 are indexed (maxTableRows)' }]);
    const all = await ok(parseDocumentBytes(encode(md), { mediaType: "text/markdown", limits: { maxTableRows: 5000 } }));
    expect(toUnits(all.document).units).toHaveLength(5000);
    expect(all.warnings).toEqual([]);
  });
});

describe("files without usable text", () => {
  it("a scanned PDF (an image, no text layer) is a problem", async () => {
    expect(await fixture("scanned.pdf")).toEqual({ kind: "invalid", reason: "no text layer (scanned PDF?)" });
  });

  it("a PDF with one scanned page keeps its text pages and reports the scanned page", async () => {
    const { document, warnings } = await ok(fixture("mixed-scan.pdf"));
    expect(document.blocks).toEqual([{ kind: "paragraph", text: "Claims are paid within 10 working days.", sectionPath: [], page: 1 }]);
    expect(warnings).toEqual([{ code: "page-without-text", message: "page 2 has no text layer (scanned?); it is not indexed" }]);
  });

  it("a DOCX with only an image is a problem", async () => {
    expect(await fixture("images-only.docx")).toEqual({ kind: "invalid", reason: "no text found (images only? 1 image(s))" });
  });

  it("markdown with front matter and no body, HTML with only site chrome, an empty file", async () => {
    expect(await parseDocumentBytes(encode(FRONT), { path: "a.md" })).toEqual({ kind: "invalid", reason: "no text found" });
    const chrome = "<html><body><nav>Home</nav><script>x()</script><footer>©</footer></body></html>";
    expect(await parseDocumentBytes(encode(chrome), { path: "a.html" })).toEqual({ kind: "invalid", reason: "no text found" });
    expect(await parseDocumentBytes(new Uint8Array(0), { path: "a.pdf" })).toEqual({ kind: "invalid", reason: "empty file" });
  });
});

describe("broken and unsupported files", () => {
  it("an oversized file is rejected before it is parsed", async () => {
    const bytes = await readFile(join(FIXTURES, "travel-en.pdf"));
    expect(await parseDocumentBytes(bytes, { path: "travel-en.pdf", limits: { maxFileBytes: 1000 } })).toEqual({
      kind: "invalid",
      reason: `file too large: ${bytes.byteLength} bytes (limit 1000 bytes)`,
    });
  });

  it("a DOCX that unpacks to more than maxUnpackedBytes (a zip bomb) is rejected before mammoth unpacks it", async () => {
    const docx = await readFile(join(FIXTURES, "travel-en.docx"));
    expect(await parseDocumentBytes(docx, { path: "a.docx", limits: { maxUnpackedBytes: 10_000 } })).toEqual({
      kind: "invalid",
      reason: "DOCX unpacks to more than 10000 bytes of text parts (maxUnpackedBytes)",
    });
    // A central directory declaring a 4 GB document.xml (ZIP64's marker) in a 100-byte file.
    const name = encode("word/document.xml");
    const central = new Uint8Array(46 + name.length);
    const cd = new DataView(central.buffer);
    cd.setUint32(0, 0x02014b50, true);
    cd.setUint32(24, 0xffffffff, true);
    cd.setUint16(28, name.length, true);
    central.set(name, 46);
    const head = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]);
    const eocd = new Uint8Array(22);
    const ed = new DataView(eocd.buffer);
    ed.setUint32(0, 0x06054b50, true);
    ed.setUint16(8, 1, true);
    ed.setUint16(10, 1, true);
    ed.setUint32(12, central.length, true);
    ed.setUint32(16, head.length, true);
    const bomb = new Uint8Array([...head, ...central, ...eocd]);
    expect(await parseDocumentBytes(bomb, { path: "bomb.docx" })).toEqual({
      kind: "invalid",
      reason: "DOCX unpacks to more than 209715200 bytes of text parts (maxUnpackedBytes)",
    });
  });

  it("names what is wrong with the bytes", async () => {
    const cases: [string, Uint8Array, string][] = [
      ["a.md", new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe7, 0xed, 0x0a]), "not valid UTF-8"],
      ["a.pdf", encode("<html>not a pdf</html>"), "not a PDF file (no %PDF- header)"],
      ["a.pdf", encode("%PDF-1.7\n1 0 obj garbage\n%%EOF"), "unreadable PDF (Invalid PDF structure.)"],
      ["a.docx", encode("just text"), "not a DOCX file (no ZIP signature)"],
      ["a.docx", new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9]), "unreadable DOCX (Corrupted zip: can't find end of central directory)"],
      ["a.csv", encode("a,b"), "unsupported media type (.csv); expected markdown, HTML, DOCX, PDF or plain text"],
      ["noext", encode("a,b"), "unsupported media type (no extension); expected markdown, HTML, DOCX, PDF or plain text"],
      ["a.md", encode("---\nid: x\n"), "unterminated front matter (no closing ---)"],
      ["a.md", encode("---\nnot a field line\n---\nText"), 'malformed front matter line 2: "not a field line"'],
    ];
    for (const [path, bytes, reason] of cases) expect(await parseDocumentBytes(bytes, { path }), path).toEqual({ kind: "invalid", reason });
    expect(await parseDocumentBytes(encode("x"), { mediaType: "image/png" })).toEqual({
      kind: "invalid",
      reason: "unsupported media type (image/png); expected markdown, HTML, DOCX, PDF or plain text",
    });
  });

  it("the media type wins over the extension and ignores its parameters", async () => {
    const { document } = await ok(parseDocumentBytes(encode(`<p>Hello.</p>`), { path: "upload.bin", mediaType: "text/html; charset=utf-8", defaults: { ...DEFAULTS, id: "t" } }));
    expect(document.metadata.mediaType).toBe("text/html");
    expect(document.blocks).toEqual([{ kind: "paragraph", text: "Hello.", sectionPath: [], page: null }]);
  });

  it("plain text is paragraphs at blank lines, with no markup interpreted", async () => {
    const { document } = await ok(parseDocumentBytes(encode(`${FRONT}# not a heading\nsame paragraph\n\n- not a list`), { path: "a.txt" }));
    expect(document.blocks).toEqual([
      { kind: "paragraph", text: "# not a heading same paragraph", sectionPath: [], page: null },
      { kind: "paragraph", text: "- not a list", sectionPath: [], page: null },
    ]);
  });
});
