// Types of bin/build-cli.mjs, for the TypeScript that imports it (tests).
import type { Metafile } from "esbuild";

export function buildCli(options?: {
  root?: string;
  outDir?: string;
}): Promise<{ outDir: string; inputs: number; metafile: Metafile }>;
