import { redactPersonalData } from "../text/pii.js";

/** The logging surface inner layers use (pino's shape), so they never import a logging library. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Keys whose value is the user's words (or made of them) wherever they appear in a logged
 * object: replaced whole, not scanned, because free text carries more than the detector knows
 * (names, addresses, health). Log ids, kinds, counts and durations instead.
 */
export const USER_TEXT_KEYS: ReadonlySet<string> = new Set([
  "text",
  "userText",
  "user_text",
  "lastUserMessage",
  "last_user_message",
  "conversationSummary",
  "conversation_summary",
  "rewrittenQuery",
  "rewritten_query",
  "query",
  "summary",
  "reply",
  "history",
  "claims",
  "feedback",
]);

export const REDACTED = "[redacted]";
const MAX_DEPTH = 8;

/**
 * A copy of `value` fit for logs, traces and metric labels: user-text keys replaced by
 * "[redacted]", personal data masked in every other string (error messages and stacks too), errors
 * as plain { type, message, stack, …, cause }. Never throws; cycles and depth are cut. Every log
 * line goes through it (src/app/logger.ts); span attributes and metric labels should too.
 */
export function redactForLog(value: unknown): unknown {
  return redact(value, 0, new WeakSet());
}

function redact(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return redactPersonalData(value);
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Date) return value;
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (seen.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[…]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1, seen));
    const source: Record<string, unknown> = value instanceof Error ? errorFields(value) : (value as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(source)) out[key] = USER_TEXT_KEYS.has(key) && field !== undefined && field !== null ? REDACTED : redact(field, depth + 1, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}

/** An error as pino's standard serializer writes it: type, message, stack, own fields, cause. */
function errorFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = { type: error.name, message: error.message, stack: error.stack };
  for (const [key, field] of Object.entries(error)) if (!(key in fields)) fields[key] = field;
  if (error.cause !== undefined) fields["cause"] = error.cause;
  return fields;
}
