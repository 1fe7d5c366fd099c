// `cdk synth` loads the CDK app, its stacks and constructs, and from lambdas/ only the contracts (routes,
// tables, environment names, event patterns): never a handler, and no AWS SDK client. A handler module
// imported by the app would run its top-level code (clients, configuration) inside synth, and tie
// every infrastructure change to the runtime's dependencies. The app runs in a child process exactly as
// the CDK CLI runs it (cdk.json's `app`, CDK_OUTDIR and CDK_CONTEXT_JSON set, synthesized on exit),
// with a preload recording every module it resolves. esbuild bundling is skipped: the CLI runs it as a
// separate process that never loads the handlers into the app either.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const RECORDER = fileURLToPath(new URL("../support/import-recorder.mjs", import.meta.url));
const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, "cdk.json"), "utf8")) as {
  app: string;
  context: Record<string, unknown>;
};
const LAMBDAS = pathToFileURL(join(REPO_ROOT, "lambdas/")).href;
const CONTRACTS = pathToFileURL(join(REPO_ROOT, "lambdas/contracts/")).href;

describe("cdk synth", () => {
  let dir: string;
  let outdir: string;
  let loaded: string[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "rewoo-synth-imports-"));
    outdir = join(dir, "cdk.out");
    const record = join(dir, "modules.txt");
    // cdk.json's app is `npx tsx <entry>`: the same entry, with the recorder preloaded after tsx.
    const entry = cdkJson.app.split(" ").at(-1) as string;
    const result = spawnSync(process.execPath, ["--import", "tsx", "--import", RECORDER, entry], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        IMPORT_RECORD_FILE: record,
        CDK_OUTDIR: outdir,
        CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJson.context, "aws:cdk:bundling-stacks": [] }),
      },
      encoding: "utf8",
      timeout: 150_000,
    });
    if (result.status !== 0) {
      throw new Error(`the CDK app failed (${result.status ?? result.signal}): ${result.stderr}`);
    }
    loaded = [...new Set(readFileSync(record, "utf8").split("\n").filter(Boolean))];
  }, 180_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("synthesizes the environment's stacks from the app, its stacks and its constructs", () => {
    expect(existsSync(join(outdir, "Rewoo-dev-Data.template.json"))).toBe(true);
    expect(existsSync(join(outdir, "Rewoo-dev-Service.template.json"))).toBe(true);
    // The record is of this synth: it holds the modules the templates were built by.
    for (const module of [
      "infra/app.ts",
      "infra/stacks/data-stack.ts",
      "infra/stacks/service-stack.ts",
      "infra/constructs/rewoo-function.ts",
      "lambdas/contracts/routes.ts",
      "lambdas/contracts/tables.ts",
      "lambdas/contracts/environment.ts",
    ]) {
      expect(loaded, module).toContain(pathToFileURL(join(REPO_ROOT, module)).href);
    }
    expect(loaded.some((url) => url.includes("/node_modules/aws-cdk-lib/"))).toBe(true);
  });

  it("loads nothing from lambdas/ but lambdas/contracts/", () => {
    const runtime = loaded.filter((url) => url.startsWith(LAMBDAS) && !url.startsWith(CONTRACTS));
    expect(runtime).toEqual([]);
  });

  it("loads no AWS SDK client", () => {
    expect(loaded.filter((url) => /\/node_modules\/@aws-sdk\/client-/.test(url))).toEqual([]);
  });
});
