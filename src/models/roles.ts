import { z } from "zod";
import type { HistoryLine } from "../domain/conversation.js";
import { UserProfileSchema, type UserProfile } from "../domain/profile.js";
import type { Language } from "../text/language.js";

/**
 * One typed, schema-validated output per model role. Every provider's output is parsed with
 * these schemas; output that fails its schema is a ModelError of kind "malformed_output".
 */

export const ROLES = ["triage", "contextualize", "grade", "clarify", "generate", "verify", "extract_memory"] as const;
export type Role = (typeof ROLES)[number];

export const INTENTS = ["chitchat", "knowledge", "account", "handoff_request", "out_of_scope"] as const;
export type Intent = (typeof INTENTS)[number];

export const TriageOutputSchema = z.object({
  intent: z.enum(INTENTS),
  confidence: z.number().min(0).max(1),
});

export const ContextualizeOutputSchema = z.object({
  /** A standalone retrieval query; the user's text is never modified. */
  query: z.string().trim().min(1).max(500),
});

export const GRADE_VERDICTS = ["sufficient", "ambiguous", "insufficient"] as const;
export type GradeVerdict = (typeof GRADE_VERDICTS)[number];

export const GradeOutputSchema = z.object({
  verdict: z.enum(GRADE_VERDICTS),
  /** Chunks judged relevant, best first. */
  relevantChunkIds: z.array(z.string()),
});

export const ClarifyOutputSchema = z.object({
  /** Only the wording: the options are fixed by retrieval and never come from the model. */
  question: z.string().trim().min(1).max(400),
});

export const ClaimSchema = z.object({
  text: z.string().trim().min(1),
  chunkIds: z.array(z.string()).min(1),
});

export const GenerateOutputSchema = z.object({
  claims: z.array(ClaimSchema),
  /** False when the chunks do not answer the question: routes to a human. */
  answered: z.boolean(),
  confidence: z.number().min(0).max(1),
});

export const VerifyOutputSchema = z.object({
  claims: z.array(
    z.object({
      index: z.number().int().min(0),
      supported: z.boolean(),
      reason: z.string(),
    }),
  ),
});

export const ExtractMemoryOutputSchema = z.object({
  /** Facts to merge into the profile; sensitive values are dropped again after this step. */
  facts: UserProfileSchema,
});

export type TriageOutput = z.infer<typeof TriageOutputSchema>;
export type ContextualizeOutput = z.infer<typeof ContextualizeOutputSchema>;
export type GradeOutput = z.infer<typeof GradeOutputSchema>;
export type ClarifyOutput = z.infer<typeof ClarifyOutputSchema>;
export type Claim = z.infer<typeof ClaimSchema>;
export type GenerateOutput = z.infer<typeof GenerateOutputSchema>;
export type VerifyOutput = z.infer<typeof VerifyOutputSchema>;
export type ExtractMemoryOutput = z.infer<typeof ExtractMemoryOutputSchema>;

/** A retrieved chunk as evidence for a model: its id, metadata and text (context-expanded). */
export interface EvidenceChunk {
  chunkId: string;
  documentId: string;
  title: string;
  product: string;
  domain: string;
  lang: Language;
  /** The heading the chunk sits under: context for list items such as "Maternity: 9 months". */
  section?: string;
  /** The chunk's text verbatim: what a claim is checked against and quoted from. */
  text: string;
  /** Retrieval score 0..1. */
  score: number;
  /** A table row or list item's structure, so a prompt can show cells under their headers. */
  structure?: EvidenceStructure;
}

/** Plain data from the chunk's unit (src/retrieval): the models layer knows no document model. */
export type EvidenceStructure =
  | { kind: "item"; leadIn: string | null; item: string }
  | {
      kind: "row";
      caption: string | null;
      rowLabel: string | null;
      /** Every cell with its column header ("" where the table has none); `label` marks the row label's cell. */
      cells: Array<{ header: string; value: string; label: boolean }>;
    };

/** The deterministic reader's answer, as plain data: each claim (a cell with its labels, a list item, a sentence) citing its chunk. */
export interface ReaderMatch {
  basis: "cell" | "item" | "sentence";
  claims: Array<{ text: string; chunkIds: string[] }>;
  coverage: number;
}

export interface TriageInput {
  text: string;
  language: Language;
  history: HistoryLine[];
  /**
   * Set when the in-process gate classifier was unsure: what it leaned towards, in words. The
   * role then only settles whether the message is a knowledge question or not; the agent keeps
   * the classifier's class for "not knowledge" unless the classifier leaned to knowledge itself.
   */
  candidate?: string;
}

export interface ContextualizeInput {
  text: string;
  language: Language;
  history: HistoryLine[];
  summary: string;
  profile: UserProfile;
  /** Analysed terms that name one of the tenant's products (its taxonomy): a turn with one names its own topic. */
  productTerms?: string[];
  /** One-word table labels that are alternatives to one another ("gold", "platinum"), as analysed terms. */
  labelGroups?: string[][];
}

export interface GradeInput {
  query: string;
  language: Language;
  chunks: EvidenceChunk[];
}

export interface ClarifyInput {
  userText: string;
  query: string;
  language: Language;
  /** The option labels retrieval produced, in order. */
  options: string[];
}

export interface GenerateInput {
  userText: string;
  query: string;
  language: Language;
  chunks: EvidenceChunk[];
  /** On regeneration: why the previous draft failed verification. */
  feedback?: string;
  /**
   * The deterministic reader's answer (src/reading): the cell, list item or sentence that states
   * what is asked, each claim citing its chunk. Offered as the first evidence; a model may word
   * it, the offline provider answers with it.
   */
  reading?: ReaderMatch;
}

export interface VerifyInput {
  language: Language;
  claims: Array<{ text: string; chunks: EvidenceChunk[] }>;
}

export interface ExtractMemoryInput {
  text: string;
  language: Language;
  profile: UserProfile;
}

/** The input and output type of each role. */
export interface RoleIO {
  triage: { input: TriageInput; output: TriageOutput };
  contextualize: { input: ContextualizeInput; output: ContextualizeOutput };
  grade: { input: GradeInput; output: GradeOutput };
  clarify: { input: ClarifyInput; output: ClarifyOutput };
  generate: { input: GenerateInput; output: GenerateOutput };
  verify: { input: VerifyInput; output: VerifyOutput };
  extract_memory: { input: ExtractMemoryInput; output: ExtractMemoryOutput };
}

export const ROLE_SCHEMAS = {
  triage: TriageOutputSchema,
  contextualize: ContextualizeOutputSchema,
  grade: GradeOutputSchema,
  clarify: ClarifyOutputSchema,
  generate: GenerateOutputSchema,
  verify: VerifyOutputSchema,
  extract_memory: ExtractMemoryOutputSchema,
} as const satisfies { [R in Role]: z.ZodType<RoleIO[R]["output"]> };
