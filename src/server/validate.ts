import type { DeleteThreadRequest, DeleteUserMemoryRequest, GetThreadRequest, WatchThreadRequest } from "../../gen/frontdesk/v1/agent_service_pb.js";
import type { TurnRequest } from "../../gen/frontdesk/v1/turn_pb.js";
import type { TurnInput } from "../domain/turn.js";
import type { Config } from "../config/config.js";

/** The request limits validation reads; a slice of Config so tests can pass literals. */
export type ValidationLimits = Pick<Config["limits"], "maxTextChars" | "maxIdChars">;

export type Validation<T> =
  | { kind: "valid"; input: T }
  /** `field` is the proto field name; `message` starts with it and is safe to send to the caller. */
  | { kind: "invalid"; field: string; message: string };

// Ids travel into storage keys and logs: a conservative charset keeps them unambiguous there.
const ID_CHARS = /^[A-Za-z0-9._:-]+$/u;
const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/u;

/*
 * C0 and C1 control characters (Unicode Cc) other than newline and tab. In a message they are
 * terminal escapes, NULs and other bytes no person typed; in an id or a title they end up in
 * storage keys, logs and the agent console. A message's carriage returns are line ends a person
 * typed on a client that writes "\r\n"; they are read as "\n" (see normalizeLineEnds), so only ids
 * and titles refuse them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
/*
 * What a blank check looks through: every control character, and the zero-width characters that
 * render as nothing (ZWSP, ZWNJ, ZWJ, word joiner, BOM). A ZWNJ between Persian letters is part of
 * a word and stays in the text; only a text of nothing else is blank.
 */
const INVISIBLE = /\p{Cc}|\u200B|\u200C|\u200D|\u2060|\uFEFF/gu;

/** `must not contain control characters (U+001B at character 4)` for the first one, or null. */
export function controlCharacterProblem(value: string): string | null {
  let position = 0;
  for (const char of value) {
    position++;
    if (FORBIDDEN_CONTROL.test(char)) {
      const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
      return `must not contain control characters (U+${code} at character ${position})`;
    }
  }
  return null;
}

/** "\r\n" and a lone "\r" become "\n": the line ends of every client mean the same to the agent. */
export function normalizeLineEnds(value: string): string {
  return value.replace(/\r\n?/gu, "\n");
}

/** True when nothing but whitespace is left once control and zero-width characters are removed. */
export function isBlankText(value: string): boolean {
  return value.replace(INVISIBLE, "").trim() === "";
}

function invalid(field: string, problem: string): { kind: "invalid"; field: string; message: string } {
  return { kind: "invalid", field, message: `${field}: ${problem}` };
}

function checkId(field: string, value: string, max: number, required: boolean): Validation<never> | null {
  if (value === "" && !required) return null;
  const control = controlCharacterProblem(value);
  if (control !== null) return invalid(field, control);
  if (value.length < 1 || value.length > max || !ID_CHARS.test(value)) {
    const range = required ? `1-${max}` : `at most ${max}`;
    return invalid(field, `must be ${range} characters of [A-Za-z0-9._:-]`);
  }
  return null;
}

const DOMAIN_SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/u;

/**
 * Checks a wire TurnRequest before anything runs. The first problem found is reported, in field
 * order. A domain must be a slug here; whether the tenant's documents have it is the turn
 * service's check (the tenant's taxonomy).
 */
export function validateTurnRequest(req: TurnRequest, limits: ValidationLimits): Validation<Omit<TurnInput, "tenantId">> {
  const idProblem = checkId("thread_id", req.threadId, limits.maxIdChars, true) ?? checkId("user_id", req.userId, limits.maxIdChars, true);
  if (idProblem !== null) return idProblem;

  if (req.text === "") return invalid("text", "required");
  const text = normalizeLineEnds(req.text);
  if (isBlankText(text)) return invalid("text", "must not be blank");
  const control = controlCharacterProblem(text);
  if (control !== null) return invalid("text", control);
  // Code points, not UTF-16 units: a Persian or emoji-heavy message must not be cut short.
  const chars = [...text].length;
  if (chars > limits.maxTextChars) {
    return invalid("text", `must be at most ${limits.maxTextChars} characters (got ${chars})`);
  }

  const requestProblem = checkId("request_id", req.requestId, limits.maxIdChars, false);
  if (requestProblem !== null) return requestProblem;

  if (req.locale !== "" && !LOCALE.test(req.locale)) {
    return invalid("locale", 'must be a BCP-47 language tag such as "fa" or "en-GB"');
  }
  if (req.domain !== "" && !DOMAIN_SLUG.test(req.domain)) {
    return invalid("domain", "must be a slug: lower-case letters, digits and dashes, at most 64");
  }

  const input: Omit<TurnInput, "tenantId"> = {
    threadId: req.threadId,
    userId: req.userId,
    text,
    requestId: req.requestId,
  };
  if (req.locale !== "") input.locale = req.locale;
  if (req.domain !== "") input.domain = req.domain;
  return { kind: "valid", input };
}

/** GetThread, WatchThread and DeleteThread all name one thread. */
export function validateGetThreadRequest(req: GetThreadRequest | WatchThreadRequest | DeleteThreadRequest, limits: ValidationLimits): Validation<{ threadId: string }> {
  const problem = checkId("thread_id", req.threadId, limits.maxIdChars, true);
  return problem ?? { kind: "valid", input: { threadId: req.threadId } };
}

export function validateDeleteUserMemoryRequest(req: DeleteUserMemoryRequest, limits: ValidationLimits): Validation<{ userId: string }> {
  const problem = checkId("user_id", req.userId, limits.maxIdChars, true);
  return problem ?? { kind: "valid", input: { userId: req.userId } };
}
