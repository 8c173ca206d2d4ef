import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contentHash, parseDocumentBytes, toUnits, type ParsedDocument, type Unit } from "../../src/documents/index.js";

const FIXTURES = join(import.meta.dirname, "fixtures");

async function parseMarkdown(text: string): Promise<ParsedDocument> {
  const result = await parseDocumentBytes(new TextEncoder().encode(text), { mediaType: "text/markdown", source: "test.md" });
  if (result.kind !== "ok") throw new Error(result.reason);
  return result.document;
}

const FRONT = "---\nid: doc\ntitle: Doc\nproduct: travel\ndomain: travel\nlang: en\n---\n\n";

describe("unit ids", () => {
  it("are the document id and 12 hex digits of SHA-256 over kind and normalised text", async () => {
    const { units } = toUnits(await parseMarkdown(`${FRONT}Hello there.`));
    expect(units[0]?.id).toBe(`doc#${contentHash("paragraph", "Hello there.")}`);
    expect(contentHash("paragraph", "Hello there.")).toMatch(/^[0-9a-f]{12}$/u);
    // The same text as another kind of unit is a different unit.
    expect(contentHash("item", "Hello there.")).not.toBe(contentHash("paragraph", "Hello there."));
    // Normalised: Arabic yeh/kaf and Persian vs ASCII digits name the same unit.
    expect(contentHash("paragraph", "بيمه ۴۱")).toBe(contentHash("paragraph", "بیمه 41"));
  });

  it("survive an edit elsewhere; the edited unit gets a new id; nothing else moves", async () => {
    const original = await readFile(join(FIXTURES, "travel-en.md"), "utf8");
    const edited = original.replace("Children up to 12 years old pay half of the adult premium.", "Children up to 12 years old pay 40% of the adult premium.");
    expect(edited).not.toBe(original);
    const before = toUnits(await parseMarkdown(original)).units;
    const after = toUnits(await parseMarkdown(edited)).units;
    expect(after).toHaveLength(before.length);
    const changed = before.flatMap((unit, i) => (unit.id === after[i]?.id ? [] : [i]));
    expect(changed).toEqual([4]);
    expect(after[4]?.text).toBe("Children up to 12 years old pay 40% of the adult premium.");
    expect(before.map((unit) => unit.id)).not.toContain(after[4]?.id);
  });

  it("survive inserting a block before them (an index-based id would shift)", async () => {
    const original = await readFile(join(FIXTURES, "travel-en.md"), "utf8");
    const edited = original.replace("## Travel prices", "A new paragraph at the top.\n\n## Travel prices");
    const before = toUnits(await parseMarkdown(original)).units;
    const after = toUnits(await parseMarkdown(edited)).units;
    expect(after).toHaveLength(before.length + 1);
    expect(after.filter((unit) => unit.text !== "A new paragraph at the top.").map((unit) => [unit.id, unit.text])).toEqual(before.map((unit) => [unit.id, unit.text]));
    // The order index is kept apart from the id: it did shift.
    expect(after[2]?.order).toBe(2);
    expect(after[2]?.id).toBe(before[1]?.id);
  });

  it("an edited table cell changes only its row's id", async () => {
    const original = await readFile(join(FIXTURES, "travel-en.md"), "utf8");
    const edited = original.replace("| Plan B | 35 | 49 | 70 |", "| Plan B | 35 | 52 | 70 |");
    const before = toUnits(await parseMarkdown(original)).units;
    const after = toUnits(await parseMarkdown(edited)).units;
    const changed = before.flatMap((unit, i) => (unit.id === after[i]?.id ? [] : [unit.text]));
    expect(changed).toEqual(["Premium for one adult, in thousand rials — Plan B — Up to 7 days: 35; 8 to 15 days: 49; 16 to 31 days: 70"]);
  });

  it("repeated text in one document is told apart by occurrence", async () => {
    const { units } = toUnits(await parseMarkdown(`${FRONT}See the table.\n\nOther text.\n\nSee the table.\n\nSee the table.`));
    const hash = contentHash("paragraph", "See the table.");
    expect(units.map((unit) => unit.id)).toEqual([`doc#${hash}`, `doc#${contentHash("paragraph", "Other text.")}`, `doc#${hash}-2`, `doc#${hash}-3`]);
  });
});

describe("unit rendering and bounds", () => {
  it("splits a long paragraph at sentences into units of at most maxUnitChars", async () => {
    const sentence = (n: number): string => `Sentence number ${n} explains one more detail of the cover.`;
    const text = Array.from({ length: 6 }, (_, i) => sentence(i + 1)).join(" ");
    const { units } = toUnits(await parseMarkdown(`${FRONT}${text}`), { maxUnitChars: 130 });
    expect(units.map((unit) => unit.text)).toEqual([`${sentence(1)} ${sentence(2)}`, `${sentence(3)} ${sentence(4)}`, `${sentence(5)} ${sentence(6)}`]);
    for (const unit of units) expect(unit.text.length).toBeLessThanOrEqual(130);
  });

  it("a table without a label column renders header: value pairs; empty cells are left out of the text but kept in cells", async () => {
    const md = `${FRONT}## Deductibles\n\n| Year | Deductible | Note |\n| --- | --- | --- |\n| 2024 | 5% | |\n| 2025 | 10% | new rule |\n`;
    const { units } = toUnits(await parseMarkdown(md));
    expect(units.map((unit) => unit.text)).toEqual(["Deductibles — Year: 2024; Deductible: 5%", "Deductibles — Year: 2025; Deductible: 10%; Note: new rule"]);
    expect(units[0]).toMatchObject({
      kind: "row",
      table: "doc:t1",
      rowLabel: null,
      rowHeaderColumn: null,
      caption: "Deductibles",
      cells: [
        { header: "Year", value: "2024" },
        { header: "Deductible", value: "5%" },
        { header: "Note", value: "" },
      ],
    });
  });

  it("rows carry a key shared by their table: the document id and the table's position", async () => {
    const table = (label: string) => `| Plan | Price |\n| --- | --- |\n| ${label} | 10 |\n`;
    const md = `${FRONT}## Prices\n\n${table("Plan A")}\nBetween the tables.\n\n${table("Plan B")}`;
    const rows = toUnits(await parseMarkdown(md)).units.filter((unit) => unit.kind === "row");
    expect(rows.map((unit) => [unit.table, unit.rowLabel, unit.rowHeaderColumn])).toEqual([
      ["doc:t1", "Plan A", 0],
      ["doc:t2", "Plan B", 0],
    ]);
  });

  it("a row too long for one unit is split by cells, each piece keeping caption and row label", async () => {
    const headers = Array.from({ length: 8 }, (_, i) => `Duration band ${i + 1}`);
    const md = `${FRONT}## Prices\n\n| Plan | ${headers.join(" | ")} |\n| --- |${" --- |".repeat(8)}\n| Plan A | ${headers.map((_, i) => `${(i + 1) * 1000}`).join(" | ")} |\n`;
    const { units } = toUnits(await parseMarkdown(md), { maxUnitChars: 120 });
    expect(units.map((unit) => unit.text)).toEqual([
      "Prices — Plan A — Duration band 1: 1000; Duration band 2: 2000; Duration band 3: 3000; Duration band 4: 4000",
      "Prices — Plan A — Duration band 5: 5000; Duration band 6: 6000; Duration band 7: 7000; Duration band 8: 8000",
    ]);
    expect(new Set(units.map((unit) => unit.id)).size).toBe(2);
  });

  it("a nested list item keeps its parent as context; a list without a lead-in keeps its heading", async () => {
    const md = `${FRONT}## Baggage\n\n- Lost baggage\n  - checked in\n  - hand luggage\n- Delayed baggage\n`;
    const { units } = toUnits(await parseMarkdown(md));
    expect(units.map((unit) => unit.text)).toEqual([
      "Baggage — Lost baggage",
      "Baggage — Lost baggage — checked in",
      "Baggage — Lost baggage — hand luggage",
      "Baggage — Delayed baggage",
    ]);
    expect(units.every((unit): unit is Unit & { kind: "item" } => unit.kind === "item" && unit.leadIn === null)).toBe(true);
  });

  it("a numbered list keeps its numbers: its start, and nested details folded into their step", async () => {
    const md = `${FRONT}## How to claim\n\n3. Fill in the form\n   - with the policy number\n   - with the date of loss\n4. Send it\n`;
    const document = await parseMarkdown(md);
    expect(document.blocks).toEqual([
      {
        kind: "list",
        leadIn: null,
        ordered: true,
        start: 3,
        items: ["Fill in the form — with the policy number; with the date of loss", "Send it"],
        sectionPath: ["How to claim"],
        page: null,
      },
    ]);
    expect(toUnits(document).units.map((unit) => unit.text)).toEqual([
      "How to claim — 3. Fill in the form — with the policy number; with the date of loss",
      "How to claim — 4. Send it",
    ]);
    const html = `<h2>How to claim</h2><ol start="3"><li>Fill in the form<ul><li>with the policy number</li><li>with the date of loss</li></ul></li><li>Send it</li></ol>`;
    const fromHtml = await parseDocumentBytes(new TextEncoder().encode(html), {
      mediaType: "text/html",
      defaults: { id: "doc", title: "Doc", product: "travel", domain: "travel", lang: "en" },
    });
    expect(fromHtml.kind === "ok" && fromHtml.document.blocks).toEqual(document.blocks);
  });

  it("a lead-in paragraph of several sentences gives only its last sentence to the list", async () => {
    const md = `${FRONT}## Exclusions\n\nRead this carefully. The policy does not pay for:\n\n- war\n- riots\n`;
    const document = await parseMarkdown(md);
    expect(document.blocks).toEqual([
      { kind: "paragraph", text: "Read this carefully.", sectionPath: ["Exclusions"], page: null },
      { kind: "list", leadIn: "The policy does not pay for:", ordered: false, start: null, items: ["war", "riots"], sectionPath: ["Exclusions"], page: null },
    ]);
    expect(toUnits(document).units.map((unit) => unit.text)).toEqual([
      "Read this carefully.",
      "Exclusions — The policy does not pay for: war",
      "Exclusions — The policy does not pay for: riots",
    ]);
  });

  it("raw HTML blocks in markdown (a CMS's table, a definition list) are parsed, not dropped", async () => {
    const md = `${FRONT}## Limits\n\n<table><tr><th>Cover</th><th>Limit</th></tr><tr><td>Baggage</td><td>€500</td></tr></table>\n\n<!-- internal note -->\n\n<dl><dt>Deductible</dt><dd>5%</dd></dl>\n`;
    const { units } = toUnits(await parseMarkdown(md));
    expect(units.map((unit) => [unit.kind, unit.text])).toEqual([
      ["row", "Limits — Baggage — Limit: €500"],
      ["item", "Limits — Deductible: 5%"],
    ]);
  });

  it("stops at maxUnits with a warning that says so", async () => {
    const md = `${FRONT}${Array.from({ length: 10 }, (_, i) => `Paragraph ${i}.`).join("\n\n")}`;
    const { units, warnings } = toUnits(await parseMarkdown(md), { maxUnits: 4 });
    expect(units.map((unit) => unit.text)).toEqual(["Paragraph 0.", "Paragraph 1.", "Paragraph 2.", "Paragraph 3."]);
    expect(warnings).toEqual([{ code: "units-truncated", message: "document has more than 4 units; only the first 4 are indexed (maxUnits)" }]);
  });

  it("rejects nonsensical options at construction", async () => {
    const document = await parseMarkdown(`${FRONT}Text.`);
    expect(() => toUnits(document, { maxUnitChars: 10 })).toThrow("maxUnitChars must be an integer >= 40, got 10");
    expect(() => toUnits(document, { maxUnits: 0 })).toThrow("maxUnits must be a positive integer, got 0");
  });
});
