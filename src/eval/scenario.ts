import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import { ESCALATION_REASONS } from "../domain/turn.js";

/**
 * The evaluation's scenario format: one conversation per JSONL line. Every turn states what a
 * careful insurer wants from it — the outcome (and the escalation reason), the documents an
 * answer must cite, strings that must and must not appear, the reply language — and, where two
 * outcomes are defensible, lists the others under `acceptable`.
 */

/**
 * What a turn came to, as the evaluation names it. `answer` is a grounded answer; chitchat and
 * out-of-scope replies are answers on the wire too, but a different decision.
 */
export const OUTCOMES = ["answer", "chitchat", "out_of_scope", "clarify", "escalate"] as const;
export type ExpectedOutcome = (typeof OUTCOMES)[number];

export const CATEGORIES = [
  "direct",
  "follow_up",
  "ambiguous",
  "handoff",
  "restricted",
  "out_of_scope",
  "chitchat",
  "unknown",
  "frustration",
  "account",
  "injection",
  "clarify_loop",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Categories issue 2's scenario suite must cover with strict conversations. */
export const STRICT_CATEGORIES: readonly Category[] = ["direct", "follow_up", "ambiguous", "handoff", "restricted", "out_of_scope", "chitchat", "unknown", "frustration"];

const DocumentId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/u, "a document id (lower case, digits, dashes)");
const Product = z.string().regex(/^[a-z0-9][a-z0-9-]*$/u, "a product key");
const NonBlank = z.string().refine((s) => s.trim() !== "", "must not be blank");

/** One defensible result of a turn. */
const VerdictShape = z
  .object({
    outcome: z.enum(OUTCOMES),
    /** Required for, and only for, an escalation. */
    reason: z.enum(ESCALATION_REASONS).optional(),
    /** Documents a grounded answer must cite (each at least once). */
    cite: z.array(DocumentId).default([]),
    /** Documents of which a grounded answer must cite at least one (several state the same fact). */
    citeAnyOf: z.array(DocumentId).default([]),
    /**
     * The answer must cite the document offered as this option (1-based) by the previous turn's
     * clarifying question: how a pick ("the second one") is checked without knowing the options
     * in advance.
     */
    citeOption: z.number().int().min(1).optional(),
    /** Documents an answer may cite besides `cite`; any other cited document is a citation error. */
    mayCite: z.array(DocumentId).default([]),
    /** Products a clarifying question must offer among its options. */
    options: z.array(Product).default([]),
    /** Strings the reply must contain (compared after folding: case, Persian letters and digits). */
    mustContain: z.array(NonBlank).default([]),
  })
  .strict();

type VerdictFields = z.output<typeof VerdictShape>;

function checkVerdict(v: VerdictFields, ctx: z.RefinementCtx): void {
  if ((v.outcome === "escalate") !== (v.reason !== undefined)) {
    ctx.addIssue({ code: "custom", path: ["reason"], message: "an escalation needs a reason, and only an escalation has one" });
  }
  if (v.outcome === "answer" && v.cite.length === 0 && v.citeAnyOf.length === 0 && v.citeOption === undefined) {
    ctx.addIssue({ code: "custom", path: ["cite"], message: "an expected answer names the documents it must cite (cite, citeAnyOf or citeOption)" });
  }
  if (v.outcome !== "answer" && (v.cite.length > 0 || v.citeAnyOf.length > 0 || v.citeOption !== undefined || v.mayCite.length > 0)) {
    ctx.addIssue({ code: "custom", path: ["cite"], message: "only a grounded answer cites documents" });
  }
  if (v.outcome !== "clarify" && v.options.length > 0) {
    ctx.addIssue({ code: "custom", path: ["options"], message: "only a clarifying question has options" });
  }
}

const VerdictSchema = VerdictShape.superRefine(checkVerdict);

const ExpectationSchema = VerdictShape.extend({
  /** The reply language: the result's language and the script of the reply text. */
  language: z.enum(["en", "fa"]),
  /** Strings no reply may contain, whatever the outcome. */
  mustNotContain: z.array(NonBlank).default([]),
  /** Other outcomes a careful insurer would accept for this turn. */
  acceptable: z.array(VerdictSchema).default([]),
  /**
   * The turn carries a prompt injection (in the user's text or in a document it retrieves);
   * any marker in the reply means the injected instruction was obeyed.
   */
  injection: z
    .object({ markers: z.array(NonBlank).min(1) })
    .strict()
    .optional(),
  /** Why this expectation: the corpus fact or the policy it rests on. */
  note: z.string().optional(),
})
  .strict()
  .superRefine(checkVerdict);

const TurnSchema = z.object({ user: NonBlank, expect: ExpectationSchema }).strict();

export const ScenarioSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/u, "lower case letters, digits and dashes, at most 64"),
    category: z.enum(CATEGORIES),
    description: NonBlank,
    /** Strict conversations are the table-driven scenario suite: every turn must pass in CI. */
    strict: z.boolean().default(false),
    /** Optional retrieval scope sent with every turn, as a caller would. */
    domain: z.string().min(1).optional(),
    /** Test-only documents (eval/fixtures) the conversation needs in the corpus. */
    fixtures: z.array(DocumentId).default([]),
    turns: z.array(TurnSchema).min(1),
  })
  .strict();

export type Verdict = z.output<typeof VerdictSchema>;
export type Expectation = z.output<typeof ExpectationSchema>;
export type ScenarioTurn = z.output<typeof TurnSchema>;
export type Scenario = z.output<typeof ScenarioSchema> & { source: string };

/** A scenario file that does not parse: every problem, each with its file, line and field. */
export class ScenarioError extends Error {
  override readonly name = "ScenarioError";
  constructor(readonly problems: string[]) {
    super(`invalid scenarios:\n  ${problems.join("\n  ")}`);
  }
}

/** Parses one JSONL text; `source` names it in error messages. */
export function parseScenarios(text: string, source: string): { scenarios: Scenario[]; problems: string[] } {
  const scenarios: Scenario[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/u).forEach((line, index) => {
    if (line.trim() === "") return;
    const where = `${source}:${index + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      problems.push(`${where}: not JSON (${(error as Error).message})`);
      return;
    }
    const parsed = ScenarioSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${where}: ${issue.path.join(".") || "(line)"}: ${issue.message}`);
      return;
    }
    scenarios.push({ ...parsed.data, source: where });
  });
  return { scenarios, problems };
}

/**
 * Loads scenarios from JSONL files (or gzip-compressed .jsonl.gz) and directories (every such
 * file inside, sorted), validates all of them, and checks that ids are unique. Throws
 * ScenarioError listing every problem.
 */
export async function loadScenarios(paths: readonly string[]): Promise<Scenario[]> {
  const files: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => null);
    if (info === null) throw new ScenarioError([`${p}: no such file or directory`]);
    if (info.isDirectory()) {
      const names = (await readdir(p)).filter((n) => n.endsWith(".jsonl") || n.endsWith(".jsonl.gz")).sort();
      files.push(...names.map((n) => path.join(p, n)));
    } else {
      files.push(p);
    }
  }
  const scenarios: Scenario[] = [];
  const problems: string[] = [];
  for (const file of files) {
    // A sealed half is stored gzip-compressed (eval/insurers/README.md).
    const bytes = await readFile(file);
    const text = file.endsWith(".gz") ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
    const result = parseScenarios(text, path.relative(process.cwd(), file) || file);
    scenarios.push(...result.scenarios);
    problems.push(...result.problems);
  }
  const seen = new Map<string, string>();
  for (const s of scenarios) {
    const first = seen.get(s.id);
    if (first !== undefined) problems.push(`${s.source}: id "${s.id}" already used at ${first}`);
    else seen.set(s.id, s.source);
  }
  if (problems.length > 0) throw new ScenarioError(problems);
  return scenarios;
}

/** Every defensible verdict of a turn: the expected one first. */
export function verdictsOf(expect: Expectation): Verdict[] {
  const { outcome, reason, cite, citeAnyOf, citeOption, mayCite, options, mustContain } = expect;
  const primary: Verdict = { outcome, cite, citeAnyOf, mayCite, options, mustContain };
  if (reason !== undefined) primary.reason = reason;
  if (citeOption !== undefined) primary.citeOption = citeOption;
  return [primary, ...expect.acceptable];
}
