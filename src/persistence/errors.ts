/**
 * Storage (checkpoints, profiles, locks) could not be reached. The transport maps it to
 * UNAVAILABLE: the caller retries with the same request_id and loses nothing.
 */
export class StorageUnavailableError extends Error {
  override readonly name = "StorageUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
