import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIo } from "../../src/cli/chat.js";
import { main } from "../../src/cli/main.js";
import { loadScenarios } from "../../src/eval/scenario.js";
import { insurerSet, listInsurers } from "../../src/eval/sets.js";

/**
 * The seal: `frontdesk eval --insurer NAME --split sealed` prints its figures, counts per category
 * and failure categories — and nothing of a conversation. This test reads the sealed half only to
 * check that none of its ids, descriptions or user messages reaches the output or the JSON
 * report; its assertions print counts, never the text they looked for.
 */
function capture() {
  let out = "";
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      out += String(chunk);
      callback();
    },
  });
  return { stream, text: () => out };
}

const insurer = listInsurers()[0]!;

describe(`the sealed half of ${insurer}`, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "frontdesk-sealed-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("prints the metrics table, counts per category and failure categories, and not one id, description or user message", async () => {
    const stdout = capture();
    const stderr = capture();
    const io: CommandIo = { stdin: new PassThrough(), stdout: stdout.stream, stderr: stderr.stream, env: { FRONTDESK_LOG_LEVEL: "silent" }, stdoutIsTTY: false };
    const json = path.join(dir, "sealed.json");
    const code = await main(["eval", "--insurer", insurer, "--split", "sealed", "--json", json], io);
    expect(code).toBe(0);
    const printed = stdout.text() + stderr.text() + (await readFile(json, "utf8"));
    expect(stdout.text()).toContain("(sealed: conversations are not shown)");
    expect(stdout.text()).toContain("conversations passed by category:");
    expect(stdout.text()).toMatch(/failure category|failure categories: none/u);

    const sealed = await loadScenarios(insurerSet(insurer, "sealed").scenarios);
    const secrets = sealed.flatMap((s) => [s.id, s.description, ...s.turns.map((t) => t.user)]).filter((s) => s.trim().length >= 8);
    // Every conversation gives at least its id and one message to look for.
    expect(secrets.length).toBeGreaterThanOrEqual(sealed.length * 2);
    const leaked = secrets.filter((s) => printed.includes(s)).length;
    expect(leaked, "strings of the sealed half found in the output (count only; the seal forbids printing them)").toBe(0);
  }, 120_000);

  it("refuses to pick or replace the sealed scenarios", async () => {
    for (const flags of [
      ["--only", "direct"],
      ["--scenarios", "eval/scenarios"],
    ]) {
      const stderr = capture();
      const io: CommandIo = { stdin: new PassThrough(), stdout: capture().stream, stderr: stderr.stream, env: {}, stdoutIsTTY: false };
      expect(await main(["eval", "--insurer", insurer, "--split", "sealed", ...flags], io)).toBe(2);
      expect(stderr.text()).toMatch(/cannot be combined with a sealed split/u);
    }
  });
});
