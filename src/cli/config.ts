import path from "node:path";
import { parseArgs } from "node:util";
import { BUNDLE_FILES, BundleError } from "../config/bundle.js";
import { loadBundle, type Bundle } from "../app/bundle.js";
import { resolveBundleDir } from "../config/config.js";
import type { CommandIo } from "./chat.js";

export const CONFIG_HELP = `Usage: frontdesk config validate [DIR]

Checks a config bundle (${BUNDLE_FILES.join(", ")}) exactly as start-up does
and prints every problem: a missing or unknown key, a placeholder the code does not pass, a
missing language, a role without prompts, an unknown model profile or model name.

Without DIR, checks the bundle in use: FRONTDESK_CONFIG_DIR, or the baseline shipped in the
package.

Exit status: 0 valid, 1 problems found, 2 usage error.
`;

function summary(bundle: Bundle): string {
  const models = [...new Set(Object.values(bundle.models.roles).map((profile) => bundle.models.profiles[profile]?.model))].join(", ");
  return `version ${bundle.version}; languages ${bundle.languages.join(", ")}; ${Object.keys(bundle.prompts).length} model roles on ${models}`;
}

/** `frontdesk config validate [DIR]`: the start-up check of the config bundle, on its own. */
export async function configCommand(argv: string[], io: CommandIo, cwd: string = process.cwd()): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === "help" || subcommand === "--help" || subcommand === "-h") {
    (subcommand === undefined ? io.stderr : io.stdout).write(CONFIG_HELP);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand !== "validate") {
    io.stderr.write(`frontdesk config: unknown subcommand "${subcommand}"\n\n${CONFIG_HELP}`);
    return 2;
  }
  const { values, positionals } = parseArgs({ args: rest, options: { help: { type: "boolean", short: "h" } }, allowPositionals: true, strict: true });
  if (values.help) {
    io.stdout.write(CONFIG_HELP);
    return 0;
  }
  if (positionals.length > 1) {
    io.stderr.write(`frontdesk config validate: one directory at most, got ${positionals.length}\n`);
    return 2;
  }
  const dir = positionals[0] !== undefined ? path.resolve(cwd, positionals[0]) : resolveBundleDir(io.env, cwd);
  try {
    const bundle = loadBundle(dir);
    io.stdout.write(`config bundle ${dir}: valid (${summary(bundle)})\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    io.stderr.write(`config bundle ${dir}: ${error.problems.length} problem(s)\n${error.problems.map((p) => `  - ${p}\n`).join("")}`);
    return 1;
  }
}
