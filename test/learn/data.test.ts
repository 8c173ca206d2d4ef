import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalize, conflictingLabels, datasetSha256, foldOf, overlap, parseExamples } from "../../src/learn/data.js";
import { TINY_TRAIN } from "./fixtures.js";

describe("parseExamples", () => {
  it("reads {text,label} lines, skips blank lines and a BOM, ignores other keys", () => {
    const content = '\uFEFF{"text":"hi","label":"chitchat"}\n\n{"text":"سلام","label":"chitchat","source":"writer-2"}\r\n';
    expect(parseExamples(content, "a.jsonl")).toEqual({
      examples: [
        { text: "hi", label: "chitchat" },
        { text: "سلام", label: "chitchat" },
      ],
      problems: [],
    });
  });

  it("reports every bad line with its number and keeps the good ones", () => {
    const content = ['{"text":"ok","label":"knowledge"}', "{not json", "[1,2]", '{"text":"  ","label":"knowledge"}', '{"text":"x"}', '{"text":"x","label":"knowlege"}'].join("\n");
    expect(parseExamples(content, "gates/en/train.jsonl", ["knowledge", "chitchat"])).toEqual({
      examples: [{ text: "ok", label: "knowledge" }],
      problems: [
        "gates/en/train.jsonl:2: not valid JSON",
        'gates/en/train.jsonl:3: expected an object with "text" and "label"',
        'gates/en/train.jsonl:4: "text" must be a non-empty string',
        'gates/en/train.jsonl:5: "label" must be a non-empty string',
        'gates/en/train.jsonl:6: unknown label "knowlege" (labels: knowledge, chitchat)',
      ],
    });
  });
});

describe("datasetSha256", () => {
  const shuffled = [...TINY_TRAIN].reverse().sort((a, b) => (a.text.length % 7) - (b.text.length % 7));

  it("is the SHA-256 of the canonical JSONL", () => {
    const canonical = canonicalize(TINY_TRAIN)
      .map((e) => `${JSON.stringify({ text: e.text, label: e.label })}\n`)
      .join("");
    expect(datasetSha256(TINY_TRAIN)).toBe(createHash("sha256").update(canonical, "utf8").digest("hex"));
  });

  it("does not depend on the order of the examples or how they are split into files", () => {
    expect(shuffled).not.toEqual(TINY_TRAIN);
    expect(datasetSha256(shuffled)).toBe(datasetSha256(TINY_TRAIN));
    expect(canonicalize(shuffled)).toEqual(canonicalize(TINY_TRAIN));
  });

  it("changes with any text or label", () => {
    const relabelled = TINY_TRAIN.map((e, i) => (i === 3 ? { ...e, label: "knowledge" } : e));
    expect(datasetSha256(relabelled)).not.toBe(datasetSha256(TINY_TRAIN));
    expect(datasetSha256([...TINY_TRAIN, { text: "one more", label: "chitchat" }])).not.toBe(datasetSha256(TINY_TRAIN));
  });

  it("keeps duplicates: twice the same example weighs twice", () => {
    expect(datasetSha256([...TINY_TRAIN, TINY_TRAIN[0]!])).not.toBe(datasetSha256(TINY_TRAIN));
  });
});

describe("data checks", () => {
  it("finds texts labelled two ways, after folding", () => {
    expect(
      conflictingLabels([
        { text: "Cancel it", label: "restricted:cancellation" },
        { text: "cancel  it", label: "frustration" },
        { text: "hi", label: "chitchat" },
      ]),
    ).toEqual(['"cancel it" is labelled frustration and restricted:cancellation']);
  });

  it("finds test texts that are in the training data, after folding", () => {
    expect(
      overlap(
        [{ text: "بيمه‌نامه", label: "knowledge" }],
        [
          { text: "بیمه نامه", label: "knowledge" },
          { text: "other", label: "knowledge" },
        ],
      ),
    ).toEqual(["بیمه نامه"]);
  });

  it("assigns folds by the folded text: stable, in range, the same for spelling variants", () => {
    const folds = TINY_TRAIN.map((e) => foldOf(e.text, 5));
    expect(folds.every((f) => f >= 0 && f < 5)).toBe(true);
    expect(new Set(folds).size).toBe(5);
    expect(foldOf("می‌خواهم بیمه‌نامه‌ام را لغو کنم", 5)).toBe(foldOf("مي خواهم بيمه نامه ام را لغو كنم", 5));
    expect(TINY_TRAIN.slice(0, 6).map((e) => foldOf(e.text, 5))).toEqual(folds.slice(0, 6));
  });
});
