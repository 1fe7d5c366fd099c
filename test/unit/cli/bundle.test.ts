// The bundled `rewoo` (bin/build-cli.mjs) and the launcher's check that it is still what the sources
// say (bin/cli-bundle.mjs): a changed or removed source sends the command back to the sources, a
// touched but unchanged one does not, and the bundle built from this checkout runs its commands.
import { execFile } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Metafile } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { buildCli } from "../../../bin/build-cli.mjs";
import { manifestFor, REPO_ROOT, staleReason } from "../../../bin/cli-bundle.mjs";

const run = promisify(execFile);
const made: string[] = [];

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The packages the entry and the files it imports statically load, in order of name. */
function packagesLoadedAtStart(metafile: Metafile): string[] {
  const entry = Object.keys(metafile.outputs).find(
    (path) => metafile.outputs[path]?.entryPoint === "cli/main.ts",
  );
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind !== "import-statement") continue;
      if (imported.external) {
        if (!imported.path.startsWith("node:")) packages.add(imported.path);
      } else visit(imported.path);
    }
  };
  if (entry) visit(entry);
  return [...packages].sort();
}

/** A root with two sources and the record of a bundle built from them. */
function builtRoot(): { root: string; manifest: string } {
  const root = mkdtempSync(join(tmpdir(), "rewoo-cli-bundle-"));
  made.push(root);
  mkdirSync(join(root, "cli"));
  writeFileSync(join(root, "cli", "main.ts"), 'import "./a.ts";\n');
  writeFileSync(join(root, "cli", "a.ts"), "export const a = 1;\n");
  const manifest = join(root, "manifest.json");
  writeFileSync(manifest, JSON.stringify(manifestFor(root, ["cli/main.ts", "cli/a.ts"])));
  return { root, manifest };
}

describe("the launcher's freshness check", () => {
  it("takes the bundle while its sources are as built", () => {
    const { root, manifest } = builtRoot();
    expect(staleReason(root, manifest)).toBeUndefined();
  });

  it("refuses it once a source's bytes change, even at the same size and an older time", () => {
    const { root, manifest } = builtRoot();
    const file = join(root, "cli", "a.ts");
    writeFileSync(file, "export const a = 2;\n");
    utimesSync(file, new Date("2020-01-01"), new Date("2020-01-01"));
    expect(staleReason(root, manifest)).toBe("cli/a.ts changed");
  });

  it("refuses it when a source is gone", () => {
    const { root, manifest } = builtRoot();
    rmSync(join(root, "cli", "a.ts"));
    expect(staleReason(root, manifest)).toBe("cli/a.ts is gone");
  });

  it("still takes it when a source was only touched", () => {
    const { root, manifest } = builtRoot();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, "cli", "main.ts"), later, later);
    expect(staleReason(root, manifest)).toBeUndefined();
  });

  it("refuses it without a readable record", () => {
    const { root, manifest } = builtRoot();
    expect(staleReason(root, join(root, "missing.json"))).toBe("no bundle");
    writeFileSync(manifest, JSON.stringify({ version: 2, inputs: {} }));
    expect(staleReason(root, manifest)).toMatch(/not one this launcher reads/);
  });
});

describe("the bundle built from this checkout", () => {
  it("records its sources and runs `plan parse` and `--help` without the twin", async () => {
    // Two folders below the root, as dist/cli is: the bundle finds the repository from there.
    mkdirSync(join(REPO_ROOT, "dist"), { recursive: true });
    const outDir = mkdtempSync(join(REPO_ROOT, "dist", "test-cli-"));
    made.push(outDir);
    const { metafile } = await buildCli({ outDir });
    // What every command loads before it runs: commander, picocolors and Node's built-ins. A command
    // that imports its module at the top of cli/main.ts instead of when it runs shows up here.
    expect(packagesLoadedAtStart(metafile)).toEqual(["commander", "picocolors"]);
    const manifest = join(outDir, "manifest.json");
    expect(staleReason(REPO_ROOT, manifest)).toBeUndefined();
    const { inputs } = JSON.parse(readFileSync(manifest, "utf8")) as { inputs: Record<string, unknown> };
    for (const source of ["cli/main.ts", "cli/local.ts", "infra/local/twin.ts", "package.json"]) {
      expect(Object.keys(inputs)).toContain(source);
    }
    const entry = join(outDir, "rewoo.mjs");
    const help = await run(process.execPath, [entry, "--help"], { cwd: REPO_ROOT });
    expect(help.stdout).toMatch(/Usage: rewoo/);
    const plan = join(outDir, "plan.txt");
    writeFileSync(plan, "Plan: find it\n#E1 = Wikipedia[ReWOO]\nPlan: then\n#E2 = LLM[summarize #E1]\n");
    const parsed = await run(process.execPath, [entry, "plan", "parse", plan], { cwd: REPO_ROOT });
    expect(JSON.parse(parsed.stdout)).toMatchObject({
      steps: [
        { id: "E1", tool: "Wikipedia", depends_on: [] },
        { id: "E2", tool: "LLM", depends_on: ["E1"] },
      ],
      levels: [["E1"], ["E2"]],
    });
  }, 60_000);

  it("keeps the previous build's files for commands still running from it, and no older ones", async () => {
    mkdirSync(join(REPO_ROOT, "dist"), { recursive: true });
    const outDir = mkdtempSync(join(REPO_ROOT, "dist", "test-cli-"));
    made.push(outDir);
    // What a build before this one left: its record names its own files.
    writeFileSync(join(outDir, "previous-chunk.mjs"), "export {};\n");
    writeFileSync(join(outDir, "older-chunk.mjs"), "export {};\n");
    writeFileSync(
      join(outDir, "manifest.json"),
      JSON.stringify({ version: 1, inputs: {}, files: ["previous-chunk.mjs"] }),
    );
    await buildCli({ outDir });
    const built = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8")) as { files: string[] };
    expect(built.files).toContain("rewoo.mjs");
    expect(readdirSync(outDir).sort()).toEqual(
      [...built.files, "manifest.json", "previous-chunk.mjs"].sort(),
    );
    await buildCli({ outDir });
    expect(readdirSync(outDir)).not.toContain("previous-chunk.mjs");
    expect(staleReason(REPO_ROOT, join(outDir, "manifest.json"))).toBeUndefined();
  }, 60_000);
});
