import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";

const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const dockerfile = readFileSync(path.join(PACKAGE_ROOT, "Dockerfile"), "utf8");

/** engines.node is a caret range, ^MAJOR.MINOR.PATCH: one LTS line from a given release on. */
function satisfiesEngines(version: string): boolean {
  const range = /^\^(\d+)\.(\d+)\.(\d+)$/u.exec(pkg.engines.node);
  if (range === null) throw new Error(`engines.node is not a ^MAJOR.MINOR.PATCH range: ${pkg.engines.node}`);
  const [major, minor, patch] = version.replace(/^v/u, "").split(".").map(Number) as [number, number, number];
  const [, rMajor, rMinor, rPatch] = range.map(Number) as [number, number, number, number];
  return major === rMajor && (minor > rMinor || (minor === rMinor && patch >= rPatch));
}

describe("the supported runtime", () => {
  it("is the Node the suite runs on, and the Node the `node` devDependency installs for npm scripts", () => {
    expect(pkg.engines.node).toMatch(/^\^(24|26)\./u);
    expect(satisfiesEngines(process.version), `tests run on ${process.version}, engines.node is ${pkg.engines.node}`).toBe(true);
    expect(satisfiesEngines(pkg.devDependencies["node"] ?? "none")).toBe(true);
  });

  it("ships no TypeScript toolchain: the loader, compilers and buf are dev dependencies only", () => {
    for (const tool of ["tsx", "esbuild", "typescript", "@bufbuild/buf", "@bufbuild/protoc-gen-es", "vitest", "node"]) {
      expect(pkg.dependencies, tool).not.toHaveProperty(tool);
    }
    const bin = readFileSync(path.join(PACKAGE_ROOT, "bin/frontdesk.js"), "utf8");
    expect(bin).not.toMatch(/tsx|\.\.\/src\//u);
    expect(bin).toContain("../dist/src/cli/main.js");
  });

  it("builds its image on that Node LTS, pinned by digest, with a health check, as an unprivileged user, without sources", () => {
    const images = [...dockerfile.matchAll(/^ARG NODE_IMAGE=(\S+)$/gmu)].map((m) => m[1]!);
    expect(images).toHaveLength(1);
    const major = /^\^(\d+)\./u.exec(pkg.engines.node)![1];
    expect(images[0]).toMatch(new RegExp(`^node:${major}\\.\\d+\\.\\d+-[a-z]+-slim@sha256:[0-9a-f]{64}$`, "u"));
    expect(satisfiesEngines(/^node:(\d+\.\d+\.\d+)/u.exec(images[0]!)![1]!)).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own build argument, literally.
    for (const from of dockerfile.matchAll(/^FROM (\S+)/gmu)) expect(from[1]).toBe("${NODE_IMAGE}");
    expect(dockerfile).toMatch(/^HEALTHCHECK .*CMD \["node", "bin\/healthcheck\.js"\]$/mu);
    expect(dockerfile).toMatch(/^USER node$/mu);
    const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
    expect(runtime).not.toMatch(/^COPY (--\S+ )*(src|gen|proto|test|\.)(\/| )/mu);
  });
});
