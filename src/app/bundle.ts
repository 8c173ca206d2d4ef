import type { AgentBundle } from "../agent/bundle.js";
import { parseAgentBundle } from "../agent/bundle.js";
import { BundleError, readBundle, zodProblems } from "../config/bundle.js";
import type { ModelBundle } from "../models/bundle.js";
import { parseModelBundle } from "../models/bundle.js";

/** The whole config bundle: the header and every owner's slice. */
export type Bundle = AgentBundle & ModelBundle;

/** Loads and validates the bundle in `dir`; throws BundleError listing every problem of every file. */
export function loadBundle(dir: string): Bundle {
  const raw = readBundle(dir);
  const agent = parseAgentBundle(
    {
      copy: raw.files["copy.json"],
      policy: raw.files["policy.json"],
      redaction: raw.files["redaction.json"],
      gates: raw.files["gates/model.json"],
      detector: raw.files["detector/model.json"],
    },
    raw.identity?.languages ?? ["fa", "en"],
    zodProblems,
  );
  const models = parseModelBundle({ prompts: raw.files["prompts.json"], models: raw.files["models.json"] }, zodProblems);
  const problems = [...raw.readProblems, ...raw.schemaProblems, ...agent.parseProblems, ...models.parseProblems, ...raw.identityProblems, ...agent.problems, ...models.problems];
  if (problems.length > 0 || raw.identity === null || agent.slice === null || models.slice === null) throw new BundleError(problems);
  return { ...raw.identity, ...agent.slice, ...models.slice };
}
