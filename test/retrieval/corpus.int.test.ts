import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedRetriever, createLocalEmbedder, loadCorpusDir, type EmbeddedRetriever } from "../../src/retrieval/index.js";
import type { Language } from "../../src/text/language.js";
import { extractNumbers } from "../../src/text/numbers.js";

/**
 * Retrieval quality over the bundled sample corpus: each question is written against a fact of
 * one document, and that document must be among the first 3 distinct documents returned; where
 * the answer is a number, one of the 3 best chunks or their context windows (what a reader is
 * given with them) must state it: chunks are single units, so a list's lead-in paragraph is a
 * neighbour of its items.
 * Runs only when data/corpus holds at least 20 documents.
 */
const CORPUS = join(import.meta.dirname, "..", "..", "data", "corpus");
const corpusSize = (() => {
  try {
    return readdirSync(CORPUS).filter((name) => /\.(?:md|txt)$/u.test(name) && !/^readme/iu.test(name)).length;
  } catch {
    return 0;
  }
})();

/** `fact`: a number (canonical, as extractNumbers gives it) that answers the question. */
const QUESTIONS: { lang: Language; query: string; expected: string; fact?: string }[] = [
  { lang: "en", query: "How much does third-party car insurance cost?", expected: "motor-third-party-en", fact: "56000000" },
  { lang: "en", query: "What is the deductible for a second claim on my car body policy?", expected: "motor-body-en", fact: "20" },
  { lang: "en", query: "Is my cracked phone screen covered?", expected: "device-en" },
  { lang: "en", query: "Does travel insurance meet Schengen visa requirements?", expected: "travel-en", fact: "30000" },
  { lang: "en", query: "Is there a waiting period for maternity in supplementary health?", expected: "health-supplementary-en", fact: "9" },
  { lang: "en", query: "Are aftershocks counted as a separate earthquake?", expected: "home-earthquake-en", fact: "72" },
  { lang: "en", query: "Who gets the money if I die and no beneficiary is named?", expected: "life-en" },
  { lang: "en", query: "Can I pay my premium in installments?", expected: "payments-en", fact: "20000000" },
  { lang: "en", query: "How do I cancel my policy and get a refund?", expected: "renewal-cancellation-en" },
  { lang: "en", query: "What are the call centre opening hours on Thursday?", expected: "contact-hours-en", fact: "14" },
  { lang: "en", query: "Which documents do I need to file a claim?", expected: "claims-procedure-en" },
  { lang: "en", query: "How long does it take to answer a complaint?", expected: "complaints-en", fact: "15" },
  { lang: "en", query: "Does home fire insurance cover burst water pipes?", expected: "home-fire-en" },
  { lang: "fa", query: "قیمت بیمه شخص ثالث چقدر است؟", expected: "motor-third-party-fa", fact: "56000000" },
  { lang: "fa", query: "فرانشیز بیمه بدنه برای خسارت دوم چند درصد است؟", expected: "motor-body-fa", fact: "20" },
  { lang: "fa", query: "شکستن صفحه گوشی موبایل را پوشش می‌دهید؟", expected: "device-fa" },
  { lang: "fa", query: "بیمه مسافرتی برای ویزای شنگن قبول است؟", expected: "travel-fa", fact: "30000" },
  { lang: "fa", query: "دوره انتظار زایمان در بیمه تکمیلی چقدر است؟", expected: "health-supplementary-fa", fact: "9" },
  { lang: "fa", query: "پس‌لرزه‌ها جدا حساب می‌شوند؟", expected: "home-earthquake-fa", fact: "72" },
  { lang: "fa", query: "اگر ذینفع مشخص نشده باشد سرمایه فوت به چه کسی می‌رسد؟", expected: "life-fa" },
  { lang: "fa", query: "می‌توانم حق بیمه را قسطی پرداخت کنم؟", expected: "payments-fa", fact: "20000000" },
  { lang: "fa", query: "چطور بیمه‌نامه را لغو کنم و پول را پس بگیرم؟", expected: "renewal-cancellation-fa" },
  { lang: "fa", query: "ساعت کاری مرکز تماس در روز پنجشنبه", expected: "contact-hours-fa", fact: "14" },
  { lang: "fa", query: "برای اعلام خسارت چه مدارکی لازم است؟", expected: "claims-procedure-fa" },
  // Arabic ي/ك, no ZWNJ (بيمه نامه, ميدهد): how many users type on Arabic keyboards.
  { lang: "fa", query: "بيمه نامه آتش سوزي منزل چه خطراتي را پوشش ميدهد", expected: "home-fire-fa" },
  { lang: "fa", query: "ميخواهم از بيمه شكايت كنم", expected: "complaints-fa" },
];

describe.skipIf(corpusSize < 20)("retrieval over data/corpus", () => {
  let retriever: EmbeddedRetriever;

  beforeAll(async () => {
    const { documents, problems } = await loadCorpusDir(CORPUS, { tenantId: "sample" });
    expect(problems).toEqual([]);
    retriever = createEmbeddedRetriever({ embedder: createLocalEmbedder() });
    await retriever.add(documents);
  });

  it("puts the expected document in the top 3 for every question", async () => {
    const report: string[] = [];
    const misses: string[] = [];
    for (const question of QUESTIONS) {
      const { hits } = await retriever.retrieve({ query: question.query, tenantId: "sample", topK: 10, language: question.lang });
      const documents = [...new Set(hits.map((hit) => hit.chunk.documentId))];
      const rank = documents.indexOf(question.expected) + 1;
      report.push(`${rank === 0 ? "-" : rank}\t${hits[0]?.score.toFixed(2) ?? "-"}\t${hits[0]?.chunk.chunkId ?? "-"}\t${question.query}`);
      if (rank === 0 || rank > 3) misses.push(`${question.query} → ${question.expected} (rank ${rank === 0 ? ">10" : rank})`);
      // The answer itself must be in one of the 3 best hits, not just somewhere in the document.
      const { fact } = question;
      const seen = hits.slice(0, 3).flatMap((hit) => [hit.chunk, ...hit.neighbors]);
      if (fact !== undefined && !seen.some((chunk) => extractNumbers(chunk.text).includes(fact))) {
        misses.push(`${question.query} → no top-3 chunk states ${fact}`);
      }
    }
    console.log(`document rank\ttop score\ttop chunk\tquestion\n${report.join("\n")}`);
    expect(misses).toEqual([]);
  });

  it("keeps scores in 0..1 and languages soft: an English question can still find Persian-only words", async () => {
    const { hits } = await retriever.retrieve({ query: "Schengen", tenantId: "sample", topK: 5, language: "fa" });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.score >= 0 && hit.score <= 1)).toBe(true);
    expect(hits[0]?.chunk.documentId).toBe("travel-en");
  });
});
