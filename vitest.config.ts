import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  test: {
    include: [
      "{client,server,shared,api}/**/*.test.{ts,tsx}",
      "tests/integration/**/*.test.{ts,tsx}",
      // Unit tests of the browser suite's own tools (its specs are *.spec.ts, run by Playwright).
      "tests/e2e/**/*.test.ts",
    ],
    environment: "node",
    // Many integration tests build a fresh database or spawn the built server inside the test; on a
    // shared two-core machine that alone can take tens of seconds. Hangs are still cut off.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One migrated PGlite cluster for the whole run, unpacked by each test file's database.
    globalSetup: ["tests/pglite-cluster-setup.ts"],
  },
});
