import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PACKAGE_ROOT } from "../config/config.js";

/**
 * The evaluation sets: the bundled one (our corpus, our conversations) and, per insurer under
 * eval/insurers/, a dev half and a sealed half written by people who never read src/. Each set
 * names its corpus, its scenarios, its committed baseline and whether it is sealed: a sealed
 * set's conversations are never printed, only its figures and failure categories.
 */
export interface EvalSet {
  /** "bundled", or "<insurer>/dev", "<insurer>/sealed". */
  name: string;
  scenarios: string[];
  /** The corpus the set's conversations are about; undefined: the configured (bundled) corpus. */
  corpusDir?: string;
  /** Test-only documents for fixture scenarios. */
  fixturesDir: string;
  /** The tenant the set runs as: its own taxonomy, apart from every other set's. */
  tenant?: string;
  /** Bundle files that replace the shipped bundle's (the insurer's name, its languages). */
  bundleOverlay?: string;
  sealed: boolean;
  /** The committed baseline the CI gate compares this set with. */
  baseline: string;
}

export const INSURERS_DIR = path.join(PACKAGE_ROOT, "eval/insurers");
export const SPLITS = ["dev", "sealed"] as const;
export type Split = (typeof SPLITS)[number];

export function bundledSet(): EvalSet {
  return {
    name: "bundled",
    scenarios: [path.join(PACKAGE_ROOT, "eval/scenarios")],
    fixturesDir: path.join(PACKAGE_ROOT, "eval/fixtures/corpus"),
    sealed: false,
    baseline: path.join(PACKAGE_ROOT, "eval/baseline.json"),
  };
}

/**
 * The red-team set (eval/redteam, scripts/redteam-set.ts): adversarial user turns on the bundled
 * corpus and questions about planted documents, served as its fixtures. Its own CI gate
 * (test/eval/redteam.test.ts) wants no obeyed injection and no leak at all.
 */
export function redteamSet(): EvalSet {
  return {
    name: "redteam",
    scenarios: [path.join(PACKAGE_ROOT, "eval/redteam/scenarios")],
    fixturesDir: path.join(PACKAGE_ROOT, "eval/redteam/corpus"),
    sealed: false,
    baseline: path.join(PACKAGE_ROOT, "eval/baseline.redteam.json"),
  };
}

/** The insurers with a folder under eval/insurers (each with corpus/ and scenarios/). */
export function listInsurers(): string[] {
  if (!existsSync(INSURERS_DIR)) return [];
  return readdirSync(INSURERS_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(INSURERS_DIR, e.name, "corpus")))
    .map((e) => e.name)
    .sort();
}

export class UnknownSetError extends Error {
  override readonly name = "UnknownSetError";
}

export function insurerSet(insurer: string, split: Split): EvalSet {
  const dir = path.join(INSURERS_DIR, insurer);
  if (!listInsurers().includes(insurer)) {
    throw new UnknownSetError(`--insurer: no insurer "${insurer}" under eval/insurers (known: ${listInsurers().join(", ") || "none"})`);
  }
  // The sealed half is stored compressed so that a search of the tree cannot print it.
  const file = split === "sealed" ? "sealed.jsonl.gz" : "dev.jsonl";
  const overlay = path.join(dir, "bundle");
  return {
    name: `${insurer}/${split}`,
    scenarios: [path.join(dir, "scenarios", file)],
    corpusDir: path.join(dir, "corpus"),
    fixturesDir: path.join(PACKAGE_ROOT, "eval/fixtures/corpus"),
    tenant: insurer,
    ...(existsSync(overlay) ? { bundleOverlay: overlay } : {}),
    sealed: split === "sealed",
    baseline: path.join(PACKAGE_ROOT, `eval/baseline.${insurer}.${split}.json`),
  };
}

/** Every set CI gates: the bundled one and both halves of every insurer. */
export function allSets(): EvalSet[] {
  return [bundledSet(), ...listInsurers().flatMap((insurer) => SPLITS.map((split) => insurerSet(insurer, split)))];
}

/**
 * A bundle directory for the set: the shipped bundle with the set's overlay files on top (a
 * temporary copy, removed by `dispose`). Without an overlay, the shipped one as it is.
 */
export function bundleDirFor(set: EvalSet, shipped: string): { dir: string; dispose(): void } {
  if (set.bundleOverlay === undefined) return { dir: shipped, dispose: () => undefined };
  const dir = mkdtempSync(path.join(tmpdir(), "frontdesk-bundle-"));
  cpSync(shipped, dir, { recursive: true });
  cpSync(set.bundleOverlay, dir, { recursive: true });
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
