// The lower service layers: the tables (DynamoDB) and the buckets (S3), and the WebSocket delivery
// over the tables. A module apart from services.ts because esbuild keeps a module's top-level code
// when anything of it is imported, and services.ts's tool catalogs build their schemas at the top:
// the functions that use these layers alone (stream, WebSocket, push, finalize, batch) import this
// file and carry none of the agents' catalogs. services.ts builds the higher layers on these, so one
// process (the twin) shares one instance of each.
import type { Logger } from "@aws-lambda-powertools/logger";
import type { ResultPolicy } from "../core/destinations.ts";
import type { DocumentPolicy } from "../core/documents.ts";
import { createLiveDelivery, type LiveDeliveryServices } from "../live/delivery.ts";
import { BatchStore } from "../store/batches.ts";
import { BlobStore } from "../store/blobs.ts";
import { EventPublisher, type EventSink } from "../store/events.ts";
import { EvidenceStore } from "../store/evidence.ts";
import { RunStore } from "../store/runs.ts";
import { SessionStore } from "../store/sessions.ts";
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

// ---- Per-process singletons -------------------------------------------------------------------

let tables: TableServices | undefined;
let base: BaseServices | undefined;

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
