// Preload (`node --import tsx --import ./import-recorder.mjs <entry>`) that records every module the
// process loads into the file IMPORT_RECORD_FILE names: ESM imports through a resolution hook
// registered after tsx's (so it sees the URLs tsx resolves .ts files to), and CommonJS modules (most
// of aws-cdk-lib, anything they require) from require.cache when the process exits.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.IMPORT_RECORD_FILE;
if (!file) throw new Error("import-recorder: set IMPORT_RECORD_FILE to the file that receives the record");

register("./import-recorder-hooks.mjs", import.meta.url, { data: { file } });

const require = createRequire(import.meta.url);
process.on("exit", () => {
  const commonJs = Object.keys(require.cache).map((path) => pathToFileURL(path).href);
  appendFileSync(file, commonJs.map((url) => `${url}\n`).join(""));
});
