import { README_TABLES, type ReadmeTable, type Setting } from "./registry.js";

/**
 * The README's configuration tables, rendered from the settings registry. `npm run docs:config`
 * (scripts/docs-config.ts) writes them between their markers; test/docs/readme.test.ts fails when
 * the README holds anything else there.
 */

export const beginMarker = (table: ReadmeTable) => `<!-- config:begin ${table} -->`;
export const endMarker = (table: ReadmeTable) => `<!-- config:end ${table} -->`;

/** The default column: the schema's default as it is, the loader's derived default in words, or *(none)*. */
export function renderDefault(setting: Setting): string {
  if (setting.derivedDefault !== undefined) return setting.derivedDefault;
  const value: unknown = setting.schema.parse(undefined);
  return value === undefined ? "*(none)*" : `\`${String(value)}\``;
}

/** A markdown table of one README table's settings, in registry order, without a trailing newline. */
export function renderTable(table: ReadmeTable): string {
  const rows = Object.entries(README_TABLES[table]).map(([name, setting]: [string, Setting]) => {
    const cells = [`\`${name}\``, renderDefault(setting), setting.description];
    for (const cell of cells) {
      if (/[|\n]/u.test(cell)) throw new Error(`settings registry: ${name}: "${cell}" would break the README table (no | or line break)`);
    }
    return `| ${cells.join(" | ")} |`;
  });
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}

/** What the README holds between a table's markers (without the newlines next to them); null when a marker is missing. */
export function readmeTable(readme: string, table: ReadmeTable): string | null {
  const begin = readme.indexOf(beginMarker(table));
  const end = readme.indexOf(endMarker(table));
  if (begin < 0 || end < begin) return null;
  return readme
    .slice(begin + beginMarker(table).length, end)
    .replace(/^\n/u, "")
    .replace(/\n$/u, "");
}

/** The README with every table rewritten from the registry; throws when a table's markers are missing. */
export function updateReadme(readme: string): string {
  let updated = readme;
  for (const table of Object.keys(README_TABLES) as ReadmeTable[]) {
    const begin = updated.indexOf(beginMarker(table));
    const end = updated.indexOf(endMarker(table));
    if (begin < 0 || end < begin) throw new Error(`README.md: no ${beginMarker(table)} … ${endMarker(table)} pair`);
    updated = `${updated.slice(0, begin + beginMarker(table).length)}\n${renderTable(table)}\n${updated.slice(end)}`;
  }
  return updated;
}
