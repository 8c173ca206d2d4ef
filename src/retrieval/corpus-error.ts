/**
 * Why a document could not be loaded. A leaf module (no imports), so that `frontdesk serve` can
 * recognise a CorpusLoadError without loading the retrieval stack before it starts the app.
 */
export interface CorpusProblem {
  source: string;
  reason: string;
  /** The document field at fault, when one is (e.g. "lang"); absent for file-level problems. */
  field?: string;
}

/**
 * The start-up corpus has documents that cannot be loaded: start-up stops with every one of them
 * (path and reason) unless FRONTDESK_CORPUS_SKIP_INVALID=true.
 */
export class CorpusLoadError extends Error {
  override readonly name = "CorpusLoadError";
  constructor(readonly problems: readonly CorpusProblem[]) {
    super(
      `${problems.length} start-up corpus document(s) cannot be loaded (set FRONTDESK_CORPUS_SKIP_INVALID=true to serve the others):\n` +
        problems.map((problem) => `  ${problem.source}: ${problem.reason}`).join("\n"),
    );
  }
}
