// Types of bin/build-cli.mjs, for the TypeScript that imports it (tests).
export function buildCli(options?: {
  root?: string;
  outDir?: string;
}): Promise<{ outDir: string; inputs: number }>;
