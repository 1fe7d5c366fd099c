#!/usr/bin/env node
// The `rewoo` command runs the TypeScript sources directly (tsx), so there is no build step to
// remember after `npm install`.
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
