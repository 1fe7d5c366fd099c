#!/usr/bin/env node
// The `rewoo` command runs the TypeScript sources directly (tsx), so there is no build step to
// remember after `npm install`.
import { register } from "tsx/esm/api";

// The twin runs on the machine's Node 20; Lambda runs Node 22. The SDK's notice about its
// future Node 22 requirement is not actionable for a local run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
register();
await import("../cli/main.ts");
