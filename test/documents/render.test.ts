import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { markdownBlocks, parseDocumentBytes, renderMarkdown, toUnits, type Block, type ParsedDocument, type Unit } from "../../src/documents/index.js";

const FIXTURES = join(import.meta.dirname, "fixtures");

async function parseFixture(name: string): Promise<ParsedDocument> {
  const path = join(FIXTURES, name);
  const sidecar = await readFile(`${path}.metadata.json`, "utf8").catch(() => null);
  const result = await parseDocumentBytes(await readFile(path), { path, source: name, sidecar, defaults: { id: "doc", product: "p", domain: "d", lang: "en", title: "T" } });
  if (result.kind !== "ok") throw new Error(`${name}: ${result.reason}`);
  return result.document;
}

/** The document again, from its Markdown rendering, as the chunker reads a stored body. */
function reparsed(document: ParsedDocument): ParsedDocument {
  const { blocks } = markdownBlocks(renderMarkdown(document.blocks), { title: document.metadata.title });
  return { metadata: document.metadata, blocks };
}

// Markdown has no pages: everything else of a unit must survive the round trip.
const withoutPage = (units: Unit[]): Omit<Unit, "page">[] => units.map(({ page: _page, ...unit }) => unit);

const doc = (blocks: Block[]): ParsedDocument => ({
  metadata: { id: "doc", title: "Title", product: "p", domain: "d", lang: "en", source: "test", mediaType: "text/html" },
  blocks,
});
const block = <K extends Block["kind"]>(kind: K, fields: Omit<Extract<Block, { kind: K }>, "kind" | "page" | "sectionPath"> & { sectionPath?: string[] }): Block =>
  ({ kind, sectionPath: [], page: null, ...fields }) as unknown as Block;

describe("renderMarkdown", () => {
  it("gives back the same units for every fixture, in every format (pages aside)", async () => {
    const names = (await readdir(FIXTURES)).filter((name) => /\.(?:md|html|docx|pdf)$/u.test(name) && name !== "images-only.docx" && name !== "scanned.pdf");
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const name of names) {
      const document = await parseFixture(name);
      const units = toUnits(document).units;
      expect(units.length, name).toBeGreaterThan(0);
      expect(withoutPage(toUnits(reparsed(document)).units), name).toEqual(withoutPage(units));
    }
  });

  it("writes headings, lead-ins, lists and a GFM table with its caption as a bold line", async () => {
    const document = await parseFixture("travel-en.html");
    const markdown = renderMarkdown(document.blocks);
    expect(markdown).toContain(
      "## Travel prices\n\n**Premium for one adult, in thousand rials**\n\n| Plan | Up to 7 days | 8 to 15 days | 16 to 31 days |\n| --- | --- | --- | --- |\n| Plan A | 29 | 41 | 58 |",
    );
    expect(markdown).toContain(
      "## What is not covered\n\nTravel insurance does not pay for:\n\n- Illnesses diagnosed before the trip.\n- Trips made to get medical treatment abroad.",
    );
    expect(markdown).toContain("## How to claim\n\n1. Call the assistance line on +98 21 8000 7000 before any treatment.\n2. Keep every invoice and medical report.");
  });

  it("escapes text Markdown would read as markup, so it comes back verbatim", () => {
    const texts = [
      "1. Not a list item, and 2) not one either.",
      "- not a bullet",
      "+ nor this",
      "# not a heading",
      "**not bold** and _not italic_ and `not code`",
      "a | b <b>not html</b> &amp; [not](a link) \\ back",
      "> not a quote",
    ];
    const document = doc([
      ...texts.map((text) => block("paragraph", { text })),
      block("list", { leadIn: null, ordered: false, start: null, items: ["1. first", "* star", "| pipe |"] }),
      block("table", { caption: "Odd * caption | x", headers: ["a|b", "c"], rows: [["Row *1*", "x | y"]], rowHeaderColumn: 0 }),
    ]);
    const again = reparsed(document);
    expect(again.blocks).toEqual(document.blocks);
  });

  it("keeps two lists in a row apart, returns to a shallower section, and keeps an explicit caption over a label paragraph", () => {
    const document = doc([
      block("paragraph", { text: "Intro.", sectionPath: [] }),
      block("list", { leadIn: null, ordered: false, start: null, items: ["a", "b"], sectionPath: ["A"] }),
      block("list", { leadIn: null, ordered: true, start: 3, items: ["c", "d"], sectionPath: ["A"] }),
      block("paragraph", { text: "Deep.", sectionPath: ["A", "B"] }),
      block("paragraph", { text: "Back in A.", sectionPath: ["A"] }),
      // A short label paragraph right before a table with its own caption stays a paragraph.
      block("paragraph", { text: "A short label", sectionPath: ["C"] }),
      block("table", { caption: "C", headers: ["k", "v"], rows: [["x", "1"]], rowHeaderColumn: 0, sectionPath: ["C"] }),
    ]);
    expect(reparsed(document).blocks).toEqual(document.blocks);
  });

  it("writes an HTML table when GFM cannot carry the caption or the row-header column", () => {
    const long = `${"A caption that goes on and on. ".repeat(6)}End.`;
    const document = doc([
      // No header row and no caption (nothing above it): an empty GFM header row says so.
      block("table", { caption: null, headers: ["", ""], rows: [["x", "1"]], rowHeaderColumn: 0 }),
      block("table", { caption: long, headers: ["Plan", "Price"], rows: [["Plan A", "10"]], rowHeaderColumn: 0, sectionPath: ["Prices"] }),
      // Row headers marked by the format (<th>) on a first column of years: not inferable from Markdown.
      block("table", {
        caption: "By year",
        headers: ["Year", "Deductible"],
        rows: [
          ["2024", "5%"],
          ["2025", "6%"],
        ],
        rowHeaderColumn: 0,
        sectionPath: ["Prices"],
      }),
    ]);
    const markdown = renderMarkdown(document.blocks);
    expect(markdown).toContain(`<table>\n<caption>${long}</caption>\n<thead> <tr> <th>Plan</th> <th>Price</th> </tr> </thead>`);
    expect(markdown).toContain("<tr> <th>2024</th> <td>5%</td> </tr>");
    expect(reparsed(document).blocks).toEqual(document.blocks);
  });
});
