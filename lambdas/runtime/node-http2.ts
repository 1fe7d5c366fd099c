// `node:http2` for the Lambda bundles, loaded when it is first used (infra/constructs/bundling.ts
// aliases the bundles' `node:http2` to this file). Bedrock Runtime's client sends through the SDK's
// HTTP/2 handler, whose modules import `node:http2` at their top; esbuild hoists those imports to
// the top of a bundle, so the planner, the solver and the worker loaded HTTP/2 (7–9 ms of CPU) on
// every cold start, the worker's for steps that call no model included. The handler reads
// `constants` when its module loads and calls `connect` when it first sends: the module stands
// behind both, loaded by the first request, and everything read from it is Node's own.
import { createRequire } from "node:module";

type NodeHttp2 = typeof import("node:http2");

let loaded: NodeHttp2 | undefined;
function nodeHttp2(): NodeHttp2 {
  loaded ??= createRequire(import.meta.url)("node:http2") as NodeHttp2;
  return loaded;
}

/** Whether anything has been read from the module yet (what the tests check). */
export function http2Loaded(): boolean {
  return loaded !== undefined;
}

/** `constants`, each read from the module when it is asked for. */
const constants = new Proxy({} as NodeHttp2["constants"], {
  get: (_target, name) => Reflect.get(nodeHttp2().constants, name),
  has: (_target, name) => Reflect.has(nodeHttp2().constants, name),
});

/** The module: `constants` as above, anything else read from Node's module, loaded on that read. */
const http2 = new Proxy({} as NodeHttp2, {
  get: (_target, name) => (name === "constants" ? constants : Reflect.get(nodeHttp2(), name)),
  has: (_target, name) => Reflect.has(nodeHttp2(), name),
});

export default http2;
