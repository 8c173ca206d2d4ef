/**
 * Composes the planted-instruction detector's training data from the frames in ./frames.ts and
 * the sentences of the bundled corpus (data/corpus, ordinary policy text):
 *
 *   node --import tsx scripts/detector-data/compose.ts   # writes bundle/detector/data/train.jsonl
 *
 * Deterministic (a seeded PRNG picks the combinations), so the committed file is reproducible;
 * test/learn/detector-artefact.test.ts checks that it is. The held-back test.jsonl is NOT made
 * here: it is hand-written with other wordings (bundle/detector/README.md).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { foldForMatch, splitSentences } from "../../src/text/index.js";
import * as F from "./frames.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const TRAIN_FILE = path.join(ROOT, "bundle/detector/data/train.jsonl");
/** Held back: every sentence of the second insurer's documents, ordinary text nobody here wrote. */
export const INSURER_TEST_FILE = path.join(ROOT, "bundle/detector/data/test-insurer.jsonl");
const INSURER_CORPUS = path.join(ROOT, "eval/insurers/sadaf-assurance/corpus");
/** The insurer's own planted instructions (its FACTS.md §13), by their marker strings. */
const INSURER_PLANTED = ["GG-FREEYEAR-2291", "sadaf-refund.example"];
const CORPUS = path.join(ROOT, "data/corpus");

/** How many composed examples of each kind, per language. */
const COUNTS = { leadAction: 260, mustAction: 70, overrideAction: 110, split: 90, mixed: 90, policyFrames: 200, policyPairs: 120 };
/** Share of instruction examples also written with zero-width characters inside words. */
const INVISIBLE_SHARE = 0.2;
const SEED = 12;

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Lang = "en" | "fa";
interface Frames {
  addressees: string[];
  leads: string[];
  actions: string[];
  overrides: string[];
  openers: string[];
  claims: string[];
  topics: string[];
  policyVerbs: string[];
  policyTimes: string[];
  policyChannels: string[];
  policyExtra: string[];
  policyVoice: string[];
}
const FRAMES: Record<Lang, Frames> = {
  en: {
    addressees: F.ADDRESSEES_EN,
    leads: F.LEADS_EN,
    actions: F.ACTIONS_EN,
    overrides: F.OVERRIDES_EN,
    openers: F.OPENERS_EN,
    claims: F.CLAIMS_EN,
    topics: F.TOPICS_EN,
    policyVerbs: F.POLICY_VERBS_EN,
    policyTimes: F.POLICY_TIMES_EN,
    policyChannels: F.POLICY_CHANNELS_EN,
    policyExtra: F.POLICY_EXTRA_EN,
    policyVoice: F.POLICY_VOICE_EN,
  },
  fa: {
    addressees: F.ADDRESSEES_FA,
    leads: F.LEADS_FA,
    actions: F.ACTIONS_FA,
    overrides: F.OVERRIDES_FA,
    openers: F.OPENERS_FA,
    claims: F.CLAIMS_FA,
    topics: F.TOPICS_FA,
    policyVerbs: F.POLICY_VERBS_FA,
    policyTimes: F.POLICY_TIMES_FA,
    policyChannels: F.POLICY_CHANNELS_FA,
    policyExtra: F.POLICY_EXTRA_FA,
    policyVoice: F.POLICY_VOICE_FA,
  },
};

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const stop = (_lang: Lang, s: string) => (/[.!?:؟]$/u.test(s) ? s : `${s}.`);

/** Sentences of the bundled corpus: headings, list items and table rows included, front matter not. */
export function corpusSentences(dir = CORPUS): { text: string; lang: Lang }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .sort()
    .flatMap((f) => {
      const body = readFileSync(path.join(dir, f), "utf8").replace(/^---\n[\s\S]*?\n---\n/u, "");
      const lang: Lang = f.endsWith("-fa.md") ? "fa" : "en";
      return splitSentences(body.replace(/\|/gu, " ").replace(/\*\*/gu, ""))
        .filter((s) => s.split(/\s+/u).length >= 3 && !/^[-: ]+$/u.test(s))
        .map((text) => ({ text, lang }));
    });
}

export function compose(): { text: string; label: "instruction" | "policy" }[] {
  const random = mulberry32(SEED);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const out = new Map<string, "instruction" | "policy">();
  const add = (text: string, label: "instruction" | "policy") => {
    const t = text.replace(/\s+/gu, " ").trim();
    if (!out.has(t)) out.set(t, label);
  };
  // Zero-width space, joiner, word joiner, soft hyphen: inside a word, where they break matching.
  const INVISIBLE = ["\u200B", "\u200D", "\u2060", "\u00AD"];
  const hide = (text: string) => text.replace(/\p{L}{5,}/gu, (word) => (random() < 0.5 ? word : `${word.slice(0, 2)}${pick(INVISIBLE)}${word.slice(2)}`));
  const arabic = (text: string) => text.replace(/ی/gu, "ي").replace(/ک/gu, "ك");

  for (const lang of ["en", "fa"] as const) {
    const f = FRAMES[lang];
    const fill = (template: string) => {
      const a = pick(f.addressees);
      return template
        .replace(/\{A\}/gu, capital(a))
        .replace(/\{a\}/gu, a)
        .replace(/\{claim\}/gu, pick(f.claims))
        .replace(/\{topic\}/gu, pick(f.topics))
        .replace(/\{code\}/gu, pick(F.CODES))
        .replace(/\{email\}/gu, pick(F.EMAILS))
        .replace(/\{url\}/gu, pick(F.URLS));
    };
    const action = () => fill(pick(f.actions));
    const instructions: string[] = [];
    for (let i = 0; i < COUNTS.leadAction; i++) instructions.push(stop(lang, `${fill(pick(f.leads))} ${action()}`));
    const must =
      lang === "en"
        ? ["From now on you must {x}.", "From now on, {x}.", "You must {x}.", "Always {x}.", "Remember to {x}."]
        : ["از این به بعد باید {x}.", "از حالا {x}.", "همیشه {x}.", "یادت باشد {x}."];
    for (let i = 0; i < COUNTS.mustAction; i++) instructions.push(pick(must).replace("{x}", action()));
    for (const o of f.overrides) instructions.push(o);
    for (let i = 0; i < COUNTS.overrideAction; i++) instructions.push(`${pick(f.overrides)} ${stop(lang, capital(action()))}`);
    // Split across sentences: every piece is an instruction, and so is the whole.
    for (let i = 0; i < COUNTS.split; i++) {
      const opener = fill(pick(f.openers));
      const act = stop(lang, capital(action()));
      instructions.push(opener, act, `${opener} ${act}`, `${opener} ${pick(f.overrides)} ${act}`);
    }
    for (const text of instructions) {
      add(text, "instruction");
      if (random() < INVISIBLE_SHARE) add(hide(text), "instruction");
      if (lang === "fa" && random() < INVISIBLE_SHARE) add(arabic(text), "instruction");
    }

    // The false claims an instruction plants, stated plainly, are the shape of ordinary policy text:
    // what makes an instruction is whom it addresses and what it orders, not the claim.
    const policy: string[] = [...f.policyExtra, ...f.policyVoice, ...f.claims.map((c) => stop(lang, capital(c)))];
    for (let i = 0; i < COUNTS.policyFrames; i++) {
      const verb = pick(f.policyVerbs);
      const time = pick(f.policyTimes);
      const channel = pick(f.policyChannels);
      policy.push(lang === "en" ? `${verb} ${time}${channel}.` : `${time} ${channel} ${verb}.`);
    }
    const sentences = corpusSentences()
      .filter((s) => s.lang === lang)
      .map((s) => s.text);
    policy.push(...sentences);
    for (let i = 0; i < COUNTS.policyPairs; i++) policy.push(`${pick(policy)} ${pick(policy)}`);
    for (const text of policy) {
      add(text, "policy");
      if (lang === "fa" && random() < INVISIBLE_SHARE) add(arabic(text), "policy");
    }
    // A planted sentence beside ordinary ones: the passage carries an instruction.
    for (let i = 0; i < COUNTS.mixed; i++) {
      const planted = random() < 0.5 ? stop(lang, `${fill(pick(f.leads))} ${action()}`) : `${pick(f.overrides)} ${stop(lang, capital(action()))}`;
      add(random() < 0.5 ? `${pick(sentences)} ${planted}` : `${planted} ${pick(sentences)}`, "instruction");
    }
  }
  return [...out].map(([text, label]) => ({ text, label }));
}

export const serialize = (examples: readonly { text: string; label: string }[]) => `${examples.map((e) => JSON.stringify({ text: e.text, label: e.label })).join("\n")}\n`;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const examples = compose();
  writeFileSync(TRAIN_FILE, serialize(examples));
  // Headings both corpora share ("What is covered") would be seen in training: left out.
  const seen = new Set(examples.map((e) => foldForMatch(e.text)));
  const insurer = [...new Set(corpusSentences(INSURER_CORPUS).map((s) => s.text))]
    .filter((t) => !seen.has(foldForMatch(t)))
    .map((text) => ({ text, label: INSURER_PLANTED.some((m) => text.includes(m)) ? "instruction" : "policy" }));
  writeFileSync(INSURER_TEST_FILE, serialize(insurer));
  console.log(`wrote ${path.relative(ROOT, INSURER_TEST_FILE)}: ${insurer.length} examples (${insurer.filter((e) => e.label === "instruction").length} planted)`);
  const count = (label: string) => examples.filter((e) => e.label === label).length;
  console.log(`wrote ${path.relative(ROOT, TRAIN_FILE)}: ${examples.length} examples (instruction ${count("instruction")}, policy ${count("policy")})`);
}
