// `node:http` for the Lambda bundles, loaded through require (infra/constructs/bundling.ts aliases the
// bundles' `node:http` to this file). Node builds an ES module's view of a built-in by reading every
// export, and `node:http`'s WebSocket and fetch-era getters then load undici: 10–20 ms of every cold
// start, for classes no function uses. esbuild hoists the SDK's `import ... from "node:http"` (the
// instance-metadata credential provider's) to the top of a bundle, so every function paid it.
// require() returns the same module object without that view.
import { createRequire } from "node:module";

type NodeHttp = typeof import("node:http");

const http = createRequire(import.meta.url)("node:http") as NodeHttp;

export default http;
// What the bundled SDK reads from it (`import http from`, `const { request } = await import(...)`).
export const { Agent, request, get } = http;
