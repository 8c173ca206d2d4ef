import { describe, expect, it } from "vitest";
import { layoutPages, type PageItem } from "../../src/documents/pdf-layout.js";

/** A text run at (x, y); width as a proportional font would give it (half an em per character). */
function run(text: string, x: number, y: number, size = 12, width = text.length * size * 0.5): PageItem {
  return { text, x, y, width, size };
}

/** A right-to-left run that ends (on its right) at `right`. */
function rtl(text: string, right: number, y: number, size = 12): PageItem {
  const width = text.length * size * 0.5;
  return run(text, right - width, y, size, width);
}

describe("PDF layout", () => {
  it("headings by size, paragraphs by line spacing, lists by markers with continuation lines", () => {
    const page = [
      run("Motor insurance", 50, 800, 24),
      run("The policy pays for damage to your car", 50, 770),
      run("and to other people's property.", 50, 756),
      run("A second paragraph starts after a wider gap.", 50, 735),
      run("Cover", 50, 705, 18),
      run("We pay for:", 50, 685),
      run("•", 60, 671),
      run("fire and theft of the car, including", 72, 671),
      run("parts stolen from it;", 72, 657),
      run("•", 60, 643),
      run("glass breakage.", 72, 643),
      run("1. Report the claim.", 60, 620),
      run("2. Send the documents.", 60, 606),
    ];
    expect(layoutPages([page])).toEqual([
      { kind: "heading", level: 1, text: "Motor insurance", page: 1 },
      { kind: "paragraph", text: "The policy pays for damage to your car and to other people's property.", emphasized: false, page: 1 },
      { kind: "paragraph", text: "A second paragraph starts after a wider gap.", emphasized: false, page: 1 },
      { kind: "heading", level: 2, text: "Cover", page: 1 },
      { kind: "paragraph", text: "We pay for:", emphasized: false, page: 1 },
      { kind: "list", ordered: false, start: null, items: ["fire and theft of the car, including parts stolen from it;", "glass breakage."], page: 1 },
      { kind: "list", ordered: true, start: 1, items: ["Report the claim.", "Send the documents."], page: 1 },
    ]);
  });

  it("a table: lines whose runs fall into aligned columns; a short row is placed by position", () => {
    const page = [
      run("Lines of body text so that twelve points is the body size.", 50, 800),
      run("Plan", 50, 770),
      run("7 days", 200, 770),
      run("15 days", 350, 770),
      run("Plan A", 50, 754),
      run("29", 210, 754),
      run("41", 360, 754),
      run("Plan B", 50, 738),
      run("49", 360, 738),
    ];
    expect(layoutPages([page])[1]).toEqual({
      kind: "table",
      caption: null,
      headerRows: [["Plan", "7 days", "15 days"]],
      bodyRows: [
        ["Plan A", "29", "41"],
        ["Plan B", "", "49"],
      ],
      rowHeaderColumn: null,
      mergedCells: false,
      page: 1,
    });
  });

  it("a wrapped cell (a one-run line clear of the first column) stays in its table", () => {
    const page = [
      run("Lines of body text so that twelve points is the body size.", 50, 800),
      run("Cover", 50, 770),
      run("What is paid", 200, 770),
      run("Fire", 50, 754),
      run("Repair or rebuilding of the home,", 200, 754),
      run("at today's prices", 200, 740),
      run("and the architect's fees", 200, 726),
      run("Theft", 50, 710),
      run("Stolen contents", 200, 710),
      run("A paragraph after the table.", 50, 676),
    ];
    expect(layoutPages([page]).slice(1)).toEqual([
      {
        kind: "table",
        caption: null,
        headerRows: [["Cover", "What is paid"]],
        bodyRows: [
          ["Fire", "Repair or rebuilding of the home,"],
          ["", "at today's prices"],
          ["", "and the architect's fees"],
          ["Theft", "Stolen contents"],
        ],
        rowHeaderColumn: null,
        mergedCells: false,
        page: 1,
      },
      { kind: "paragraph", text: "A paragraph after the table.", emphasized: false, page: 1 },
    ]);
  });

  it("right-to-left: runs and columns read from the right, a zero-width split between letters is a ZWNJ", () => {
    const page = [
      // "می‌پردازد" split at its ZWNJ into two touching runs; "۱۲" a run of its own.
      rtl("کودکان تا", 500, 800),
      rtl("۱۲", 442, 800),
      rtl("سال می", 426, 800),
      rtl("پردازند.", 390, 800),
      rtl("طرح", 500, 770),
      rtl("تا ۷ روز", 380, 770),
      rtl("طرح الف", 500, 754),
      rtl("۲۹", 380, 754),
    ];
    expect(layoutPages([page])).toEqual([
      { kind: "paragraph", text: "کودکان تا ۱۲ سال می\u200Cپردازند.", emphasized: false, page: 1 },
      { kind: "table", caption: null, headerRows: [["طرح", "تا ۷ روز"]], bodyRows: [["طرح الف", "۲۹"]], rowHeaderColumn: null, mergedCells: false, page: 1 },
    ]);
  });

  it("drops running headers and page numbers, and joins a table cut by a page break (its repeated header dropped)", () => {
    const pages = [1, 2, 3].map((n) => [
      run("Arman Insurance — Travel", 50, 820, 10),
      ...(n === 1 ? [run("Prices for one adult in thousand rials, by plan and by trip length.", 50, 790)] : []),
      run("Plan", 50, 760),
      run("Premium", 300, 760),
      run(`Plan ${n}A`, 50, 744),
      run(`${n}0`, 300, 744),
      run(`Plan ${n}B`, 50, 728),
      run(`${n}5`, 300, 728),
      run(`Page ${n} of 3`, 250, 30, 10),
    ]);
    expect(layoutPages(pages)).toEqual([
      { kind: "paragraph", text: "Prices for one adult in thousand rials, by plan and by trip length.", emphasized: false, page: 1 },
      {
        kind: "table",
        caption: null,
        headerRows: [["Plan", "Premium"]],
        bodyRows: [
          ["Plan 1A", "10"],
          ["Plan 1B", "15"],
          ["Plan 2A", "20"],
          ["Plan 2B", "25"],
          ["Plan 3A", "30"],
          ["Plan 3B", "35"],
        ],
        rowHeaderColumn: null,
        mergedCells: false,
        page: 1,
      },
    ]);
  });

  it("no lines, no blocks", () => {
    expect(layoutPages([[], []])).toEqual([]);
  });
});
