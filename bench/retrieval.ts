/**
 * Retrieval benchmark on a BEIR-format set (corpus.jsonl, queries.jsonl, qrels/<split>.tsv),
 * through the embedded retriever with its production settings.
 *
 *   npm run bench:retrieval -- --dataset ../shared/benchmarks/persian-qa --split dev [--limit N] [--json out.json]
 *                              [--candidates 30] [--rrf-k 60]   (production defaults)
 *
 * Reports, per stage (sparse alone, dense alone, RRF-fused, fused + rerank, and fused + rerank
 * with the candidate-set IDF the Qdrant backend uses), MRR@10, nDCG@10, Recall@1/5/10/100, P@1 and
 * Success@10 (any relevant document in the top 10), next to a reference BM25 computed in the same
 * run the way the sets' README computes its sanity baseline (k1 0.9, b 0.4, lowercase \w+ tokens,
 * whole documents). Latency per query is measured for each stage and for a full `retrieve()` with
 * the production candidate depth, as a ratio to the reference BM25's latency in the same run.
 *
 * Chunk rankings become document rankings by each document's best chunk. Candidate pools (the
 * official InsuranceQA top-1-of-500 protocol) are reported when a set has them; these sets do not.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { createChunker, createEmbeddedRetriever, createLexicalReranker, createLocalEmbedder, parseChunkId, type Chunk, type SourceDocument } from "../src/retrieval/index.js";
import { detectLanguage } from "../src/text/language.js";

const { values } = parseArgs({
  options: {
    dataset: { type: "string" },
    split: { type: "string", default: "dev" },
    limit: { type: "string" },
    json: { type: "string" },
    candidates: { type: "string", default: "30" },
    "rrf-k": { type: "string", default: "60" },
  },
});
if (values.dataset === undefined) {
  console.error("usage: npm run bench:retrieval -- --dataset <BEIR folder> --split dev|test [--limit N] [--json file]");
  process.exit(2);
}
const dataset = path.resolve(values.dataset);
const split = values.split ?? "dev";
const TENANT = "bench";
const DEPTH = 100;
const candidates = Number(values.candidates);
const rrfK = Number(values["rrf-k"]);

// ---------------------------------------------------------------------------------- data

interface CorpusRow {
  _id: string;
  text: string;
  title?: string;
}
interface QueryRow {
  _id: string;
  text: string;
  split?: string;
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

const corpus = readJsonl<CorpusRow>(path.join(dataset, "corpus.jsonl"));
const qrels = new Map<string, Set<string>>();
for (const line of readFileSync(path.join(dataset, "qrels", `${split}.tsv`), "utf8")
  .split("\n")
  .slice(1)) {
  const [queryId, docId, score] = line.split("\t");
  if (queryId === undefined || docId === undefined || Number(score) <= 0) continue;
  const set = qrels.get(queryId) ?? new Set<string>();
  set.add(docId);
  qrels.set(queryId, set);
}
let queries = readJsonl<QueryRow>(path.join(dataset, "queries.jsonl")).filter((q) => qrels.has(q._id) && (q.split === undefined || q.split === split));
if (values.limit !== undefined) queries = queries.slice(0, Number(values.limit));
const pools = existsSync(path.join(dataset, "pools.jsonl")) || existsSync(path.join(dataset, "candidates.jsonl"));

// ---------------------------------------------------------------------------------- metrics

interface Metrics {
  mrr10: number;
  ndcg10: number;
  recall1: number;
  recall5: number;
  recall10: number;
  recall100: number;
  p1: number;
  success10: number;
}

function score(ranking: readonly string[], relevant: ReadonlySet<string>): Metrics {
  const first = ranking.findIndex((id) => relevant.has(id));
  const recallAt = (k: number) => ranking.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
  let dcg = 0;
  ranking.slice(0, 10).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) idcg += 1 / Math.log2(i + 2);
  return {
    mrr10: first >= 0 && first < 10 ? 1 / (first + 1) : 0,
    ndcg10: idcg === 0 ? 0 : dcg / idcg,
    recall1: recallAt(1),
    recall5: recallAt(5),
    recall10: recallAt(10),
    recall100: recallAt(100),
    p1: first === 0 ? 1 : 0,
    success10: first >= 0 && first < 10 ? 1 : 0,
  };
}

function mean(rows: readonly Metrics[]): Metrics {
  const avg = (key: keyof Metrics) => rows.reduce((sum, r) => sum + r[key], 0) / Math.max(1, rows.length);
  return {
    mrr10: avg("mrr10"),
    ndcg10: avg("ndcg10"),
    recall1: avg("recall1"),
    recall5: avg("recall5"),
    recall10: avg("recall10"),
    recall100: avg("recall100"),
    p1: avg("p1"),
    success10: avg("success10"),
  };
}

/** Chunk ranking → document ranking (each document at its best chunk's rank). */
function documents(chunkIds: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of chunkIds) {
    const doc = parseChunkId(id)?.documentId ?? id;
    if (!seen.has(doc)) {
      seen.add(doc);
      out.push(doc);
    }
  }
  return out;
}

function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

// ---------------------------------------------------------------------------------- reference BM25

/**
 * The README's sanity baseline: BM25 (k1 0.9, b 0.4) over whole documents, lowercase \w+ tokens
 * (Python's Unicode \w: letters, digits, underscore), Lucene's IDF, no stopwords or stemming.
 */
function createReferenceBm25(rows: readonly CorpusRow[]) {
  const k1 = 0.9;
  const b = 0.4;
  const tokenize = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const postings = new Map<string, Map<number, number>>();
  const lengths: number[] = [];
  rows.forEach((row, doc) => {
    const tokens = tokenize(row.text);
    lengths.push(tokens.length);
    for (const token of tokens) {
      const list = postings.get(token) ?? new Map<number, number>();
      list.set(doc, (list.get(doc) ?? 0) + 1);
      postings.set(token, list);
    }
  });
  const n = rows.length;
  const avg = lengths.reduce((a, c) => a + c, 0) / n;
  return (query: string, limit: number): string[] => {
    const scores = new Map<number, number>();
    for (const token of tokenize(query)) {
      const list = postings.get(token);
      if (list === undefined) continue;
      const idf = Math.log(1 + (n - list.size + 0.5) / (list.size + 0.5));
      for (const [doc, tf] of list) {
        const norm = tf + k1 * (1 - b + (b * (lengths[doc] ?? 0)) / avg);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / norm);
      }
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1])
      .slice(0, limit)
      .map(([doc]) => rows[doc]?._id ?? "");
  };
}

// ---------------------------------------------------------------------------------- run

const documentsToIndex: SourceDocument[] = corpus.map((row) => ({
  id: row._id,
  title: row.title ?? "",
  product: "bench",
  domain: "bench",
  lang: detectLanguage(`${row.title ?? ""} ${row.text}`).language,
  body: row.text,
  tenantId: TENANT,
}));

const heapBefore = process.memoryUsage().heapUsed;
const chunker = createChunker();
const retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder(), chunker, candidates, rrfK });
let start = performance.now();
await retriever.add(documentsToIndex);
const indexMs = performance.now() - start;
const heapAfter = process.memoryUsage().heapUsed;

start = performance.now();
const reference = createReferenceBm25(corpus);
const referenceIndexMs = performance.now() - start;

const stages = ["reference BM25 (README)", "sparse (our BM25)", "dense (local embedding)", "fused (RRF)", "fused + rerank", "fused + rerank, candidate-set IDF (Qdrant)"] as const;
type Stage = (typeof stages)[number];
const perStage = new Map<Stage, Metrics[]>(stages.map((s) => [s, []]));
const latency = {
  reference: [] as number[],
  sparse: [] as number[],
  dense: [] as number[],
  fuse: [] as number[],
  rerank: [] as number[],
  rerankCandidateIdf: [] as number[],
  retrieve: [] as number[],
};

for (const query of queries) {
  const relevant = qrels.get(query._id) ?? new Set<string>();
  const language = detectLanguage(query.text).language;

  let t = performance.now();
  const referenceRanking = reference(query.text, DEPTH);
  latency.reference.push(performance.now() - t);
  perStage.get("reference BM25 (README)")?.push(score(referenceRanking, relevant));

  const explained = await retriever.explain({ query: query.text, tenantId: TENANT, language }, DEPTH);
  latency.sparse.push(explained.timings.sparseMs);
  latency.dense.push(explained.timings.denseMs);
  latency.fuse.push(explained.timings.fuseMs);
  latency.rerank.push(explained.timings.rerankMs);
  perStage.get("sparse (our BM25)")?.push(score(documents(explained.sparse.map((h) => h.chunkId)), relevant));
  perStage.get("dense (local embedding)")?.push(score(documents(explained.dense.map((h) => h.chunkId)), relevant));
  perStage.get("fused (RRF)")?.push(score(documents(explained.fused.map((f) => f.id)), relevant));
  perStage.get("fused + rerank")?.push(score(documents(explained.reranked.map((h) => h.chunkId)), relevant));

  // What the Qdrant backend's default reranker sees: IDF from the candidate set only.
  const top = explained.fused.slice(0, candidates).flatMap((f) => {
    const chunk = retriever.getChunk(TENANT, f.id);
    return chunk === undefined ? [] : [chunk];
  });
  t = performance.now();
  const local = await createLexicalReranker().rerank(query.text, top, { language });
  latency.rerankCandidateIdf.push(performance.now() - t);
  const order = top.map((_, i) => i).sort((a, b) => (local[b] ?? 0) - (local[a] ?? 0));
  const reranked = [...order.map((i) => (top[i] as Chunk).chunkId), ...explained.fused.slice(candidates).map((f) => f.id)];
  perStage.get("fused + rerank, candidate-set IDF (Qdrant)")?.push(score(documents(reranked), relevant));

  // The production call: candidates per stage, rerank, top 6, neighbours.
  t = performance.now();
  await retriever.retrieve({ query: query.text, tenantId: TENANT, language, topK: 6 });
  latency.retrieve.push(performance.now() - t);
}

// ---------------------------------------------------------------------------------- report

const f3 = (x: number) => x.toFixed(3);
const ms = (x: number) => x.toFixed(2);
const results = Object.fromEntries(stages.map((s) => [s, mean(perStage.get(s) ?? [])]));
const baseP50 = percentile(latency.reference, 50);
const lines: string[] = [];
lines.push(`### ${path.basename(dataset)}, split ${split}`);
lines.push("");
lines.push(
  `${corpus.length} documents → ${retriever.size} chunks (chunker ${chunker.maxChars} chars); ${queries.length} queries; ` +
    `RRF k ${rrfK}; rerank depth ${candidates}; indexed in ${(indexMs / 1000).toFixed(1)} s (${Math.round(retriever.size / (indexMs / 1000))} chunks/s), ` +
    `heap +${Math.round((heapAfter - heapBefore) / 1e6)} MB; candidate pools: ${pools ? "present" : "none in this set (top-1-over-pool not applicable)"}.`,
);
lines.push("");
lines.push("| stage | MRR@10 | nDCG@10 | R@1 | R@5 | R@10 | R@100 | P@1 | Success@10 |");
lines.push("|---|---|---|---|---|---|---|---|---|");
for (const stage of stages) {
  const m = results[stage] as Metrics;
  lines.push(`| ${stage} | ${f3(m.mrr10)} | ${f3(m.ndcg10)} | ${f3(m.recall1)} | ${f3(m.recall5)} | ${f3(m.recall10)} | ${f3(m.recall100)} | ${f3(m.p1)} | ${f3(m.success10)} |`);
}
lines.push("");
lines.push("| latency per query (ms) | p50 | p95 | p50 ÷ reference BM25 p50 |");
lines.push("|---|---|---|---|");
const latencyRows: [string, number[]][] = [
  ["reference BM25 (baseline)", latency.reference],
  ["sparse stage", latency.sparse],
  ["dense stage (embed query + exact cosine)", latency.dense],
  ["fusion", latency.fuse],
  [`rerank (lexical, ${candidates} candidates)`, latency.rerank],
  ["rerank, candidate-set IDF", latency.rerankCandidateIdf],
  ["retrieve() end to end (top 6 + neighbours)", latency.retrieve],
];
for (const [name, samples] of latencyRows)
  lines.push(`| ${name} | ${ms(percentile(samples, 50))} | ${ms(percentile(samples, 95))} | ${(percentile(samples, 50) / baseP50).toFixed(1)}× |`);
lines.push("");
lines.push(`Reference BM25 index built in ${referenceIndexMs.toFixed(0)} ms. Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`);
console.log(lines.join("\n"));

if (values.json !== undefined) {
  writeFileSync(
    values.json,
    JSON.stringify(
      {
        dataset: path.basename(dataset),
        split,
        documents: corpus.length,
        chunks: retriever.size,
        queries: queries.length,
        candidates,
        rrfK,
        indexMs,
        results,
        latency: Object.fromEntries(Object.entries(latency).map(([k, v]) => [k, { p50: percentile(v, 50), p95: percentile(v, 95) }])),
      },
      null,
      2,
    ),
  );
}
