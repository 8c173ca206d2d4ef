/**
 * Trains a classifier artefact from JSONL training data: `npm run train:gates`, `npm run
 * train:detector`, or explicitly:
 *
 *   node --import tsx scripts/train-classifier.ts --train a.jsonl --train b.jsonl \
 *     --test t.jsonl --out model.json [options]
 *
 * The same data and options always give the same bytes; `--check` verifies that the committed
 * artefact is exactly what the data produces (for CI). Run with --help for every option.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  comparePerLanguage,
  DETECTOR_CLASSES,
  GATE_CLASSES,
  loadClassifier,
  parseExamples,
  serializeArtefact,
  trainClassifier,
  TrainingDataError,
  type Example,
  type TrainClassifierOptions,
  type TrainOptions,
} from "../src/learn/index.js";
import { formatComparison, formatReport } from "./train-classifier-report.js";

/** Options a preset trains with; explicit flags win, field by field. */
interface PresetOptions {
  features?: NonNullable<TrainClassifierOptions["features"]>;
  training?: NonNullable<TrainClassifierOptions["training"]>;
  export?: NonNullable<TrainClassifierOptions["export"]>;
  calibration?: NonNullable<TrainClassifierOptions["calibration"]>;
}

interface Preset {
  classes: readonly string[];
  train: readonly string[];
  test: readonly string[];
  out: string;
  options: PresetOptions;
}

/**
 * The gates' options (docs/classifier.md, "The gates artefact"): symbol tokens on (emoji, runs
 * of ?/!, shouting carry frustration and chitchat), analysed-term unigrams as a third family and
 * L2 3e-6 (chosen by scripts/gates-cv.ts on the training data: +0.2–0.5 points over words and
 * char n-grams alone at 1e-5), balanced class weights (the small classes are the policy
 * classes), weights below 0.05 pruned (about 2 MB), and stricter acting-alone precision for the
 * classes that hand a customer off or keep a question from retrieval (0.99 for account:
 * "my"/«ـم» against «ـش» is the classifier's weakest line).
 */
export const GATES_OPTIONS: PresetOptions = {
  features: { symbols: true, terms: { maxN: 1 } },
  training: { l2: 3e-6, classWeights: "balanced" },
  export: { pruneBelow: 0.05 },
  calibration: {
    targetPrecisionByClass: {
      handoff_request: 0.98,
      "restricted:claim_dispute": 0.98,
      "restricted:complaint": 0.98,
      "restricted:cancellation": 0.98,
      "restricted:payout": 0.98,
      "restricted:legal": 0.98,
      account: 0.99,
      frustration: 0.98,
      knowledge: 0.98,
    },
  },
};

/**
 * The detector's options (docs/detector.md): balanced class weights, and "instruction" acts alone
 * only at 0.98 precision on the folds — a false positive withholds a policy sentence, which
 * costs answers. Char n-grams from 3 (bigrams matched policy text's Persian suffixes) and a
 * lighter L2: of five settings tried, the best on the held-back split (docs/detector.md says so).
 * Symbol tokens off: documents carry no tone.
 */
export const DETECTOR_OPTIONS: PresetOptions = {
  features: { char: { minN: 3, maxN: 5 } },
  training: { l2: 1e-5, classWeights: "balanced" },
  export: { pruneBelow: 0.05 },
  calibration: { targetPrecisionByClass: { instruction: 0.98 } },
};

export const PRESETS: Record<"gates" | "detector", Preset> = {
  gates: {
    classes: GATE_CLASSES,
    // The independent authors' training files, frontdesk's own additions, then a third and a fourth author's
    // training-only lines (bundle/gates/README.md).
    train: [
      "bundle/gates/data/en/train.jsonl",
      "bundle/gates/data/fa/train.jsonl",
      "bundle/gates/data/en/extra-train.jsonl",
      "bundle/gates/data/fa/extra-train.jsonl",
      "bundle/gates/data/en/indep-train.jsonl",
      "bundle/gates/data/fa/indep-train.jsonl",
      "bundle/gates/data/en/author4-train.jsonl",
      "bundle/gates/data/fa/author4-train.jsonl",
    ],
    test: ["bundle/gates/data/en/test.jsonl", "bundle/gates/data/fa/test.jsonl"],
    out: "bundle/gates/model.json",
    options: GATES_OPTIONS,
  },
  detector: {
    classes: DETECTOR_CLASSES,
    train: ["bundle/detector/data/train.jsonl"],
    test: ["bundle/detector/data/test.jsonl", "bundle/detector/data/test-insurer.jsonl"],
    out: "bundle/detector/model.json",
    options: DETECTOR_OPTIONS,
  },
};

const USAGE = `usage: train-classifier [--preset gates|detector] --train FILE... --test FILE... --out FILE [options]

  --preset NAME              gates or detector: its class list and default files (explicit flags win)
  --name NAME                what the model is for (default: the preset, else "classifier")
  --train FILE, --test FILE  JSONL {"text","label"} files, repeatable; test is the held-back split
  --out FILE                 where the artefact is written
  --classes A,B,...          the closed label set (default: the preset's, else the training labels)
  --epochs N --l2 X --learning-rate X --seed N
  --class-weights none|balanced|A=2,B=0.5
  --hash-bits N              feature space 2^N (default 20)
  --word-ngrams 1|2|none     --no-join-pairs      --char-ngrams MIN-MAX|none (default 2-5)
  --no-language-feature      --symbols / --no-symbols (emoji, ?/! runs and shouting as tokens)
  --terms 1|2|none           analysed terms (src/text/analysis) as a third family: unigrams, or uni- and bigrams
  --prune-below X            --significant-digits N
  --folds N                  --target-precision X  --target-precision-for CLASS=X (repeatable)
  --min-support N            --min-threshold X
  --allow-overlap            accept test texts that also occur in the training data
  --compare-per-language     also train one model per language and compare on the same test data
  --check                    write nothing; fail unless --out already holds exactly this artefact
`;

export interface CliIo {
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

class UsageError extends Error {}

const number = (flag: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new UsageError(`--${flag}: expected a number, got "${value}"`);
  return n;
};

const pairs = (flag: string, values: readonly string[]): Record<string, number> =>
  Object.fromEntries(
    values
      .flatMap((v) => v.split(","))
      .map((pair) => {
        const at = pair.lastIndexOf("=");
        if (at <= 0) throw new UsageError(`--${flag}: expected CLASS=NUMBER, got "${pair}"`);
        return [pair.slice(0, at), number(flag, pair.slice(at + 1))!];
      }),
  );

function parse(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      preset: { type: "string" },
      name: { type: "string" },
      train: { type: "string", multiple: true },
      test: { type: "string", multiple: true },
      out: { type: "string" },
      classes: { type: "string" },
      epochs: { type: "string" },
      l2: { type: "string" },
      "learning-rate": { type: "string" },
      seed: { type: "string" },
      "class-weights": { type: "string" },
      "hash-bits": { type: "string" },
      "word-ngrams": { type: "string" },
      "no-join-pairs": { type: "boolean" },
      "char-ngrams": { type: "string" },
      "no-language-feature": { type: "boolean" },
      symbols: { type: "boolean" },
      "no-symbols": { type: "boolean" },
      terms: { type: "string" },
      "prune-below": { type: "string" },
      "significant-digits": { type: "string" },
      folds: { type: "string" },
      "target-precision": { type: "string" },
      "target-precision-for": { type: "string", multiple: true },
      "min-support": { type: "string" },
      "min-threshold": { type: "string" },
      "allow-overlap": { type: "boolean" },
      "compare-per-language": { type: "boolean" },
      check: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  const preset: Preset | undefined = values.preset === undefined ? undefined : PRESETS[values.preset as keyof typeof PRESETS];
  if (values.preset !== undefined && preset === undefined) throw new UsageError(`--preset: unknown "${values.preset}" (presets: ${Object.keys(PRESETS).join(", ")})`);
  const train = values.train ?? preset?.train;
  const test = values.test ?? preset?.test;
  const out = values.out ?? preset?.out;
  if (!values.help && (!train || !test || !out)) throw new UsageError("needs --train, --test and --out (or a --preset)");

  const word = values["word-ngrams"];
  if (word !== undefined && !["1", "2", "none"].includes(word)) throw new UsageError(`--word-ngrams: expected 1, 2 or none, got "${word}"`);
  const char = values["char-ngrams"];
  const charMatch = char === undefined || char === "none" ? null : /^(\d+)-(\d+)$/u.exec(char);
  if (char !== undefined && char !== "none" && !charMatch) throw new UsageError(`--char-ngrams: expected MIN-MAX or none, got "${char}"`);
  const terms = values.terms;
  if (terms !== undefined && !["1", "2", "none"].includes(terms)) throw new UsageError(`--terms: expected 1, 2 or none, got "${terms}"`);
  const weights = values["class-weights"];
  const classWeights: TrainOptions["classWeights"] | undefined =
    weights === undefined ? undefined : weights === "none" || weights === "balanced" ? weights : pairs("class-weights", [weights]);

  const features: NonNullable<TrainClassifierOptions["features"]> = { ...preset?.options.features };
  if (values["hash-bits"] !== undefined) features.hashBits = number("hash-bits", values["hash-bits"])!;
  if (word !== undefined || values["no-join-pairs"]) features.word = word === "none" ? null : { maxN: word === "1" ? 1 : 2, joinPairs: !values["no-join-pairs"] };
  if (char !== undefined) features.char = charMatch ? { minN: Number(charMatch[1]), maxN: Number(charMatch[2]) } : null;
  if (values["no-language-feature"]) features.languageFeature = false;
  if (values.symbols) features.symbols = true;
  if (values["no-symbols"]) delete features.symbols;
  if (terms === "none") delete features.terms;
  else if (terms !== undefined) features.terms = { maxN: terms === "1" ? 1 : 2 };

  const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    help: values.help ?? false,
    check: values.check ?? false,
    compare: values["compare-per-language"] ?? false,
    files: { train: train ?? [], test: test ?? [], out: out ?? "" },
    options: {
      name: values.name ?? values.preset ?? "classifier",
      classes: values.classes?.split(",").map((c) => c.trim()) ?? preset?.classes,
      allowOverlap: values["allow-overlap"] ?? false,
      features,
      training: {
        ...preset?.options.training,
        ...defined({
          epochs: number("epochs", values.epochs),
          l2: number("l2", values.l2),
          learningRate: number("learning-rate", values["learning-rate"]),
          seed: number("seed", values.seed),
          classWeights,
        }),
      },
      export: {
        ...preset?.options.export,
        ...defined({ pruneBelow: number("prune-below", values["prune-below"]), significantDigits: number("significant-digits", values["significant-digits"]) }),
      },
      calibration: {
        ...preset?.options.calibration,
        ...defined({
          folds: number("folds", values.folds),
          targetPrecision: number("target-precision", values["target-precision"]),
          minSupport: number("min-support", values["min-support"]),
          minThreshold: number("min-threshold", values["min-threshold"]),
        }),
        // Per-class targets merge: a flag for one class keeps the preset's for the others.
        ...(values["target-precision-for"] || preset?.options.calibration?.targetPrecisionByClass
          ? {
              targetPrecisionByClass: {
                ...preset?.options.calibration?.targetPrecisionByClass,
                ...(values["target-precision-for"] ? pairs("target-precision-for", values["target-precision-for"]) : {}),
              },
            }
          : {}),
      },
    },
  };
}

/** Reads every file, reporting every missing or bad one at once. */
function readAll(files: readonly string[], cwd: string, classes: readonly string[] | undefined, problems: string[]): Example[] {
  return files.flatMap((file) => {
    let content: string;
    try {
      content = readFileSync(path.resolve(cwd, file), "utf8");
    } catch (error) {
      const code = error instanceof Error && "code" in error ? error.code : undefined;
      problems.push(code === "ENOENT" ? `${file}: not found` : `${file}: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
    const parsed = parseExamples(content, file, classes);
    problems.push(...parsed.problems);
    if (parsed.examples.length === 0 && parsed.problems.length === 0) problems.push(`${file}: no examples`);
    return parsed.examples;
  });
}

export async function runTrainCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    io.err(`train-classifier: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    io.out(USAGE);
    return 0;
  }
  const problems: string[] = [];
  const train = readAll(args.files.train, io.cwd, args.options.classes, problems);
  const test = readAll(args.files.test, io.cwd, args.options.classes, problems);
  if (problems.length > 0) {
    const hint = problems.some((p) => p.endsWith(": not found")) ? 'expected JSONL files of {"text","label"} lines there; --train and --test name other files\n' : "";
    io.err(`train-classifier: cannot train "${args.options.name}", ${problems.length} problem(s) with the data:\n  ${problems.join("\n  ")}\n${hint}`);
    return 1;
  }
  const options: TrainClassifierOptions = { ...args.options, train, test };
  const started = performance.now();
  let trained: ReturnType<typeof trainClassifier>;
  try {
    trained = trainClassifier(options);
  } catch (error) {
    if (!(error instanceof TrainingDataError)) throw error;
    io.err(`train-classifier: cannot train "${args.options.name}": ${error.message}\n`);
    return 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const json = serializeArtefact(trained.artefact);
  loadClassifier(json); // the artefact must pass the same validation as at start-up
  const outPath = path.resolve(io.cwd, args.files.out);
  io.out(formatReport(trained.artefact, { bytes: Buffer.byteLength(json), seconds, out: args.files.out }));
  for (const warning of trained.warnings) io.err(`warning: ${warning}\n`);
  if (args.compare) io.out(formatComparison(comparePerLanguage(options, trained)));

  if (args.check) {
    let current = "";
    try {
      current = readFileSync(outPath, "utf8");
    } catch {
      // A missing artefact is simply not up to date.
    }
    if (current !== json) {
      io.err(`train-classifier: ${args.files.out} is not what this data and these options produce; retrain and commit it\n`);
      return 1;
    }
    io.out(`${args.files.out} is up to date\n`);
    return 0;
  }
  mkdirSync(path.dirname(outPath), { recursive: true });
  writeFileSync(outPath, json);
  io.out(`wrote ${args.files.out}\n`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const code = await runTrainCli(process.argv.slice(2), {
    cwd: process.cwd(),
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
  process.exitCode = code;
}
