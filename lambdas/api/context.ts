// What the route modules need, built once per cold start by index.ts (and by tests, with their own parts).
import type { Logger } from "@aws-lambda-powertools/logger";
import type { TokenAudience, TokenClaims, TokenKeyring } from "../auth/tokens.ts";
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
  /** The keys of token audiences the API mints (run tokens), from lambdas/auth/secret.ts. */
  tokenKeys: (audiences: readonly TokenAudience[]) => Promise<TokenKeyring>;
  /** A token's verified claims if it is of an accepted audience, else InvalidTokenError (lambdas/auth/secret.ts). */
  verifyToken: (token: unknown, accept: readonly TokenAudience[]) => Promise<TokenClaims>;
  logger: Logger;
  version: string;
}
