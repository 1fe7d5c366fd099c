#!/usr/bin/env node
// The `rewoo` command runs the TypeScript sources directly (tsx), so there is no build step to
// remember after `npm install`.
import { register } from "tsx/esm/api";

// The project runs on Node 22 (.nvmrc), as Lambda does. Should an older node start it anyway, the
// SDK's notice about its Node version support would only add noise to a local run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
register();
await import("../cli/main.ts");
