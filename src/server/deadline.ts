/**
 * The longest caller deadline the server honours as given: 2^31 − 1 ms, about 24.8 days, the
 * most a Node timer can hold. connect-es turns a request's deadline into a setTimeout, and Node
 * runs a timer asked for longer after 1 ms instead (TimeoutOverflowWarning), so a 30-day
 * `grpc-timeout` (grpc-js sends "2592000S") became an immediate DEADLINE_EXCEEDED. A longer
 * deadline is clamped to this, which for a turn changes nothing: FRONTDESK_TURN_TIMEOUT_MS (at
 * most ten minutes) ends it long before.
 */
export const MAX_DEADLINE_MS = 2 ** 31 - 1;

// The header formats connect-es parses: gRPC and gRPC-Web send up to 8 digits and a unit,
// Connect whole milliseconds in up to 10 digits.
const GRPC_TIMEOUT = /^(\d{1,8})([HMSmun])$/u;
const CONNECT_TIMEOUT = /^\d{1,10}$/u;
const GRPC_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };

/**
 * Rewrites a `grpc-timeout` or `connect-timeout-ms` request header longer than MAX_DEADLINE_MS
 * to MAX_DEADLINE_MS, before connect-es reads it. Malformed values are left for connect-es to
 * refuse (INVALID_ARGUMENT).
 */
export function clampDeadlineHeaders(header: Headers): void {
  const grpc = header.get("grpc-timeout");
  const match = grpc === null ? null : GRPC_TIMEOUT.exec(grpc);
  if (match !== null && Number(match[1]) * (GRPC_UNIT_MS[match[2] ?? ""] ?? 0) > MAX_DEADLINE_MS) {
    // Whole seconds keep the value within the format's 8 digits.
    header.set("grpc-timeout", `${Math.floor(MAX_DEADLINE_MS / 1_000)}S`);
  }
  const connect = header.get("connect-timeout-ms");
  if (connect !== null && CONNECT_TIMEOUT.test(connect) && Number(connect) > MAX_DEADLINE_MS) {
    header.set("connect-timeout-ms", String(MAX_DEADLINE_MS));
  }
}
