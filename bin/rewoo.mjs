#!/usr/bin/env node
// The `rewoo` command. It starts the bundled CLI (dist/cli, built by `npm install`: bin/build-cli.mjs)
// when every source it was built from is unchanged, and otherwise the TypeScript sources through tsx,
// as during development: an edited source is always what runs. REWOO_CLI_SOURCE=1 forces the sources.
import { pathToFileURL } from "node:url";
import { BUNDLE_ENTRY, SOURCE_VARIABLE, staleReason } from "./cli-bundle.mjs";

// The project runs on Node 22 (.nvmrc), as Lambda does. Should an older node start it anyway, the
// SDK's notice about its Node version support would only add noise to a local run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

if (process.env[SOURCE_VARIABLE] !== "1" && staleReason() === undefined) {
  await import(pathToFileURL(BUNDLE_ENTRY).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../cli/main.ts");
}
