import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { chunkSentences } from "../../../src/models/offline/sentences.js";
import type { EvidenceChunk, GenerateOutput } from "../../../src/models/roles.js";
import { run } from "./helpers.js";

/**
 * The offline model on the bundled corpus: each document is read, its front matter stripped, and
 * its "## " sections used as chunks, so generate and verify run on the real text a newcomer's
 * first conversation retrieves.
 */

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../data/corpus");
const DOCUMENTS = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => /-(?:en|fa)\.md$/u.test(f)) : [];

function load(file: string): EvidenceChunk[] {
  const raw = readFileSync(path.join(CORPUS, file), "utf8").replace(/\r\n/gu, "\n");
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/u.exec(raw);
  if (match === null) throw new Error(`${file}: no front matter`);
  const meta = new Map(match[1]!.split("\n").map((line) => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()]));
  const id = meta.get("id") ?? file.replace(/\.md$/u, "");
  return match[2]!
    .split(/\n(?=## )/u)
    .map((text) => text.trim())
    .filter((text) => text !== "")
    .map((text, i) => ({
      chunkId: `${id}#${i}`,
      documentId: id,
      title: meta.get("title") ?? id,
      product: meta.get("product") ?? id,
      domain: meta.get("domain") ?? "general",
      lang: meta.get("lang") === "fa" ? "fa" : "en",
      text,
      score: 0.6,
    }));
}

function loadLanguage(lang: "en" | "fa"): EvidenceChunk[] {
  return DOCUMENTS.filter((f) => f.endsWith(`-${lang}.md`)).flatMap(load);
}

describe.skipIf(DOCUMENTS.length < 20)("offline model on the bundled corpus", () => {
  const en = loadLanguage("en");
  const fa = loadLanguage("fa");

  async function answer(question: string, language: "en" | "fa"): Promise<GenerateOutput> {
    const chunks = language === "en" ? en : fa;
    const out = await run("generate", { query: question, userText: question, language, chunks });
    for (const claim of out.claims) expect(chunks.find((c) => c.chunkId === claim.chunkIds[0])?.text).toContain(claim.text);
    return out;
  }

  const joined = (out: GenerateOutput): string => out.claims.map((c) => c.text).join(" ");

  it("answers the motor body deductible with its minimum amount", async () => {
    const out = await answer("What is the deductible for motor body insurance?", "en");
    expect(out.claims.every((c) => c.chunkIds[0]!.startsWith("motor-body-en#"))).toBe(true);
    expect(joined(out)).toContain("5,000,000 rials");
  });

  it("answers the Schengen requirement with the €30,000 minimum", async () => {
    const out = await answer("How much travel insurance do I need for a Schengen visa?", "en");
    expect(out.claims[0]?.chunkIds[0]).toMatch(/^travel-en#/u);
    expect(out.claims[0]?.text).toContain("€30,000");
  });

  it("answers call centre hours with the list of opening hours", async () => {
    const out = await answer("What are your call centre hours?", "en");
    expect(out.claims.every((c) => c.chunkIds[0]!.startsWith("contact-hours-en#"))).toBe(true);
    expect(joined(out)).toContain("8:00 to 20:00");
    const fa = await answer("ساعت کاری مرکز تماس چیست؟", "fa");
    expect(fa.claims.every((c) => c.chunkIds[0]!.startsWith("contact-hours-fa#"))).toBe(true);
    expect(joined(fa)).toContain("8:00 تا 20:00");
  });

  it("answers a spouse question from the supplementary health document", async () => {
    const out = await answer("supplementary health insurance cover spouse", "en");
    expect(out.claims[0]?.chunkIds[0]).toMatch(/^health-supplementary-en#/u);
    expect(out.claims[0]?.text).toContain("spouse");
    const fa = await answer("بیمه تکمیلی درمان پوشش همسر", "fa");
    expect(fa.claims[0]?.chunkIds[0]).toMatch(/^health-supplementary-fa#/u);
    expect(fa.claims[0]?.text).toContain("همسر");
  });

  it("answers the Persian motor body deductible with its minimum amount", async () => {
    const out = await answer("فرانشیز بیمه بدنه چقدر است؟", "fa");
    expect(out.claims.every((c) => c.chunkIds[0]!.startsWith("motor-body-fa#"))).toBe(true);
    expect(joined(out)).toContain("۵٬۰۰۰٬۰۰۰ ریال");
  });

  it("does not answer what the corpus does not say", async () => {
    expect((await answer("Does travel insurance cover skiing?", "en")).answered).toBe(false);
  });

  it("verifies its own answers, and accepts every quotable sentence of the corpus", async () => {
    for (const [question, language] of [
      ["What is the deductible for motor body insurance?", "en"],
      ["How much is third-party insurance?", "en"],
      ["قیمت بیمه مسافرتی چقدر است؟", "fa"],
    ] as const) {
      const chunks = language === "en" ? en : fa;
      const out = await answer(question, language);
      const verdicts = await run("verify", {
        language,
        claims: out.claims.map((c) => ({ text: c.text, chunks: chunks.filter((ch) => c.chunkIds.includes(ch.chunkId)) })),
      });
      expect(verdicts.claims.every((v) => v.supported)).toBe(true);
    }
    for (const c of [...en, ...fa]) {
      const claims = chunkSentences(c.text).map((s) => ({ text: s.text, chunks: [c] }));
      if (claims.length === 0) continue;
      const verdicts = await run("verify", { language: c.lang, claims });
      expect(
        verdicts.claims.filter((v) => !v.supported),
        c.chunkId,
      ).toEqual([]);
    }
  });
});
