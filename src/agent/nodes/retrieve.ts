import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { RetrievalUnavailableError, type Chunk, type RetrievalRequest, type RetrievedChunk } from "../../retrieval/index.js";
import type { AgentDeps } from "../deps.js";
import { createInstructionDetector, withoutInstructions } from "../../retrieval/index.js";
import type { AgentStateUpdate, AgentStateValue } from "../state.js";
import { memoByText } from "../../text/index.js";
import { periodDays } from "../../text/numbers.js";
import { crossScriptAliases } from "../../domain/taxonomy.js";
import { analyzeQuestion, namedProducts, statedWith } from "../../reading/index.js";

/**
 * Hybrid retrieval with the tenant (from credentials) and the domain filter injected here,
 * server-side. A second round widens the search: the user's own words join the rewritten query
 * and a document restriction from a clarify pick is dropped (the caller's domain scope stays).
 * Sentences the planted-instruction detector flags (src/retrieval/instructions.ts) are withheld
 * here, before any model or the reader sees them, and kept in `withheld` for the outgoing check.
 */
export function retrieveNode(deps: AgentDeps) {
  const detector = createInstructionDetector(deps.bundle.detector);
  // What the detector flags depends on a chunk's text alone: the classifier reads each chunk once,
  // not on every turn that retrieves it.
  const screened = memoByText((text) => withoutInstructions(text, detector));
  const asData = (chunk: Chunk, withheld: Set<string>): Chunk => {
    const { text, removed } = screened(chunk.text);
    if (removed.length === 0) return chunk;
    for (const sentence of removed) withheld.add(sentence);
    deps.logger.warn({ chunk: chunk.chunkId, sentences: removed.length }, "instruction-like text in a retrieved chunk withheld from the models");
    return { ...chunk, text };
  };
  return async (state: AgentStateValue, config: LangGraphRunnableConfig): Promise<AgentStateUpdate> => {
    const turn = state.turn!;
    const round = state.retrievalRounds + 1;
    const widen = round > 1;
    const asked = widen ? dedupeWords(`${state.rewrittenQuery} ${turn.text}`) : state.rewrittenQuery;
    // "3 weeks" is searched as 21 days too: tables band trips and stays by days.
    const days = periodDays(asked);
    // A product documented only in the other language is searched by its name as the tenant writes
    // it there: «گجت‌گارد» as "GadgetGuard". Other names stay as asked: the reply language's own
    // documents come first.
    const taxonomy = await deps.retriever.taxonomy(turn.tenantId, config.signal);
    const elsewhere = new Set(taxonomy.products.filter((p) => !p.languages.includes(state.language)).flatMap((p) => p.nameTerms));
    const aliases = [...new Set([...crossScriptAliases(taxonomy, asked).values()].flat())].filter((t) => elsewhere.has(t));
    // Widened, the search adds the words documents state the asked attribute with: "how long do I
    // have to send it?" is answered by "within 180 days".
    const attribute = widen ? statedWith(analyzeQuestion(state.rewrittenQuery, state.language).asked, state.language) : "";
    const query = [asked, ...days.map((d) => `${d} ${state.language === "fa" ? "روز" : "days"}`), ...aliases, attribute].filter((p) => p !== "").join(" ");
    const request: RetrievalRequest = {
      query,
      tenantId: turn.tenantId,
      language: state.language,
      topK: widen ? deps.settings.retrieval.topK * 2 : deps.settings.retrieval.topK,
    };
    if (state.retrievalFilter.domain !== undefined) request.domain = state.retrievalFilter.domain;
    let own: Set<string> | null = null;
    if (!widen && state.retrievalFilter.documentIds !== undefined) request.documentIds = state.retrievalFilter.documentIds;
    else if (!widen) {
      // A question naming a product is answered from its documents or the general pages (the
      // reader reads no others): the first round searches those, the second everything.
      const named = namedProducts(asked, taxonomy);
      if (named.length > 0) {
        const general = taxonomy.products.filter((p) => p.general);
        request.documentIds = [...new Set([...named, ...general].flatMap((p) => p.documentIds))];
        own = new Set(named.flatMap((p) => p.documentIds));
      }
    }
    try {
      const found = await deps.retriever.retrieve(request, config.signal);
      const hits = own === null ? found.hits : await withOwnPages(found.hits, own, request, deps, config.signal);
      const withheld = new Set(state.withheld);
      return {
        retrievalRounds: round,
        hits: hits.map((h) => ({ chunk: asData(h.chunk, withheld), score: h.score, neighbors: h.neighbors.map((n) => asData(n, withheld)) })),
        withheld: [...withheld],
      };
    } catch (error) {
      if (config.signal?.aborted) throw config.signal.reason;
      if (!(error instanceof RetrievalUnavailableError)) throw error;
      deps.logger.warn({ err: error }, "retrieval unavailable after retries; the turn escalates");
      return { retrievalRounds: round, hits: [], escalation: { reason: "dependency_failure", detail: "retrieval unavailable after retries" } };
    }
  };
}

/**
 * The named product's own pages keep half the places: general pages in the question's language
 * can outrank a product documented only in the other one («فرانشیز … گجت‌گارد» found the claims
 * guide's Persian rows before GadgetGuard's English excess table).
 */
export async function withOwnPages(
  hits: RetrievedChunk[],
  own: ReadonlySet<string>,
  request: RetrievalRequest,
  deps: Pick<AgentDeps, "retriever">,
  signal: AbortSignal | undefined,
): Promise<RetrievedChunk[]> {
  const reserved = Math.ceil(request.topK / 2);
  const mine = hits.filter((h) => own.has(h.chunk.documentId)).length;
  if (mine >= reserved) return hits;
  const extra = await deps.retriever.retrieve({ ...request, documentIds: [...own], topK: reserved }, signal);
  const seen = new Set(hits.map((h) => h.chunk.chunkId));
  const added = extra.hits.filter((h) => !seen.has(h.chunk.chunkId)).slice(0, reserved - mine);
  // The lowest general-page hits give way, so the reader still sees topK chunks, best first.
  const excess = Math.max(0, hits.length + added.length - request.topK);
  const general = hits.filter((h) => !own.has(h.chunk.documentId));
  const giving = new Set(general.slice(general.length - excess).map((h) => h.chunk.chunkId));
  const kept = hits.filter((h) => !giving.has(h.chunk.chunkId));
  return [...kept, ...added].sort((a, b) => b.score - a.score);
}

function dedupeWords(text: string): string {
  const seen = new Set<string>();
  return text
    .split(/\s+/u)
    .filter((w) => {
      const key = w.toLowerCase();
      if (w === "" || seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join(" ");
}
