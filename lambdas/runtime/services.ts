// Everything a function needs, built once per cold start (Lambda) or once per process (the local
// twin sets the environment first, then calls these). Handlers stay thin adapters.
//
// In layers, because CDK bundles each function into one file (no code splitting) and esbuild keeps
// only what an entry reaches: a handler that asks for a lower layer carries none of the higher ones.
//   tableServices()    runs, sessions, events (DynamoDB only)       stream, ws, push
//   liveDelivery()     + WebSocket connections and delivery         ws, push
//   baseServices()     + evidence, documents, batches (S3), policies finalize, batch
//   catalogServices()  + the tool registry: schemas, descriptions,  api (plan edits, answers)
//                        questions, solver views
//   services()         + the models                                  planner, solver, worker, twin
// What the tools do when they run (the reference engines, document reading with its PDF library, the
// lender's clients, the core-banking store) only the worker's entry links (linkToolRuntime), so no other bundle contains it.
// The layers share one cache: in the twin, where every handler runs in one process, the API, the
// planner and the worker see the same stores, the same registry and the same models.
import type { Logger } from "@aws-lambda-powertools/logger";
import {
  type BankingToolRunners,
  describeBankingToolCatalog,
} from "../agents/banking/banking-tool-catalog.ts";
import { describeLoanTools, type LoanToolRunners } from "../agents/loan/loan-tool-catalog.ts";
import { registeredAgentTools } from "../agents/registry.ts";
import type { ResultPolicy } from "../core/destinations.ts";
import type { DocumentPolicy } from "../core/documents.ts";
import type { ToolCatalog } from "../core/types.ts";
import { createLiveDelivery, type LiveDeliveryServices } from "../live/delivery.ts";
import { createLlmProviders, type LlmProviders, type ModelBinding } from "../llm/index.ts";
import { BatchStore } from "../store/batches.ts";
import { BlobStore } from "../store/blobs.ts";
import { EventPublisher, type EventSink } from "../store/events.ts";
import { EvidenceStore } from "../store/evidence.ts";
import { RunStore } from "../store/runs.ts";
import { SessionStore } from "../store/sessions.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { createDynamoDbClient, createManagementApiClient, createS3Client } from "./clients.ts";
import { type Config, parseConfig } from "./config.ts";
import { FaultInjector } from "./faults.ts";
import { createLogger } from "./logger.ts";

export interface ServiceOptions {
  logger?: Logger;
  sinks?: EventSink[];
}

export type TableServices = ReturnType<typeof buildTableServices>;
export type BaseServices = ReturnType<typeof buildBaseServices>;
export type CatalogServices = BaseServices & { tools: ToolRegistry; catalog: ToolCatalog };
export type Services = CatalogServices & { llm: LlmProviders };

/** What the tools do when they run: the loan tools' and the banking tools' runners. */
export interface ToolRunners {
  loan: LoanToolRunners;
  banking: BankingToolRunners;
}

/**
 * What the tools do when they run, built from the stores and the `llm` tool's model (read when a tool
 * calls it): lambdas/runtime/tool-runtime.ts.
 */
export type ToolRuntime = (base: BaseServices, toolModel: () => ModelBinding) => ToolRunners;

/**
 * The tables alone (DynamoDB): runs, sessions and their events. The functions that need nothing else
 * (the event stream, the WebSocket functions) ask for this layer, so their bundles carry no S3 client.
 */
export function buildTableServices(config: Config, options: ServiceOptions = {}) {
  const ddb = createDynamoDbClient(config);
  const now = () => new Date();
  const runs = new RunStore(ddb, config.runsTable, now);
  const sessions = new SessionStore(ddb, config.runsTable, now);
  const publisher = new EventPublisher(runs, options.sinks ?? [], options.logger);
  return { config, ddb, runs, sessions, publisher, now };
}

export function buildBaseServices(config: Config, options: ServiceOptions = {}) {
  return withObjectStores(buildTableServices(config, options));
}

/** The tables and the buckets: evidence, documents, batches, and the policies over them. */
function withObjectStores(tables: TableServices) {
  const { config, ddb, runs, now } = tables;
  const s3 = createS3Client(config);
  const clients = { ddb, s3 };
  const batches = new BatchStore(ddb, s3, config.runsTable, now);
  const blobs = new BlobStore(s3);
  const evidence = new EvidenceStore(runs, blobs, config.artifactsBucket, config.evidenceInlineLimit);
  const faults = new FaultInjector(config.faults.spec, config.faults.seed);
  const { documentPolicy, resultPolicy } = locationPolicies(config);
  return { ...tables, clients, batches, blobs, evidence, faults, documentPolicy, resultPolicy };
}

/** Where the configuration lets a request read documents and write its result. */
export function locationPolicies(config: Config): {
  documentPolicy: DocumentPolicy;
  resultPolicy: ResultPolicy;
} {
  return {
    documentPolicy: {
      documentsBucket: config.documentsBucket,
      allowedPrefixes: config.allowedDocumentPrefixes,
    },
    resultPolicy: { allowedDestinations: config.allowedResultDestinations },
  };
}

/**
 * The tool registry over `base`. A tool's runner is asked for only when the tool runs, so the
 * registry describes, validates and asks before (and without) the runners; a tool run without them
 * is refused with what is missing.
 */
export function withTools(base: BaseServices, runners: () => ToolRunners): CatalogServices {
  const tools = new ToolRegistry(
    describeLoanTools(() => runners().loan, base.now),
    {
      banking_assistant: describeBankingToolCatalog(() => runners().banking),
      ...registeredAgentTools(),
    },
  );
  return { ...base, tools, catalog: tools.catalog() };
}

/** The whole graph in a process of its own (tests, benchmarks); tools run when `runtime` is given. */
export function buildServices(
  config: Config,
  options: ServiceOptions & { runtime?: ToolRuntime } = {},
): Services {
  const base = buildBaseServices(config, options);
  const llm = createLlmProviders(config.llm);
  let runners: ToolRunners | undefined;
  const withRegistry = withTools(base, () => {
    if (!options.runtime) throw new ToolRuntimeMissingError();
    runners ??= options.runtime(base, () => llm.tool);
    return runners;
  });
  return { ...withRegistry, llm };
}

export class ToolRuntimeMissingError extends Error {
  override name = "ToolRuntimeMissingError";
  constructor() {
    super(
      "tools run only in the worker: this function has no tool runtime linked (lambdas/worker/index.ts links it with linkToolRuntime)",
    );
  }
}

// ---- Per-process singletons -------------------------------------------------------------------

let tables: TableServices | undefined;
let base: BaseServices | undefined;
let catalog: CatalogServices | undefined;
let full: Services | undefined;
let llm: LlmProviders | undefined;
let runtime: ToolRuntime | undefined;
let runners: ToolRunners | undefined;

/**
 * Links what the tools do into this process: called by the worker's entry, the one function that
 * runs tools, so that only its bundle carries the engines, the PDF library and the lender's clients.
 */
export function linkToolRuntime(linked: ToolRuntime): void {
  runtime = linked;
}

/** The tables: the event stream and the WebSocket functions. */
export function tableServices(): TableServices {
  tables ??= buildTableServices(parseConfig(process.env));
  return tables;
}

/** Tables, buckets and policies: finalize, batch, and (under the catalog) the API and the workflow. */
export function baseServices(): BaseServices {
  base ??= withObjectStores(tableServices());
  return base;
}

let live: { delivery: LiveDeliveryServices | undefined } | undefined;

/**
 * Live WebSocket delivery over the base services, present when the deployment has a WebSocket API.
 * Publishers never push: the stream consumer (lambdas/ws/push.ts) and the subscribe route do, so
 * only the WebSocket functions ask for it and only their bundles carry the Management API client.
 */
export function liveDelivery(): LiveDeliveryServices | undefined {
  live ??= { delivery: buildLiveDelivery(tableServices()) };
  return live.delivery;
}

export function buildLiveDelivery(
  tables: Pick<TableServices, "config" | "ddb" | "runs">,
  logger?: Logger,
): LiveDeliveryServices | undefined {
  return createLiveDelivery({
    ddb: tables.ddb,
    connectionsTable: tables.config.connectionsTable,
    managementApi: createManagementApiClient(tables.config),
    runs: tables.runs,
    logger: logger ?? createLogger("rewoo-live-delivery"),
  });
}

/** The base and the tool registry, without models: the API (plan edits, answers to questions). */
export function catalogServices(): CatalogServices {
  catalog ??= withTools(baseServices(), () => {
    if (!runtime) throw new ToolRuntimeMissingError();
    runners ??= runtime(baseServices(), () => {
      // Set by services(), which every function that runs tools builds before its first tool.
      if (!llm) throw new ToolRuntimeMissingError();
      return llm.tool;
    });
    return runners;
  });
  return catalog;
}

/** The base, the tool registry and the models: the planner, the solver, the worker (and the twin). */
export function services(): Services {
  if (!full) {
    const withRegistry = catalogServices();
    llm ??= createLlmProviders(withRegistry.config.llm);
    full = { ...withRegistry, llm };
  }
  return full;
}
