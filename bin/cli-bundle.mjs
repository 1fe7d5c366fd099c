// The bundled `rewoo` (dist/cli): where it is, the record of what it was built from, and whether it
// is still what the sources say. bin/build-cli.mjs writes it (npm's `prepare`, so `npm install` and
// `npm ci` do); bin/rewoo.mjs starts it only when every source it was built from is unchanged.
// Plain JavaScript, so that checking costs no TypeScript loader.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
/** Two folders below the root, like infra/local (infra/local/repo-root.ts relies on it). */
export const BUNDLE_DIR = join(REPO_ROOT, "dist", "cli");
export const BUNDLE_ENTRY = join(BUNDLE_DIR, "rewoo.mjs");
export const MANIFEST = join(BUNDLE_DIR, "manifest.json");
/** Set to 1 to run the TypeScript sources even when the bundle is up to date. */
export const SOURCE_VARIABLE = "REWOO_CLI_SOURCE";

/** The SHA-256 of a file's bytes, hex. */
export function fileHash(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/**
 * The record of a build: each input (relative to the root) with its size, modification time and
 * hash when it was read. `inputs` are the bundled sources and what decides how they are bundled.
 */
export function manifestFor(root, inputs) {
  return {
    version: 1,
    inputs: Object.fromEntries(
      [...inputs].sort().map((input) => {
        const path = join(root, input);
        const { size, mtimeMs } = statSync(path);
        return [input, { size, mtimeMs, sha256: fileHash(path) }];
      }),
    ),
  };
}

/**
 * Why the bundle may not be started, or undefined when it may: a missing or unreadable record, an
 * input gone, or an input whose bytes differ. An input with the recorded size and modification time
 * is taken as unchanged (the check `make` and rsync make); one whose time moved is hashed, so a
 * checkout or a touch that left the bytes alone does not fall back to the sources needlessly.
 */
export function staleReason(root = REPO_ROOT, manifestPath = join(root, "dist", "cli", "manifest.json")) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch {
    return "no bundle";
  }
  if (manifest?.version !== 1 || typeof manifest.inputs !== "object" || manifest.inputs === null) {
    return "the bundle's record is not one this launcher reads";
  }
  for (const [input, recorded] of Object.entries(manifest.inputs)) {
    const path = join(root, input);
    const now = statSync(path, { throwIfNoEntry: false });
    if (!now) return `${input} is gone`;
    if (now.size !== recorded.size) return `${input} changed`;
    if (now.mtimeMs !== recorded.mtimeMs && fileHash(path) !== recorded.sha256) return `${input} changed`;
  }
  return undefined;
}
