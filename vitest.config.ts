import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/e2e/**", "node_modules/**"],
    // Integration tests boot dynalite + s3rver + the ASL interpreter per file.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ["./test/setup.ts"],
    globalSetup: ["./test/global-setup.ts"],
  },
});
