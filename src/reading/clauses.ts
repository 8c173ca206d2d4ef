import { analyze } from "../text/analysis/index.js";
import { asksSomething, splitSentences } from "../text/sentences.js";
import type { Taxonomy } from "../domain/taxonomy.js";
import { tenantForm } from "./evidence-terms.js";
import { labelMatch } from "./labels.js";
import type { QuestionAnalysis } from "./question.js";
import type { CellReading } from "./table.js";

type Cell = Extract<CellReading, { kind: "cell" }>;
type Column = Cell["column"];

/**
 * A message asking two things of one row ("What's the rate for a villa with a pool? And the
 * minimum?"): the other columns its further questions pick, each by its own words, in the row
 * the reader chose. A question sentence picks a column when one header alone matches it best;
 * a message of one question sentence asks one cell.
 */
export function alsoAskedColumns(reading: Cell, message: string, question: QuestionAnalysis, taxonomy: Taxonomy, weight: (term: string) => number): Column[] {
  const clauses = splitSentences(message).filter(asksSomething);
  if (clauses.length < 2) return [];
  const filled = reading.table.columns.filter((c) => reading.row.values.some((v) => v.column === c.column));
  const picked = new Set<number>([reading.column.column]);
  const out: Column[] = [];
  for (const clause of clauses) {
    const terms = [...new Set(analyze(clause).map((t) => tenantForm(taxonomy, t)))];
    if (terms.length === 0) continue;
    // Words only: the clause's ages and amounts already chose the row.
    const asked: QuestionAnalysis = { ...question, terms, quantities: [] };
    const scores = filled.map((c) => labelMatch(c.header, c.header, asked, new Set(terms), new Set(), weight));
    const best = Math.max(0, ...scores);
    const at = scores.flatMap((s, i) => (s === best ? [i] : []));
    if (best <= 0 || at.length !== 1) continue;
    const column = filled[at[0]!]!.column;
    if (picked.has(column)) continue;
    picked.add(column);
    const value = reading.row.values.find((v) => v.column === column);
    if (value !== undefined) out.push(value);
  }
  return out;
}
