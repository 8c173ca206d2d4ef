import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import type { CommandIo } from "../../src/cli/chat.js";
import { configCommand } from "../../src/cli/config.js";
import { main } from "../../src/cli/main.js";
import { PACKAGE_ROOT } from "../../src/config/config.js";

/** The shipped bundle's version, read rather than pinned: a bundle edit bumps it. */
const bundleVersion = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "bundle/config.json"), "utf8")) as { version: string }).version;

function capture(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  return { stream, text: () => text };
}

function io(env: Record<string, string | undefined> = {}) {
  const stdout = capture();
  const stderr = capture();
  const value: CommandIo = { stdin: new PassThrough(), stdout: stdout.stream, stderr: stderr.stream, env, stdoutIsTTY: false };
  return { io: value, stdout, stderr };
}

/** A copy of the shipped bundle with a wrong model name, a prompt placeholder the code does not pass and a missing copy language. */
function brokenBundle(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bundle-cli-"));
  cpSync(path.join(PACKAGE_ROOT, "bundle"), dir, { recursive: true });
  /** Sets (or, with undefined, deletes) the value at a key path of a bundle file. */
  const edit = (file: string, keys: string[], value: unknown) => {
    const json = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, unknown>;
    const parent = keys.slice(0, -1).reduce((node, key) => node[key] as Record<string, unknown>, json);
    if (value === undefined) delete parent[keys.at(-1)!];
    else parent[keys.at(-1)!] = value;
    writeFileSync(path.join(dir, file), JSON.stringify(json));
  };
  edit("models.json", ["profiles", "main", "model"], "gpt-4o");
  edit("prompts.json", ["verify", "user"], "Check {claims} against {sources}");
  edit("copy.json", ["escalation.frustration", "fa"], undefined);
  return dir;
}

const PROBLEMS = [
  'copy.json: "escalation.frustration" has no text for language "fa"',
  'prompts.json: "verify.user" uses placeholder {sources} that the code does not pass (allowed: {insurer}, {language}, {claims})',
  'models.json: profile "main" names unknown model "gpt-4o" (known: ',
];

describe("frontdesk config validate", () => {
  test("accepts the shipped bundle and says what it holds", async () => {
    const { io: cmdIo, stdout, stderr } = io();
    expect(await configCommand(["validate"], cmdIo)).toBe(0);
    expect(stdout.text()).toBe(
      `config bundle ${path.join(PACKAGE_ROOT, "bundle")}: valid (version ${bundleVersion}; languages fa, en; 7 model roles on gemini-2.5-flash-lite, gemini-2.5-flash)\n`,
    );
    expect(stderr.text()).toBe("");
  });

  test("lists every problem of a broken bundle, one per line, and exits 1", async () => {
    const dir = brokenBundle();
    const { io: cmdIo, stdout, stderr } = io();
    expect(await main(["config", "validate", dir], cmdIo)).toBe(1);
    expect(stdout.text()).toBe("");
    const lines = stderr.text().trimEnd().split("\n");
    expect(lines[0]).toBe(`config bundle ${dir}: 3 problem(s)`);
    expect(lines).toHaveLength(4);
    PROBLEMS.forEach((problem, i) => {
      expect(lines[i + 1]!.startsWith(`  - ${problem}`)).toBe(true);
    });
  });

  test("without DIR checks the bundle in use: FRONTDESK_CONFIG_DIR, relative to the working directory", async () => {
    const dir = brokenBundle();
    const { io: cmdIo, stderr } = io({ FRONTDESK_CONFIG_DIR: path.basename(dir), GOOGLE_API_KEY: undefined });
    expect(await configCommand(["validate"], cmdIo, path.dirname(dir))).toBe(1);
    expect(stderr.text()).toContain(`config bundle ${dir}: 3 problem(s)`);
  });

  test("names a missing directory's files and refuses bad usage with exit 2", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "bundle-empty-"));
    const missing = io();
    expect(await configCommand(["validate", empty], missing.io)).toBe(1);
    expect(missing.stderr.text()).toContain(`  - config.json: missing from ${empty}\n`);
    expect(missing.stderr.text()).toContain(`  - models.json: missing from ${empty}\n`);

    const two = io();
    expect(await configCommand(["validate", "a", "b"], two.io)).toBe(2);
    expect(two.stderr.text()).toBe("frontdesk config validate: one directory at most, got 2\n");
    const unknown = io();
    expect(await configCommand(["check"], unknown.io)).toBe(2);
    expect(unknown.stderr.text()).toContain('frontdesk config: unknown subcommand "check"');
    expect(await main(["config", "validate", "--nope"], io().io)).toBe(2);
  });

  test("the installed binary exits non-zero on a broken bundle", async () => {
    const dir = brokenBundle();
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/frontdesk.js"), "config", "validate", dir], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("3 problem(s)");
  });
});

describe("frontdesk serve with a broken bundle", () => {
  test("refuses to start, listing every problem, before serving anything", async () => {
    const dir = brokenBundle();
    const { io: cmdIo, stdout, stderr } = io({ FRONTDESK_CONFIG_DIR: dir, FRONTDESK_PORT: "0", FRONTDESK_CHECKPOINTER: "memory", FRONTDESK_LOG_LEVEL: "silent" });
    expect(await main(["serve"], cmdIo)).toBe(2);
    expect(stdout.text()).toBe("");
    const text = stderr.text();
    expect(text.startsWith("frontdesk serve: config bundle has 3 problem(s):\n")).toBe(true);
    for (const problem of PROBLEMS) expect(text).toContain(`  ${problem}`);
  });

  test("refuses Gemini without an API key with a clear message", async () => {
    const { io: cmdIo, stderr } = io({ FRONTDESK_MODEL_PROVIDER: "gemini", FRONTDESK_PORT: "0" });
    expect(await main(["serve"], cmdIo)).toBe(2);
    expect(stderr.text()).toBe("frontdesk serve: FRONTDESK_MODEL_PROVIDER=gemini needs GOOGLE_API_KEY\n");
  });
});
