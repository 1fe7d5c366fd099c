// The bundled `rewoo` (bin/build-cli.mjs) on its heaviest path: `rewoo start --exit` boots the twin
// from the bundle (its emulators' packages loaded from node_modules, the state machine and the
// dashboard read from the repository, the push function's thread started from its entry file),
// evaluates the two samples and exits. The bundle is built into a folder of its own beside dist/cli.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { buildCli } from "../../bin/build-cli.mjs";
import { REPO_ROOT } from "../../bin/cli-bundle.mjs";

const run = promisify(execFile);
const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe("the bundled rewoo", () => {
  it("boots the twin, evaluates the samples and exits, as the sources do", async () => {
    mkdirSync(join(REPO_ROOT, "dist"), { recursive: true });
    const outDir = mkdtempSync(join(REPO_ROOT, "dist", "test-cli-"));
    const dataDir = mkdtempSync(join(tmpdir(), "rewoo-data-"));
    made.push(outDir, dataDir);
    await buildCli({ outDir });
    const { stdout } = await run(
      process.execPath,
      [join(outDir, "rewoo.mjs"), "start", "--port", "0", "--exit"],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, NO_COLOR: "1", REWOO_DATA_DIR: dataDir },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    expect(stdout).toMatch(/API\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/RUN\s+run-\S+ \(examples\/sample-tax-return\.json\)/);
    expect(stdout).toMatch(/RUN\s+run-\S+ \(examples\/sample-unsigned-return\.json\)/);
    expect(stdout).toMatch(/TR_SIGNED: not_fulfilled/);
    // The twin's log: no function failed to start (a thread entry or a handler module not found).
    expect(readFileSync(join(dataDir, "twin.log"), "utf8")).not.toMatch(
      /ERR_MODULE_NOT_FOUND|Cannot find module/,
    );
  }, 180_000);
});
