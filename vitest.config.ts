import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["dist/**", "node_modules/**"],
    // Builds dist/ (the CLI tests spawn it) and picks the PostgreSQL server: the configured one,
    // else an embedded one it starts and stops.
    globalSetup: ["test/support/global-setup.ts"],
    // Two cores on CI: keep the pool small so socket-level tests do not starve each other.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
