// What running a tool needs beyond the stores and the models: document reading (PDF text extraction,
// whose library is most of a bundle) and the lender's services. Only the worker runs tools, and only
// its entry imports this module (lambdas/worker/index.ts links it with linkToolRuntime).
import { DocumentReader } from "../tools/document-reader.ts";
import { createLenderCalls } from "../tools/lender-client.ts";
import type { BaseServices, ToolRuntime } from "./services.ts";

export function workerToolRuntime(base: BaseServices): ToolRuntime {
  const lender = createLenderCalls(base.config.lender, { now: base.now, region: base.config.region });
  return {
    documents: new DocumentReader(base.blobs, base.documentPolicy),
    ...(lender ? { lender } : {}),
  };
}
