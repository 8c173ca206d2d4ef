import { describe, expect, it } from "vitest";
import { contentHash } from "../../../src/documents/index.js";
import { createChunker, searchableText } from "../../../src/retrieval/hybrid/chunker.js";
import { neighborsOf } from "../../../src/retrieval/hybrid/context-window.js";
import type { Chunk, SourceDocument } from "../../../src/retrieval/index.js";

const doc = (body: string, overrides: Partial<SourceDocument> = {}): SourceDocument => ({
  id: "motor-en",
  title: "Motor Insurance",
  product: "motor-tp",
  domain: "motor",
  lang: "en",
  tenantId: "acme",
  body,
  ...overrides,
});

const body = [
  "# Motor Insurance",
  "",
  "Intro line one.",
  "",
  "## Coverage",
  "",
  "Covers other people.",
  "",
  "### Glass",
  "",
  "Windshields are covered once a year.",
  "",
  "## Empty",
  "",
  "## Exclusions",
  "",
  "The policy does not pay for:",
  "",
  "- Racing.",
  "- Driving without a licence.",
  "",
  "## Deductibles",
  "",
  "| Cover | Deductible | Minimum |",
  "| --- | --- | --- |",
  "| Body | 10% | 5,000,000 rials |",
  "| Glass | 5% | |",
].join("\n");

describe("createChunker", () => {
  it("makes one chunk per unit: paragraphs, list items with their lead-in, table rows with caption and headers", () => {
    const chunks = createChunker().chunk(doc(body));
    expect(chunks.map((c) => [c.chunkIndex, c.section, c.unit.kind, c.text])).toEqual([
      [0, "", "paragraph", "Intro line one."],
      [1, "Coverage", "paragraph", "Covers other people."],
      [2, "Coverage > Glass", "paragraph", "Windshields are covered once a year."],
      [3, "Exclusions", "item", "Exclusions — The policy does not pay for: Racing."],
      [4, "Exclusions", "item", "Exclusions — The policy does not pay for: Driving without a licence."],
      [5, "Deductibles", "row", "Deductibles — Body — Deductible: 10%; Minimum: 5,000,000 rials"],
      [6, "Deductibles", "row", "Deductibles — Glass — Deductible: 5%"],
    ]);
    const [, , glass, racing, , body_, glassRow] = chunks;
    expect(glass).toMatchObject({
      chunkId: `motor-en#${contentHash("paragraph", "Windshields are covered once a year.")}`,
      sectionPath: ["Coverage", "Glass"],
      unit: { kind: "paragraph" },
    });
    expect(racing?.unit).toEqual({ kind: "item", leadIn: "The policy does not pay for:", item: "Racing." });
    expect(body_?.unit).toEqual({
      kind: "row",
      table: "motor-en:t1",
      caption: "Deductibles",
      rowLabel: "Body",
      cells: [
        { header: "Cover", value: "Body" },
        { header: "Deductible", value: "10%" },
        { header: "Minimum", value: "5,000,000 rials" },
      ],
      rowHeaderColumn: 0,
    });
    // An empty cell stays in the row's cells (verbatim), out of its text.
    expect(glassRow?.unit.kind === "row" && glassRow.unit.cells[2]).toEqual({ header: "Minimum", value: "" });
    for (const c of chunks) expect(c).toMatchObject({ documentId: "motor-en", tenantId: "acme", title: "Motor Insurance", product: "motor-tp", domain: "motor", lang: "en" });
  });

  it("keeps every id when another unit is edited, inserted or removed; the edited one gets a new id", () => {
    const chunker = createChunker();
    const before = chunker.chunk(doc(body));
    const edited = chunker.chunk(doc(`New first paragraph.\n\n${body.replace("Covers other people.", "Covers other people and their cars.").replace("- Racing.\n", "")}`));
    const beforeIds = new Map(before.map((c) => [c.chunkId, c.text]));
    const kept = edited.filter((c) => beforeIds.has(c.chunkId));
    expect(kept.map((c) => c.text)).toEqual(before.filter((c) => c.text !== "Covers other people." && !c.text.endsWith("Racing.")).map((c) => c.text));
    // An id that survives names the same text; the index (neighbours) moves.
    for (const c of kept) expect(beforeIds.get(c.chunkId)).toBe(c.text);
    expect(edited.find((c) => c.text === "Covers other people and their cars.")?.chunkId).not.toBe(before[1]?.chunkId);
  });

  it("splits a unit over maxChars at sentences, and keeps a repeated text apart by occurrence", () => {
    const sentence = "This sentence is exactly long enough to matter here.";
    const chunks = createChunker({ maxChars: 120 }).chunk(doc(`## S\n\n${sentence} ${sentence} ${sentence}`, { title: "T" }));
    expect(chunks.map((c) => c.text)).toEqual([`${sentence} ${sentence}`, sentence]);
    const repeated = createChunker().chunk(doc("Same.\n\nOther.\n\nSame.", { title: "T" }));
    expect(repeated.map((c) => c.chunkId)).toEqual([
      `motor-en#${contentHash("paragraph", "Same.")}`,
      `motor-en#${contentHash("paragraph", "Other.")}`,
      `motor-en#${contentHash("paragraph", "Same.")}-2`,
    ]);
  });

  it("bounds tables and units, and says so", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `| Row ${i} | ${i} |`).join("\n");
    const { chunks, warnings } = createChunker({ maxTableRows: 10, maxUnits: 8 }).analyze(doc(`Intro.\n\n| Name | Value |\n| --- | --- |\n${rows}`, { title: "T" }));
    expect(chunks).toHaveLength(8);
    expect(warnings.map((w) => w.code)).toEqual(["table-truncated", "units-truncated"]);
  });

  it("is deterministic, and refuses sizes it cannot work with", () => {
    const chunker = createChunker();
    expect(chunker.chunk(doc(body))).toEqual(chunker.chunk(doc(body)));
    expect(() => createChunker({ maxChars: 10 })).toThrow(RangeError);
    expect(() => createChunker({ maxTableRows: 0 })).toThrow(RangeError);
    expect(() => createChunker({ maxUnits: 0 })).toThrow(RangeError);
  });
});

describe("searchableText", () => {
  it("is the title, the product's slug words, the heading path, then the unit's text", () => {
    const [intro, , glass] = createChunker().chunk(doc(body));
    expect(intro && searchableText(intro)).toBe("Motor Insurance\nmotor tp\nIntro line one.");
    expect(glass && searchableText(glass)).toBe("Motor Insurance\nmotor tp\nCoverage > Glass\nWindshields are covered once a year.");
  });
});

describe("neighborsOf", () => {
  const rows = Array.from({ length: 12 }, (_, i) => `| Plan ${i} | ${i} |`).join("\n");
  const chunks: Chunk[] = createChunker().chunk(
    doc(`## A\n\nBefore.\n\n| Plan | Price |\n| --- | --- |\n${rows}\n\nAfter.\n\n| Other | Price |\n| --- | --- |\n| X | 1 |`, { title: "T" }),
  );
  const byText = (prefix: string): Chunk => chunks.find((c) => c.text.startsWith(prefix))!;

  it("gives a row the other rows of its table (the nearest ones up to tableRows), a paragraph its ± window and any table the window reaches into", () => {
    const hit = byText("A — Plan 5 —");
    const all = neighborsOf(hit, chunks, { window: 1, tableRows: 40 });
    expect(all.map((c) => c.text.split(" — ")[1])).toEqual(["Plan 0", "Plan 1", "Plan 2", "Plan 3", "Plan 4", "Plan 6", "Plan 7", "Plan 8", "Plan 9", "Plan 10", "Plan 11"]);
    expect(neighborsOf(hit, chunks, { window: 1, tableRows: 4 }).map((c) => c.text.split(" — ")[1])).toEqual(["Plan 3", "Plan 4", "Plan 6", "Plan 7"]);
    expect(neighborsOf(hit, chunks, { window: 1, tableRows: 0 })).toEqual([]);
    // The other table, and the paragraphs around, are not this table.
    expect(all.some((c) => c.text === "Before." || c.text === "After." || c.text.includes("X"))).toBe(false);
    const after = neighborsOf(byText("After."), chunks, { window: 1, tableRows: 40 }).map((c) => c.text);
    // The window reaches table A's last row and table X's first: both tables come whole.
    expect(after.filter((t) => t.startsWith("A — Plan"))).toHaveLength(12);
    expect(after.filter((t) => t.includes("X"))).toEqual(["A — X — Price: 1"]);
    expect(neighborsOf(byText("After."), chunks, { window: 1, tableRows: 2 }).map((c) => c.text)).toEqual([
      "A — Plan 10 — Price: 10",
      "A — Plan 11 — Price: 11",
      "A — X — Price: 1",
    ]);
    expect(neighborsOf(byText("After."), chunks, { window: 0, tableRows: 40 })).toEqual([]);
  });
});
