import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { redactForLog } from "../domain/logger.js";
import { redactPersonalData } from "../text/pii.js";

/**
 * pino options under which no log line carries personal data: every logged object (and child
 * bindings) through redactForLog, the message through the detector. Errors are serialised by
 * redactForLog, so pino's own err serializer is replaced by the identity. Spread them into any
 * other pino configuration: `pino({ ...LOG_REDACTION, level })`.
 */
export const LOG_REDACTION = {
  formatters: {
    log: (object: Record<string, unknown>) => redactForLog(object) as Record<string, unknown>,
    bindings: (bindings: pino.Bindings) => redactForLog(bindings) as pino.Bindings,
  },
  serializers: {
    err: (err: unknown) => err,
    msg: (msg: unknown) => (typeof msg === "string" ? redactPersonalData(msg) : msg),
  },
} satisfies LoggerOptions;

/** The service's logger: JSON lines on stdout (or `destination`) at `level`, personal data redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = { ...LOG_REDACTION, level };
  return destination === undefined ? pino(options) : pino(options, destination);
}
