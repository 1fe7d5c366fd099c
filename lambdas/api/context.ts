// What the route modules need, built once per cold start by index.ts (and by tests, with their own parts).
import type { Logger } from "@aws-lambda-powertools/logger";
import type { Services } from "../runtime/services.ts";
import type { Workflow } from "./sfn.ts";

export interface ApiContext {
  services: Pick<
    Services,
    | "config"
    | "clients"
    | "runs"
    | "sessions"
    | "batches"
    | "blobs"
    | "publisher"
    | "documentPolicy"
    | "resultPolicy"
    | "now"
    | "tools"
    | "catalog"
  >;
  workflow: Workflow;
  /** The subscribe-token secret (lambdas/auth/secret.ts: configured, or Secrets Manager once per cold start). */
  tokenSecret: () => Promise<string>;
  logger: Logger;
  version: string;
}
