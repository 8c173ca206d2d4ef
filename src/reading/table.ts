import { termSet } from "./unit-terms.js";
import { foldForMatch } from "../text/normalize.js";
import { judgeable, parseInterval, quantityFits, unitHint, type Quantity } from "../text/quantities.js";
import { ATTRIBUTES, speaksOf } from "./attributes.js";
import { labelMatch, sharedConcepts } from "./labels.js";
import type { QuestionAnalysis } from "./question.js";
import { deniedTest, splitsOnDenial } from "./negation.js";
import type { ReadingUnit } from "./types.js";

/**
 * Reading a table: pick the row and the column that satisfy the question's constraints — a
 * quantity inside a row's or a column's interval ("10 days" in "8–15 days"), or the words of a
 * label ("premier", «طلایی») — and answer with that cell and its labels. When the table needs a
 * constraint the question does not give (the plan, the age band), say which, with the table's
 * own labels as the options. When no row matches, say so: never guess a neighbouring row.
 */

export interface TableRow {
  unit: ReadingUnit;
  label: string;
  /** Value cells: every cell but the row label's. */
  values: ReadonlyArray<{ header: string; value: string; column: number }>;
}

export interface Table {
  key: string;
  documentId: string;
  caption: string | null;
  /** Headers of the value columns, in order. */
  columns: ReadonlyArray<{ header: string; column: number }>;
  rowHeader: string;
  rows: TableRow[];
  /** The rows' best retrieval score: how relevant retrieval found the table. */
  score: number;
  sample: ReadingUnit;
}

export type CellReading =
  | {
      kind: "cell";
      table: Table;
      row: TableRow;
      column: { header: string; value: string; column: number };
      rowMatched: boolean;
      columnMatched: boolean;
      /** The question's quantities the chosen row's and column's intervals hold (a label matched by words holds none). */
      quantitiesHeld: number;
    }
  /** The question does not say which row (or column); options are the table's own labels. */
  | { kind: "needs"; table: Table; dimension: "row" | "column"; header: string; options: string[]; row?: TableRow }
  /** The question's constraint matches no row (or column) of the table: do not guess. */
  | { kind: "no_match"; table: Table; dimension: "row" | "column" };

// An empty cell, or one saying the column does not apply to the row ("n/a", "—"): no value to read.
const NO_VALUE = /^(?:|n\/?a|n\.a\.|—|–|-|not applicable|not available|not offered|غیرقابل اعمال|ندارد)$/iu;

/** Rebuilds the tables of the evidence from its row units (each row once, in document order). */
export function tablesOf(units: readonly ReadingUnit[]): Table[] {
  const tables = new Map<string, Table>();
  const seen = new Set<string>();
  for (const unit of units) {
    if (unit.shape.kind !== "row" || seen.has(unit.chunkId)) continue;
    seen.add(unit.chunkId);
    const shape = unit.shape;
    // Without a marked row header, the first column names the row ("80,001–150,000", "1–7 days"),
    // as a reader takes it.
    const rh = shape.rowHeaderColumn ?? (shape.cells.length >= 2 ? 0 : null);
    const label = shape.rowLabel ?? (rh !== null ? (shape.cells[rh]?.value ?? "") : "");
    const values = shape.cells.map((c, column) => ({ ...c, column })).filter((c) => c.column !== rh && !NO_VALUE.test(c.value.trim()));
    let table = tables.get(shape.table);
    if (table === undefined) {
      table = {
        key: shape.table,
        documentId: unit.documentId,
        caption: shape.caption,
        columns: shape.cells.map((c, column) => ({ header: c.header, column })).filter((c) => c.column !== rh),
        rowHeader: rh !== null ? (shape.cells[rh]?.header ?? "") : "",
        rows: [],
        score: unit.score,
        sample: unit,
      };
      tables.set(shape.table, table);
    }
    table.score = Math.max(table.score, unit.score);
    table.rows.push({ unit, label, values });
  }
  return [...tables.values()];
}

// A label's terms are looked up, not recomputed, on every turn that reads its table.
const termsOf = termSet;

/**
 * Of nested labels ("Villa", "Villa with private pool"), the one saying more of the question's
 * words: the best-scored label's words the question says, all said by another label with more
 * of them, make that one the row ("villa with a pool" is not the plain villa, though "Villa" is
 * all said). The widest such label, when one is.
 */
function wider(rows: ReadonlyArray<{ score: number; matched: ReadonlySet<string> }>, best: number | null): number | null {
  if (best === null || rows[best]!.matched.size === 0) return best;
  const base = rows[best]!.matched;
  const supersets = rows.flatMap((r, i) => (i !== best && r.matched.size > base.size && [...base].every((t) => r.matched.has(t)) ? [i] : []));
  if (supersets.length === 0) return best;
  const widest = Math.max(...supersets.map((i) => rows[i]!.matched.size));
  const at = supersets.filter((i) => rows[i]!.matched.size === widest);
  return at.length === 1 ? at[0]! : best;
}

/** True when a set of labels is a dimension the question must pick from (ranges or names), not free text. */
function isDimension(labels: readonly string[]): boolean {
  if (labels.length < 2) return false;
  return labels.every((l) => l.trim() !== "" && foldForMatch(l).length <= 60);
}

/** Reads one table for the question. */
export function readTable(table: Table, question: QuestionAnalysis, weight: (term: string) => number = () => 1): CellReading {
  const questionTerms = new Set([...question.terms, ...[...(question.aliases?.values() ?? [])].flat()]);
  const questionWeight = question.terms.filter((t) => !/\d/u.test(t)).reduce((sum, t) => sum + weight(t), 0);
  // What the row labels measure: their column's header says it best ("Device price (AED)"),
  // the caption only when it does not ("… by trip length").
  const contextHint = unitHint(table.rowHeader) !== null ? table.rowHeader : `${table.rowHeader} ${table.caption ?? ""}`;

  // Columns first: plan names and ranges in headers rarely collide with row labels. A header
  // naming the asked attribute ("Hours", "Excess") is the asked column.
  const main = question.asked[0];
  const columnQuantities = new Set<Quantity>();
  // Headers of one table measure one thing: "Driver 18–24 | 25–29 | 60 years and over" are all ages,
  // though only one says so. A header's own word wins, then its siblings', then the caption's.
  const siblingHints = [...new Set(table.columns.map((c) => unitHint(c.header)).filter((h) => h !== null))];
  const sibling = siblingHints.length === 1 ? table.columns.find((c) => unitHint(c.header) !== null)!.header : null;
  // How many quantities each column's interval took: a header matched by words holds none.
  const columnHeld: number[] = [];
  const denied = deniedTest(question.denied, question.lexicon);
  const columnDenied = denied !== null && splitsOnDenial(table.columns.map((c) => c.header)) ? denied : null;
  const rowDenied = denied !== null && splitsOnDenial(table.rows.map((r) => r.label)) ? denied : null;
  const columnShared = sharedConcepts(
    table.columns.map((c) => c.header),
    question,
    questionTerms,
  );
  const columnScores = table.columns.map((c) => {
    // A caption's currency or percent says what the cells hold ("premium (AED)"), not the headers.
    const captionHint = unitHint(table.caption ?? "");
    const hintText = unitHint(c.header) !== null ? c.header : (sibling ?? (captionHint === "days" || captionHint === "age" ? `${c.header} ${table.caption ?? ""}` : c.header));
    const before = columnQuantities.size;
    const score = labelMatch(c.header, hintText, question, questionTerms, columnQuantities, weight, 0, columnDenied, columnShared);
    columnHeld.push(columnQuantities.size - before);
    // Below a word the question shares with a header ("annual" picks "Annual" of Monthly | Annual);
    // of two headers naming the asked attribute, the one sharing more of the question's words.
    return main !== undefined && speaksOf(termsOf(c.header), main) ? Math.max(score, 0.5 + score / 2) : score;
  });
  const rowQuantities = new Set<Quantity>(columnQuantities);
  const rowShared = sharedConcepts(
    table.rows.map((r) => r.label),
    question,
    questionTerms,
  );
  const rowScores = table.rows.map((r) => {
    const used = new Set(rowQuantities);
    const matched = new Set<string>();
    const score = labelMatch(r.label, contextHint, question, questionTerms, used, weight, questionWeight, rowDenied, rowShared, matched);
    return { score, used, matched };
  });

  const pick = (scores: readonly number[]): number | null => {
    const best = Math.max(0, ...scores);
    if (best <= 0) return null;
    const winners = scores.map((s, i) => (s === best ? i : -1)).filter((i) => i >= 0);
    return winners.length === 1 ? winners[0]! : null;
  };

  let columnIndex: number | null = table.columns.length === 1 ? 0 : pick(columnScores);
  const columnMatched = table.columns.length > 1 && columnIndex !== null;
  // One row seen is still read against the question: "Above 500,000" is not the row of 150,000.
  const lone = table.rows.length === 1 && !contradicts(table.rows[0]!.label, contextHint, question);
  const rowIndex: number | null = lone ? 0 : wider(rowScores, toldByRow(table.rows, rowScores, pick(rowScores.map((r) => r.score)), questionTerms, weight));
  // Quantities the picked column's interval holds, then the picked row's.
  const held = (columnIndex === null ? 0 : columnHeld[columnIndex]!) + (rowIndex === null ? 0 : rowScores[rowIndex]!.used.size - rowQuantities.size);
  const rowMatched = table.rows.length > 1 && rowIndex !== null;

  // A table asked to pick a row or column must have a place for every stated amount, age or
  // trip length: a benefits grid cannot say what a 3-week trip costs, however its rows read.
  const placed = (q: Quantity) =>
    table.rows.some((r) => intervalTakes(r.label, contextHint, q)) ||
    table.columns.some((c) => intervalTakes(c.header, unitHint(c.header) !== null ? c.header : (sibling ?? `${c.header} ${table.caption ?? ""}`), q));
  const unplaced = question.quantities.some((q) => judgeable(q) && !placed(q));
  if (rowIndex === null) {
    const labels = table.rows.map((r) => r.label);
    if (unplaced) return { kind: "no_match", table, dimension: "row" };
    const statedQuantity = question.quantities.some((q) => labels.some((l) => parseInterval(l, unitHint(contextHint))?.unit === kindUnit(q)));
    if (statedQuantity) return { kind: "no_match", table, dimension: "row" };
    if (!isDimension(labels)) return { kind: "no_match", table, dimension: "row" };
    return { kind: "needs", table, dimension: "row", header: table.rowHeader, options: labels };
  }
  const row = table.rows[rowIndex]!;
  if (columnIndex === null) {
    // A row with only some columns filled: pick among those.
    const filled = table.columns.filter((c) => row.values.some((v) => v.column === c.column));
    // Only among headers that all name the asked attribute: a "Refund" cell mentioning days is no deadline.
    const asking = main === undefined ? [] : filled.filter((c) => speaksOf(termsOf(c.header), main));
    const told = asking.length === filled.length ? toldByCell(row, asking, questionTerms, weight) : null;
    if (filled.length === 1) columnIndex = table.columns.indexOf(filled[0]!);
    else if (told !== null) columnIndex = table.columns.indexOf(told);
    else if (!unplaced && filled.length > 1 && sameValue(row, filled)) {
      // Every plan says the same ("Water damage | AED 1,000 | AED 1,000"): the choice changes nothing.
      const first = row.values.find((v) => v.column === filled[0]!.column)!;
      const header = filled.map((c) => c.header.trim()).join(" / ");
      return { kind: "cell", table, row, column: { ...first, header }, rowMatched, columnMatched: false, quantitiesHeld: held };
    } else if (!unplaced && isDimension(filled.map((c) => c.header))) return { kind: "needs", table, dimension: "column", header: "", options: filled.map((c) => c.header), row };
    else return { kind: "no_match", table, dimension: "column" };
  }
  const wanted = table.columns[columnIndex]!;
  const value = row.values.find((v) => v.column === wanted.column);
  if (value === undefined) return { kind: "no_match", table, dimension: "column" };
  return { kind: "cell", table, row, column: value, rowMatched, columnMatched, quantitiesHeld: held };
}

/**
 * Of rows whose labels say the same words of the question ("Multi-line", "Multi-vehicle" both say
 * "multi" of a multi-policy discount), the one whose cells say most of its other words ("You also
 * hold a HarbourNest renters … policy"): how rare each label's unsaid word is does not choose
 * between them. The best-scored row otherwise, or when no cell or several say most.
 */
function toldByRow(
  rows: readonly TableRow[],
  scores: ReadonlyArray<{ score: number; matched: ReadonlySet<string> }>,
  best: number | null,
  questionTerms: ReadonlySet<string>,
  weight: (term: string) => number,
): number | null {
  const top = Math.max(0, ...scores.map((r) => r.score));
  if (top <= 0) return best;
  const lead = best ?? scores.findIndex((r) => r.score === top);
  const words = scores[lead]!.matched;
  if (words.size === 0) return best;
  const same = (a: ReadonlySet<string>) => a.size === words.size && [...a].every((t) => words.has(t));
  const tied = scores.flatMap((r, i) => (r.score > 0 && same(r.matched) ? [i] : []));
  if (tied.length < 2) return best;
  const k = soleMost(tied.map((i) => saidWeight(rows[i]!.values.map((v) => v.value).join(" "), rows[i]!, questionTerms, weight)));
  return k === null ? best : tied[k]!;
}

/**
 * Of a row's columns whose headers all name the asked attribute and which the question does not
 * choose between ("Tell us within | Other time limits"), the one whose cell says most of the question's words ("reimbursement claims
 * within 60 days" for a reimbursement claim); null when none or several say most.
 */
function toldByCell<C extends { column: number }>(row: TableRow, columns: readonly C[], questionTerms: ReadonlySet<string>, weight: (term: string) => number): C | null {
  const k = soleMost(columns.map((c) => saidWeight(row.values.find((v) => v.column === c.column)?.value ?? "", row, questionTerms, weight)));
  return k === null ? null : columns[k]!;
}

/** How much of the question a row's cell text says beyond its label's words (words only, by rarity). */
function saidWeight(text: string, row: TableRow, questionTerms: ReadonlySet<string>, weight: (term: string) => number): number {
  const label = termsOf(row.label);
  return [...termsOf(text)].filter((t) => questionTerms.has(t) && !label.has(t) && !/\d/u.test(t)).reduce((sum, t) => sum + weight(t), 0);
}

/** The index of the one greatest positive weight; null when none is positive or several share it. */
function soleMost(weights: readonly number[]): number | null {
  const most = Math.max(0, ...weights);
  const at = weights.flatMap((w, i) => (w === most ? [i] : []));
  return most > 0 && at.length === 1 ? at[0]! : null;
}

/** True when the row holds one and the same value under every one of the columns. */
function sameValue(row: TableRow, columns: readonly { column: number }[]): boolean {
  const values = columns.map((c) => foldForMatch(row.values.find((v) => v.column === c.column)?.value ?? "").trim());
  return !NO_VALUE.test(values[0]!) && values.every((v) => v === values[0]);
}

/**
 * The row a question picked, when the columns it did not pick are the row's fields rather than
 * alternatives: each header names another attribute ("Number | Hours" of a phone line), so the
 * whole row is the answer ("Do you have a TTY line?"). Headers naming no attribute or the same one
 * ("Basic | Plus", "Monthly | Annual") are alternatives the customer must choose from.
 */
export function recordRow(reading: CellReading): TableRow | null {
  if (reading.kind !== "needs" || reading.dimension !== "column" || reading.row === undefined) return null;
  const kinds = reading.options.map((header) => {
    const terms = termsOf(header);
    return ATTRIBUTES.filter((a) => speaksOf(terms, a));
  });
  if (kinds.some((k) => k.length !== 1)) return null;
  return new Set(kinds.map((k) => k[0])).size === kinds.length ? reading.row : null;
}

/** True when a label is an interval that measures what the quantity measures (whether or not it holds it). */
function intervalTakes(label: string, hint: string, q: Quantity): boolean {
  const interval = parseInterval(label, unitHint(hint));
  return interval !== null && interval.unit === q.kind && !(interval.lo === interval.hi && unitHint(label) === null);
}

/**
 * "dad is 63, mum 58": the same column's cell in the row holding each other stated quantity of the
 * kind the picked row's label measures, one per quantity the picked row does not hold (and only
 * where exactly one row holds it). Empty when the question states one such quantity.
 */
export function rowsOfOtherQuantities(reading: Extract<CellReading, { kind: "cell" }>, question: QuestionAnalysis): Array<Extract<CellReading, { kind: "cell" }>> {
  const { table } = reading;
  const hint = unitHint(table.rowHeader) !== null ? table.rowHeader : `${table.rowHeader} ${table.caption ?? ""}`;
  const interval = (row: TableRow) => parseInterval(row.label, unitHint(hint));
  const picked = interval(reading.row);
  if (picked === null || picked.unit === null) return [];
  const out: Array<Extract<CellReading, { kind: "cell" }>> = [];
  const used = new Set<TableRow>([reading.row]);
  for (const q of question.quantities) {
    if (q.kind !== picked.unit || quantityFits(q, picked)) continue;
    const holding = table.rows.filter((r) => !used.has(r) && intervalTakes(r.label, hint, q) && quantityFits(q, interval(r)!));
    const value = holding.length === 1 ? holding[0]!.values.find((v) => v.column === reading.column.column) : undefined;
    if (value === undefined) continue;
    used.add(holding[0]!);
    out.push({ ...reading, row: holding[0]!, column: value });
  }
  return out;
}

/** True when a label is an interval of a kind the question states, and the stated quantity falls outside it. */
function contradicts(label: string, hint: string, question: QuestionAnalysis): boolean {
  const interval = parseInterval(label, unitHint(hint));
  if (interval === null || interval.unit === null) return false;
  const stated = question.quantities.filter((q) => q.kind === interval.unit);
  return stated.length > 0 && !stated.some((q) => quantityFits(q, interval));
}

function kindUnit(q: Quantity): string | null {
  return q.kind === "count" ? null : q.kind;
}

/** The cell with its labels, verbatim: "<caption> — <row label> — <header>: <value>". */
/** "caption — row — header: value", with the further cells a message asked of the row after the first ("; header: value"). */
export function renderCell(reading: Extract<CellReading, { kind: "cell" }>, also: ReadonlyArray<{ header: string; value: string }> = []): string {
  const parts = [reading.table.caption, reading.row.label].filter((p): p is string => p !== null && p.trim() !== "");
  const cell = (c: { header: string; value: string }) => (c.header.trim() === "" ? c.value : `${c.header}: ${c.value}`);
  return [...parts, [reading.column, ...also].map(cell).join("; ")].join(" — ");
}
