import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../src/config/config.js";

// A smoke test only: the load command runs end to end and prints its tables. Benchmarks never
// assert timings (the machines are shared); the figures are in docs/benchmarks.md.
describe("npm run load", () => {
  it("completes a tiny run against the in-process server and prints its tables", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "bench/load.ts", "--seconds", "2", "--streams", "4"], { cwd: PACKAGE_ROOT });
    expect(stdout).toContain("frontdesk load: 4 streams on 4 HTTP/2 connections (gRPC), 2 s measured after 1 s warm-up, baseline 1 s; one thread per stream");
    expect(stdout).toContain("| measurement | n | per s | p50 | p99 | p50 ÷ baseline | p99 ÷ baseline |");
    expect(stdout).toMatch(/^\| bare RPC \(Health\/Check\), 4 streams: baseline \| \d+ \|/mu);
    expect(stdout).toMatch(/^\| turn \(one StreamTurn, to its result\) \| [1-9]\d* \|/mu);
    expect(stdout).toMatch(/^\| OK \| [1-9]\d* \|$/mu);
    expect(stdout).toMatch(/^RSS after warm-up \(\d+ samples, 1\/s\): min \d+ MB/mu);
  }, 120_000);
});
