// Types of bin/cli-bundle.mjs, for the TypeScript that imports it (tests, bin/build-cli.mjs's callers).
export const REPO_ROOT: string;
export const BUNDLE_DIR: string;
export const BUNDLE_ENTRY: string;
export const MANIFEST: string;
export const SOURCE_VARIABLE: string;
export interface ManifestInput {
  size: number;
  mtimeMs: number;
  sha256: string;
}
export interface Manifest {
  version: 1;
  inputs: Record<string, ManifestInput>;
  /** The build's own files (set by bin/build-cli.mjs). */
  files?: string[];
}
export function fileHash(path: string): string;
export function manifestFor(root: string, inputs: Iterable<string>): Manifest;
export function staleReason(root?: string, manifestPath?: string): string | undefined;
