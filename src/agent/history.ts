import type { HistoryEntry } from "./state.js";

/**
 * Bounded history: the last N turns verbatim, older turns folded into a running summary that is
 * itself bounded (oldest lines dropped first). Deterministic, so it costs no model call.
 */
export function summaryLine(entry: HistoryEntry): string {
  const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
  return `[${entry.outcome}] user: ${clip(entry.user.replace(/\s+/gu, " "), 160)} | agent: ${clip(entry.reply.replace(/\s+/gu, " "), 160)}`;
}

export function boundSummary(summary: string, maxChars: number): string {
  if (summary.length <= maxChars) return summary;
  const lines = summary.split("\n");
  while (lines.length > 1 && lines.join("\n").length > maxChars) lines.shift();
  const joined = lines.join("\n");
  return joined.length <= maxChars ? joined : joined.slice(joined.length - maxChars);
}

export function appendHistory(
  history: readonly HistoryEntry[],
  summary: string,
  entry: HistoryEntry,
  keepTurns: number,
  summaryMaxChars: number,
): { history: HistoryEntry[]; summary: string } {
  const all = [...history, entry];
  const dropped = all.slice(0, Math.max(0, all.length - keepTurns));
  const kept = all.slice(dropped.length);
  let nextSummary = summary;
  for (const old of dropped) nextSummary = nextSummary === "" ? summaryLine(old) : `${nextSummary}\n${summaryLine(old)}`;
  return { history: kept, summary: boundSummary(nextSummary, summaryMaxChars) };
}

/** The conversation as a human agent reads it in a handoff: older summary, then recent turns. */
export function conversationSummary(summary: string, history: readonly HistoryEntry[]): string {
  return [summary, ...history.map(summaryLine)].filter((s) => s !== "").join("\n");
}
