import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runTrainCli } from "../../scripts/train-classifier.js";
import { loadClassifier, type Example } from "../../src/learn/index.js";
import { TINY_TEST, TINY_TRAIN } from "./fixtures.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const jsonl = (examples: readonly Example[]) => `${examples.map((e) => JSON.stringify(e)).join("\n")}\n`;
const TINY_FLAGS = ["--folds", "3", "--min-support", "2", "--min-threshold", "0.3", "--target-precision", "0.9"];

/** A temp directory with the tiny set split by language, like bundle/gates/data/{en,fa}. */
function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fd-learn-"));
  for (const lang of ["en", "fa"] as const) {
    mkdirSync(path.join(dir, lang));
    const mine = (e: Example) => /[a-z]/iu.test(e.text) === (lang === "en");
    writeFileSync(path.join(dir, lang, "train.jsonl"), jsonl(TINY_TRAIN.filter(mine)));
    writeFileSync(path.join(dir, lang, "test.jsonl"), jsonl(TINY_TEST.filter(mine)));
  }
  return dir;
}

async function run(argv: string[], cwd: string) {
  let out = "";
  let err = "";
  const code = await runTrainCli(argv, { cwd, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const FILES = ["--train", "en/train.jsonl", "--train", "fa/train.jsonl", "--test", "en/test.jsonl", "--test", "fa/test.jsonl"];

describe("train-classifier", () => {
  it("writes a loadable artefact with a trailing newline and prints its metrics", async () => {
    const dir = dataDir();
    const { code, out } = await run([...FILES, "--out", "out/model.json", "--name", "gates", ...TINY_FLAGS], dir);
    expect(code).toBe(0);
    const written = readFileSync(path.join(dir, "out/model.json"), "utf8");
    expect(written.endsWith("\n")).toBe(true);
    expect(loadClassifier(written).name).toBe("gates");
    expect(out).toContain("gates: 60 training and 30 held-back examples, 5 classes");
    expect(out).toContain("| class | test support | precision | recall | F1 | threshold |");
    expect(out).toMatch(/^\| restricted:cancellation \| 6 \| /mu);
    expect(out).toContain("wrote out/model.json");
  });

  it("gives the same bytes from shuffled files with the same content, and --check confirms them", async () => {
    const dir = dataDir();
    expect((await run([...FILES, "--out", "a.json", ...TINY_FLAGS], dir)).code).toBe(0);
    // The same examples, one file, reversed.
    writeFileSync(path.join(dir, "all.jsonl"), jsonl([...TINY_TRAIN].reverse()));
    const shuffled = ["--train", "all.jsonl", "--test", "fa/test.jsonl", "--test", "en/test.jsonl"];
    expect((await run([...shuffled, "--out", "b.json", ...TINY_FLAGS], dir)).code).toBe(0);
    expect(readFileSync(path.join(dir, "b.json"), "utf8")).toBe(readFileSync(path.join(dir, "a.json"), "utf8"));

    const check = await run([...shuffled, "--out", "a.json", "--check", ...TINY_FLAGS], dir);
    expect([check.code, check.out.endsWith("a.json is up to date\n")]).toEqual([0, true]);
    const stale = await run([...shuffled, "--out", "a.json", "--check", ...TINY_FLAGS, "--seed", "2"], dir);
    expect(stale.code).toBe(1);
    expect(stale.err.endsWith("train-classifier: a.json is not what this data and these options produce; retrain and commit it\n")).toBe(true);
  });

  it("fails clearly when the preset's data is not there yet, naming every missing file", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "fd-learn-"));
    const { code, err } = await run(["--preset", "gates"], empty);
    expect(code).toBe(1);
    expect(err).toBe(
      [
        'train-classifier: cannot train "gates", 10 problem(s) with the data:',
        "  bundle/gates/data/en/train.jsonl: not found",
        "  bundle/gates/data/fa/train.jsonl: not found",
        "  bundle/gates/data/en/extra-train.jsonl: not found",
        "  bundle/gates/data/fa/extra-train.jsonl: not found",
        "  bundle/gates/data/en/indep-train.jsonl: not found",
        "  bundle/gates/data/fa/indep-train.jsonl: not found",
        "  bundle/gates/data/en/author4-train.jsonl: not found",
        "  bundle/gates/data/fa/author4-train.jsonl: not found",
        "  bundle/gates/data/en/test.jsonl: not found",
        "  bundle/gates/data/fa/test.jsonl: not found",
        'expected JSONL files of {"text","label"} lines there; --train and --test name other files',
        "",
      ].join("\n"),
    );
    expect((await run(["--preset", "detector"], empty)).err).toContain("bundle/detector/data/train.jsonl: not found");
  });

  it("reports labels outside the preset's classes by file and line", async () => {
    const dir = dataDir();
    writeFileSync(path.join(dir, "bad.jsonl"), '{"text":"hi","label":"chitchat"}\n{"text":"sue","label":"legal"}\n');
    const { code, err } = await run(["--preset", "gates", "--train", "bad.jsonl", "--test", "en/test.jsonl", "--out", "m.json"], dir);
    expect(code).toBe(1);
    expect(err).toContain('bad.jsonl:2: unknown label "legal" (labels: handoff_request, restricted:claim_dispute,');
  });

  it("reports training-data problems the pipeline finds, and bad flags as usage errors", async () => {
    const dir = dataDir();
    const leaked = await run(["--train", "en/train.jsonl", "--test", "en/train.jsonl", "--out", "m.json"], dir);
    expect(leaked.code).toBe(1);
    expect(leaked.err).toMatch(/^train-classifier: cannot train "classifier": training data has 1 problem\(s\):\n {2}test: 30 test text\(s\) also in the training data/u);
    const usage = await run(["--train", "x", "--test", "y", "--out", "z", "--epochs", "many"], dir);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^train-classifier: --epochs: expected a number, got "many"\n\nusage: /u);
    expect((await run(["--preset", "nope"], dir)).err).toMatch(/^train-classifier: --preset: unknown "nope" \(presets: gates, detector\)/u);
  });

  it("compares one bilingual model with one per language when asked", async () => {
    const { code, out } = await run([...FILES, "--out", "m.json", "--compare-per-language", ...TINY_FLAGS], dataDir());
    expect(code).toBe(0);
    expect(out).toContain("one bilingual model against one model per language, on the same test examples:");
    expect(out).toMatch(/^\| fa \| 15 \| /mu);
    expect(out).toMatch(/^\| en \| 15 \| /mu);
  });

  it("runs as a script with node --import tsx from the package root, as the npm scripts do", async () => {
    const dir = dataDir();
    const files = FILES.map((f) => (f.endsWith(".jsonl") ? path.join(dir, f) : f));
    const out = path.join(dir, "m.json");
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/train-classifier.ts", ...files, "--out", out, ...TINY_FLAGS], { cwd: ROOT });
    expect(stdout).toContain(`wrote ${out}`);
    expect(loadClassifier(readFileSync(out, "utf8")).classes).toHaveLength(5);
  });
});
