import { crossScriptAliases, type Taxonomy } from "../domain/taxonomy.js";
import { analyze } from "../text/analysis/index.js";
import { ruledOutWords } from "../text/ruled-out.js";
import { type Candidate, unitOf } from "./candidates.js";
import { tenantForm } from "./evidence-terms.js";
import { termSet } from "./unit-terms.js";

/**
 * Plans and products a question names only to rule them out: "the regular one, not the plus",
 * «نه پلاس», "except Premier". Such a name is no word to find, and what names it answers another
 * question.
 */

/** Plan and product names the question rules out ("not the plus one"): labels or name terms of the tenant, analysed. */
export function ruledOut(query: string, taxonomy: Taxonomy): ReadonlySet<string> {
  const out = new Set<string>();
  const labels = new Set([...taxonomy.labelGroups.flat(), ...taxonomy.products.flatMap((p) => p.nameTerms)]);
  for (const word of ruledOutWords(query)) {
    for (const term of analyze(word)) {
      const own = tenantForm(taxonomy, term);
      if (!labels.has(own)) continue;
      out.add(own);
      for (const alias of crossScriptAliases(taxonomy, word).get(term) ?? []) out.add(alias);
    }
  }
  return out;
}

/** True when a candidate's own words, labels, caption or headings name one of the terms. */
export function namesAny(c: Candidate, terms: ReadonlySet<string>): boolean {
  const unit = unitOf(c);
  const own = c.kind === "table" ? [c.table.caption ?? "", ...(c.reading.kind === "cell" ? [c.reading.row.label, c.reading.column.header] : [])] : [c.text];
  return [...termSet([...own, ...unit.sectionPath].join(" "))].some((t) => terms.has(t));
}
