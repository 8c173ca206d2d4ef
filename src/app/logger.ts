import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { redactForLog } from "../domain/logger.js";
import { redactPersonalData } from "../text/pii.js";

/**
 * pino options under which no log line carries personal data: every logged object (and child
 * bindings) through redactForLog, the message through the detector. Errors are serialised by
 * redactForLog, so pino's own err serializer is replaced by the identity. Spread them into any
 * other pino configuration, `pino({ ...LOG_REDACTION, level })`, but prefer createLogger, which
 * also redacts the bindings of child loggers.
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

/**
 * pino formats a child's bindings once, when the child is made, and without the root's bindings
 * formatter: the child's own bindings are redacted here instead, for children of children too.
 */
function redactingChildren<Levels extends string>(logger: Logger<Levels>): Logger<Levels> {
  const child = logger.child.bind(logger);
  logger.child = <ChildLevels extends string = never>(bindings: pino.Bindings, options?: pino.ChildLoggerOptions<ChildLevels>) =>
    redactingChildren<Levels | ChildLevels>(child<ChildLevels>(redactForLog(bindings) as pino.Bindings, options));
  return logger;
}

/**
 * The service's logger: JSON lines on stdout (or `destination`) at `level`, personal data
 * redacted; `mixin` adds fields to every line (serve's request and trace ids).
 */
export function createLogger(level: string, destination?: DestinationStream, mixin?: LoggerOptions["mixin"]): Logger {
  const options: LoggerOptions = { ...LOG_REDACTION, level, ...(mixin === undefined ? {} : { mixin }) };
  return redactingChildren(destination === undefined ? pino(options) : pino(options, destination));
}
