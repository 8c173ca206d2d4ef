/**
 * One dependency the service cannot work without, as the readiness checks see it: the composition
 * root builds one per configured dependency (PostgreSQL, Qdrant, the model provider's circuit), the
 * server asks them (src/server/readiness.ts) and reports per service.
 */
export interface ReadinessProbe {
  /** "postgres", "qdrant", "models": the key in /readyz's body and in log lines. */
  readonly name: string;
  /** The services that stop working when it is down; the whole server ("") always does. */
  readonly needs: readonly ServiceRole[];
  /** Resolves when the dependency answers; throws (or outlives the signal) when it does not. */
  check(signal: AbortSignal): Promise<void>;
}

/** The services on the port, by what they do rather than by their wire names (which live at the edge). */
export type ServiceRole = "agent" | "documents";
