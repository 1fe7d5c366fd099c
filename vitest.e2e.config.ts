import { defineConfig } from "vitest/config";

// Browser tests (npm run test:e2e): headless Debian chromium driven by playwright-core against the
// local twin. Kept out of `npm test` because they need /usr/bin/chromium (.ci/run installs it).
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    exclude: ["node_modules/**"],
    // Booting the twin and a browser takes seconds; a run with injected tool latency a few more.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    setupFiles: ["./test/setup.ts"],
  },
});
