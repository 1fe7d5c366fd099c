// Everything a function needs, built once per cold start (Lambda) or once per process (the
// local twin sets the environment first, then calls this). Handlers stay thin adapters.
import type { Logger } from "@aws-lambda-powertools/logger";
import type { ToolCatalog } from "../core/types.ts";
import { createLlmProviders } from "../llm/index.ts";
import { BatchStore } from "../store/batches.ts";
import { BlobStore } from "../store/blobs.ts";
import { EventPublisher, type EventSink } from "../store/events.ts";
import { EvidenceStore } from "../store/evidence.ts";
import { RunStore } from "../store/runs.ts";
import { SessionStore } from "../store/sessions.ts";
import { DocumentReader } from "../tools/document-reader.ts";
import { createLenderCalls } from "../tools/lender-client.ts";
import { createLoanTools } from "../tools/loan-tools.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { createLiveDelivery } from "../ws/push.ts";
import { createAwsClients } from "./clients.ts";
import { type Config, parseConfig } from "./config.ts";
import { FaultInjector } from "./faults.ts";
import { createLogger } from "./logger.ts";

export type Services = ReturnType<typeof buildServices>;

export function buildServices(config: Config, options: { logger?: Logger; sinks?: EventSink[] } = {}) {
  const clients = createAwsClients(config);
  const now = () => new Date();
  const runs = new RunStore(clients.ddb, config.runsTable, now);
  const sessions = new SessionStore(clients.ddb, config.runsTable, now);
  const batches = new BatchStore(clients.ddb, clients.s3, config.runsTable, now);
  const blobs = new BlobStore(clients.s3);
  const evidence = new EvidenceStore(runs, blobs, config.artifactsBucket, config.evidenceInlineLimit);
  // Live WebSocket delivery, present when the deployment has a WebSocket API. Publishers never push:
  // the stream consumer (lambdas/ws/stream.ts) and the subscribe route do.
  const websocket = createLiveDelivery(
    config,
    clients.ddb,
    runs,
    options.logger ?? createLogger("rewoo-live-delivery"),
  );
  const publisher = new EventPublisher(runs, options.sinks ?? [], options.logger);
  const llm = createLlmProviders(config.llm);
  const faults = new FaultInjector(config.faults.spec, config.faults.seed);
  const documentPolicy = {
    documentsBucket: config.documentsBucket,
    allowedPrefixes: config.allowedDocumentPrefixes,
  };
  const resultPolicy = { allowedDestinations: config.allowedResultDestinations };
  const lender = createLenderCalls(config.lender, { now, region: config.region });
  const toolServices = {
    documents: new DocumentReader(blobs, documentPolicy),
    documentPolicy,
    runs,
    llm: llm.tool,
    now,
    ...(lender ? { lender } : {}),
  };
  const tools = new ToolRegistry(createLoanTools(() => toolServices));
  const catalog: ToolCatalog = tools.catalog();
  return {
    config,
    clients,
    runs,
    sessions,
    batches,
    blobs,
    evidence,
    publisher,
    websocket,
    llm,
    tools,
    catalog,
    documentPolicy,
    resultPolicy,
    faults,
    now,
  };
}

let cached: Services | undefined;

/** The per-cold-start singleton. */
export function services(): Services {
  cached ??= buildServices(parseConfig(process.env));
  return cached;
}
