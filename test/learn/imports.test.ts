import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIR = path.resolve(import.meta.dirname, "../../src/learn");

describe("src/learn", () => {
  it("is a leaf: it imports only its own files, src/text, node built-ins and zod", () => {
    const outside = readdirSync(DIR)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((file) =>
        [...readFileSync(path.join(DIR, file), "utf8").matchAll(/^(?:import|export)[^"']*from\s+["']([^"']+)["']/gmu)]
          .map((m) => m[1]!)
          .filter((spec) => !/^(?:\.\/[\w-]+\.js|\.\.\/text\/[\w-]+\.js|node:[\w/]+|zod)$/u.test(spec))
          .map((spec) => `${file}: ${spec}`),
      );
    expect(outside).toEqual([]);
  });
});
