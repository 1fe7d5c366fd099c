// The files a bundle loads on first use, shipped beside it (infra/constructs/bundling.ts
// BUNDLE_DEFERRED_IMPORTS, CDK's afterBundling hook): copied into an asset whose bundle names the
// import, and there Node resolves the import to them; an asset whose bundle does not gets nothing.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { BUNDLE_DEFERRED_IMPORTS, deferredImportCommands } from "../../../infra/constructs/bundling.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url)).replace(/\/$/, "");
const run = promisify(execFile);
const assets: string[] = [];

afterAll(() => {
  for (const dir of assets) rmSync(dir, { recursive: true, force: true });
});

/** An asset folder holding `code` as its bundle, after the hook's commands ran on it. */
function assetWith(code: string): string {
  const dir = mkdtempSync(join(tmpdir(), "rewoo-asset-"));
  assets.push(dir);
  writeFileSync(join(dir, "index.mjs"), code);
  for (const command of deferredImportCommands(ROOT, dir)) execFileSync("bash", ["-c", command]);
  return dir;
}

describe("deferred imports", () => {
  it("ship pdf.js beside a bundle that imports it, where Node finds it", async () => {
    const dir = assetWith('export const load = () => import("unpdf/pdfjs");\n');
    for (const file of BUNDLE_DEFERRED_IMPORTS["unpdf/pdfjs"] ?? [])
      expect(existsSync(join(dir, file))).toBe(true);
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const m = await (await import("./index.mjs")).load(); console.log(typeof m.getDocument);',
      ],
      { cwd: dir },
    );
    expect(stdout.trim()).toBe("function");
  }, 30_000);

  it("ship nothing beside a bundle that does not", () => {
    const dir = assetWith('export const handler = async () => "ok";\n');
    expect(existsSync(join(dir, "node_modules"))).toBe(false);
  });
});
