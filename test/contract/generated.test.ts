import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
  });
}

const buf = path.join(PACKAGE_ROOT, "node_modules/.bin/buf");

describe("the contract", () => {
  it("gen/ is exactly what `npm run generate` produces from proto/", () => {
    const out = mkdtempSync(path.join(tmpdir(), "frontdesk-gen-"));
    // The committed buf.gen.yaml, with only the output directory changed.
    const template = JSON.stringify({
      version: "v2",
      inputs: [{ directory: "proto" }],
      plugins: [{ local: path.join(PACKAGE_ROOT, "node_modules/.bin/protoc-gen-es"), out, opt: ["target=ts", "import_extension=js"] }],
    });
    execFileSync(buf, ["generate", "--template", template], { cwd: PACKAGE_ROOT, stdio: "pipe" });
    const committed = listFiles(path.join(PACKAGE_ROOT, "gen")).sort();
    expect(listFiles(out).sort()).toEqual(committed);
    for (const file of committed) {
      const fresh = readFileSync(path.join(out, file), "utf8");
      expect(readFileSync(path.join(PACKAGE_ROOT, "gen", file), "utf8"), `gen/${file} is stale: run npm run generate`).toBe(fresh);
    }
  });

  it("passes buf lint (STANDARD)", () => {
    expect(() => execFileSync(buf, ["lint"], { cwd: PACKAGE_ROOT, stdio: "pipe" })).not.toThrow();
  });
});
