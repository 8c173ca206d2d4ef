import type { Taxonomy } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import { termWeight } from "./evidence-terms.js";
import type { QuestionAnalysis } from "./question.js";
import { type CellReading, readTable, type Table } from "./table.js";

/**
 * What the customer's whole message says of a table's labels beyond the query: the row or column
 * a statement named ("I own a townhouse… what would it cost?"), the fuller label it said
 * ("non-smoker"). `said` is the message's analysed terms in the tenant's spelling.
 */

/**
 * A table that needs a row or column the question does not name, when the customer's whole message
 * names exactly one of the options, every word and number of it (or one of the words a slash joins):
 * "I own a townhouse… What would it cost?" said which row before it asked. A partial match ("4-cylinder saloon" for "saloon,
 * 6 cylinders") is no answer: the question is asked.
 */
export function resolvedByContext(table: Table, reading: CellReading, question: QuestionAnalysis, said: ReadonlySet<string> | null, taxonomy: Taxonomy): CellReading {
  if (reading.kind !== "needs" || said === null) return reading;
  const named = reading.options.filter((label) => labelSaid(label, said));
  if (named.length === 0) return byMeaning(table, reading, question, said, taxonomy);
  if (named.length !== 1) return reading;
  const again = readTable(table, { ...question, terms: [...new Set([...question.terms, ...analyze(named[0]!)])] }, (t) => termWeight(taxonomy, t));
  const label = again.kind === "cell" ? (reading.dimension === "row" ? again.row.label : again.column.header) : null;
  return label === named[0] ? again : reading;
}

/**
 * No option said word for word, but the message says one in other words ("a speeding ticket" is
 * a conviction): the table read with the whole message's words picks that one option alone, and
 * keeps the row or column the question had picked.
 */
function byMeaning(table: Table, reading: CellReading & { kind: "needs" }, question: QuestionAnalysis, said: ReadonlySet<string>, taxonomy: Taxonomy): CellReading {
  if (question.lexicon === undefined) return reading;
  const again = readTable(table, { ...question, terms: [...new Set([...question.terms, ...said])] }, (t) => termWeight(taxonomy, t));
  if (again.kind !== "cell") return reading;
  const picked = reading.dimension === "row" ? again.row.label : again.column.header;
  const kept = reading.row === undefined || again.row.label === reading.row.label;
  return reading.options.includes(picked) && kept ? again : reading;
}

/**
 * True when the words say every part of a label: each word of it, or one of the words a slash
 * joins ("Saloon / hatchback 4 cylinders" is said by "a 4-cylinder saloon").
 */
function labelSaid(label: string, said: ReadonlySet<string>): boolean {
  const groups: string[][] = [];
  let joined = false;
  for (const token of label.split(/\s+/u)) {
    if (token === "/") {
      joined = true;
      continue;
    }
    // "A/B" written without spaces is one group too.
    const parts = token
      .split("/")
      .map((p) => analyze(p))
      .filter((t) => t.length > 0);
    const words = parts.flat();
    if (words.length === 0) continue;
    if (joined && groups.length > 0) groups[groups.length - 1]!.push(...words);
    else groups.push(...(parts.length > 1 ? [words] : words.map((w) => [w])));
    joined = false;
  }
  return groups.length > 0 && groups.every((g) => g.some((w) => said.has(w)));
}

/**
 * A cell whose column (or row) was picked by the share of its label's words the question used,
 * when the customer's message said every word of a sibling label that holds all of the picked
 * one's words and more: "I'm a non-smoker… Term 20?" reads "Term 20 non-smoker", not the shorter
 * "Term 20 smoker" that the question's words alone favour.
 */
export function moreSpecific(table: Table, reading: CellReading, said: ReadonlySet<string> | null): CellReading {
  if (reading.kind !== "cell" || said === null) return reading;
  const words = (label: string) => new Set(analyze(label));
  const wider = (picked: string, labels: readonly string[]): string | null => {
    const own = words(picked);
    const found = labels.filter((l) => {
      const w = words(l);
      return w.size > own.size && [...own].every((t) => w.has(t)) && [...w].every((t) => said.has(t));
    });
    return found.length === 1 ? found[0]! : null;
  };
  const column = wider(
    reading.column.header,
    table.columns.map((c) => c.header),
  );
  if (column !== null) {
    const value = reading.row.values.find((v) => v.column === table.columns.find((c) => c.header === column)?.column);
    if (value !== undefined) return { ...reading, column: value };
  }
  const label = wider(
    reading.row.label,
    table.rows.map((r) => r.label),
  );
  const row = label === null ? undefined : table.rows.find((r) => r.label === label);
  const value = row?.values.find((v) => v.column === reading.column.column);
  return row !== undefined && value !== undefined ? { ...reading, row, column: value } : reading;
}
