// Module resolution hook (node:module register): appends every URL an ESM import resolves to, one per
// line, to the file named in `initialize`'s data. Runs on the hooks thread, hence a file rather than
// shared memory; appendFileSync keeps lines whole when the process exits right after.
import { appendFileSync } from "node:fs";

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
