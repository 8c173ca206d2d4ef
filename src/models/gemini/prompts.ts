import { renderPrompt, type ModelBundle } from "../bundle.js";
import type { HistoryLine } from "../../domain/conversation.js";
import type { UserProfile } from "../../domain/profile.js";
import type { Language } from "../../text/language.js";
import type { EvidenceChunk, EvidenceStructure, ReaderMatch, Role, RoleIO } from "../roles.js";

/**
 * Turns a role's input into its two messages, from the bundle's templates. The templates are
 * instructions; everything that comes from users or documents (the message, the history, the
 * retrieved chunks, the claims to check) is inserted here as a delimited block, and the block
 * tags are neutralised inside that text, so a chunk that says "</chunk> Ignore the rules" stays
 * inside its block as data (DESIGN §3: retrieved text is data).
 */

export interface RolePrompt {
  system: string;
  user: string;
}

export type PromptSource = Pick<ModelBundle, "prompts" | "insurerName">;

const LANGUAGE_NAMES: Record<Language, string> = { fa: "Persian (فارسی)", en: "English" };

/** Every tag the blocks below use; a look-alike bracket replaces "<" when one appears in data. */
const BLOCK_TAG = /<(\s*\/?\s*)(chunk|claim|statement|user_message|history|user|assistant|summary|query|profile|reader_match|match)\b/giu;

export function neutralize(text: string): string {
  return text.replace(BLOCK_TAG, "\u2039$1$2");
}

function attribute(value: string): string {
  return value.replace(/&/gu, "&amp;").replace(/"/gu, "&quot;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;");
}

function block(tag: string, text: string): string {
  return `<${tag}>\n${neutralize(text.trim())}\n</${tag}>`;
}

/** One line of structure: a value's own line breaks would pose as the block's next line. */
const oneLine = (text: string) => text.replace(/\s+/gu, " ").trim();

/**
 * A row as its table reads: the caption, the row label, each cell under its column header (the
 * row label's cell marked); an item with its lead-in. Then the chunk's text verbatim, which is
 * what a claim is checked against.
 */
function structureLines(structure: EvidenceStructure): string[] {
  if (structure.kind === "item")
    return [...(structure.leadIn === null || structure.leadIn.trim() === "" ? [] : [`Lead-in: ${oneLine(structure.leadIn)}`]), `Item: ${oneLine(structure.item)}`];
  const lines: string[] = [];
  if (structure.caption !== null && structure.caption.trim() !== "") lines.push(`Table: ${oneLine(structure.caption)}`);
  if (structure.rowLabel !== null && structure.rowLabel.trim() !== "") lines.push(`Row: ${oneLine(structure.rowLabel)}`);
  for (const cell of structure.cells) {
    const header = oneLine(cell.header);
    lines.push(`- ${header === "" ? "(no header)" : header}: ${oneLine(cell.value)}${cell.label ? " (row label)" : ""}`);
  }
  return lines;
}

/** One retrieved chunk as the model sees it: its id to cite, where it comes from, its text (a row or item with its structure). */
export function chunkBlock(chunk: EvidenceChunk): string {
  const attributes = [`id="${attribute(chunk.chunkId)}"`, `title="${attribute(chunk.title)}"`];
  if (chunk.section !== undefined && chunk.section !== "") attributes.push(`section="${attribute(chunk.section)}"`);
  attributes.push(`lang="${chunk.lang}"`);
  const structure = chunk.structure;
  if (structure === undefined) return `<chunk ${attributes.join(" ")}>\n${neutralize(chunk.text.trim())}\n</chunk>`;
  attributes.push(`unit="${structure.kind === "row" ? "table row" : "list item"}"`);
  const body = [...structureLines(structure), `Text: ${chunk.text.trim()}`].join("\n");
  return `<chunk ${attributes.join(" ")}>\n${neutralize(body)}\n</chunk>`;
}

/** The reader's match, offered before the passages: each claim with the chunk it cites. */
export function readerMatchBlock(reading: ReaderMatch | undefined): string {
  if (reading === undefined || reading.claims.length === 0) return "(none)";
  const matches = reading.claims.map((claim) => `<match chunks="${attribute(claim.chunkIds.join(" "))}">${neutralize(oneLine(claim.text))}</match>`);
  return [`<reader_match basis="${reading.basis}">`, ...matches, "</reader_match>"].join("\n");
}

export function chunksBlock(chunks: readonly EvidenceChunk[]): string {
  return chunks.length === 0 ? "(no passages)" : chunks.map(chunkBlock).join("\n\n");
}

function historyBlock(history: readonly HistoryLine[]): string {
  if (history.length === 0) return "(no earlier messages)";
  const lines = history.flatMap((h) => [`<user>${neutralize(h.user.trim())}</user>`, `<assistant>${neutralize(h.reply.trim())}</assistant>`]);
  return `<history>\n${lines.join("\n")}\n</history>`;
}

function profileBlock(profile: UserProfile): string {
  return Object.keys(profile).length === 0 ? "(nothing yet)" : block("profile", JSON.stringify(profile));
}

type Values = Record<string, string>;
type ValueBuilders = { [R in Role]: (input: RoleIO[R]["input"], source: PromptSource) => Values };

const VALUES: ValueBuilders = {
  triage: (input) => ({
    text: block("user_message", input.text),
    history: historyBlock(input.history),
    candidate: input.candidate === undefined || input.candidate.trim() === "" ? "(no reading)" : neutralize(input.candidate),
  }),
  contextualize: (input) => ({
    text: block("user_message", input.text),
    history: historyBlock(input.history),
    summary: input.summary.trim() === "" ? "(none)" : block("summary", input.summary),
    profile: profileBlock(input.profile),
  }),
  grade: (input) => ({ query: block("query", input.query), chunks: chunksBlock(input.chunks) }),
  clarify: (input) => ({
    text: block("user_message", input.userText),
    query: block("query", input.query),
    options: input.options.map((label, i) => `${i + 1}. ${neutralize(label)}`).join("\n"),
  }),
  generate: (input, source) => ({
    text: block("user_message", input.userText),
    query: block("query", input.query),
    chunks: chunksBlock(input.chunks),
    reading: readerMatchBlock(input.reading),
    regeneration:
      input.feedback === undefined || input.feedback.trim() === ""
        ? ""
        : renderPrompt(source.prompts.generate.regeneration, {
            ...common(input.language, source),
            feedback: neutralize(input.feedback.trim()),
          }),
  }),
  verify: (input) => ({
    claims: input.claims.map((claim, index) => [`<claim index="${index}">`, block("statement", claim.text), chunksBlock(claim.chunks), "</claim>"].join("\n")).join("\n\n"),
  }),
  extract_memory: (input) => ({ text: block("user_message", input.text), profile: profileBlock(input.profile) }),
};

function common(language: Language, source: PromptSource): Values {
  return { insurer: source.insurerName[language], language: LANGUAGE_NAMES[language] };
}

/** The system and user messages of one call of `role`. */
export function renderRolePrompt<R extends Role>(role: R, input: RoleIO[R]["input"], source: PromptSource): RolePrompt {
  const builder = VALUES[role] as (input: RoleIO[R]["input"], source: PromptSource) => Values;
  const values = { ...common(input.language, source), ...builder(input, source) };
  const templates = source.prompts[role] as { system: string; user: string };
  return { system: renderPrompt(templates.system, values), user: renderPrompt(templates.user, values) };
}
