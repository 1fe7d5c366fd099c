// The WebSocket API's REQUEST authorizer for $connect (API Gateway runs authorizers on $connect
// only). Browsers cannot set headers on a WebSocket handshake, so the token travels in the query:
// wss://…/{stage}?token=<run (subscribe) or operator token>. A run token admits a client to one run,
// an operator token to every run; anything else — a customer token, missing, malformed, expired,
// forged — is denied. It holds the run and operator keys only (lambdas/auth/secret.ts).
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from "aws-lambda";
import { type TokenSecretConfig, verifyWithKeys } from "../auth/secret.ts";
import { InvalidTokenError, type TokenAudience } from "../auth/tokens.ts";
import { parseConfig } from "../runtime/config.ts";
import { createLogger } from "../runtime/logger.ts";
import { functionTracer } from "../runtime/tracer.ts";

const SERVICE = "rewoo-ws-authorizer";
const logger = createLogger(SERVICE);

export type ConnectDecision =
  | {
      effect: "Allow";
      principalId: string;
      context: { scope: "run"; run_id: string } | { scope: "operator" };
    }
  | { effect: "Deny"; reason: string };

/** The audiences that open the WebSocket API: a customer's token is for the chat only. */
export const CONNECT_AUDIENCES: readonly TokenAudience[] = ["run", "operator"];

export interface ConnectOptions {
  /** The handler's traced Secrets Manager client (the keys' secrets are read with it). */
  client?: SecretsManagerClient;
  now?: Date;
}

/** Allow with the token's scope, or Deny with why (for the log; the client only sees 403). */
export async function decideConnect(
  token: unknown,
  config: TokenSecretConfig,
  options: ConnectOptions = {},
): Promise<ConnectDecision> {
  try {
    const { scope } = await verifyWithKeys(config, token, { ...options, accept: CONNECT_AUDIENCES });
    if (scope.kind === "run") {
      return {
        effect: "Allow",
        principalId: `run:${scope.run_id}`,
        context: { scope: "run", run_id: scope.run_id },
      };
    }
    if (scope.kind === "operator") {
      return { effect: "Allow", principalId: "operator", context: { scope: "operator" } };
    }
    return { effect: "Deny", reason: "a customer token does not open the WebSocket API" };
  } catch (error) {
    if (error instanceof InvalidTokenError) return { effect: "Deny", reason: error.message };
    throw error;
  }
}

/**
 * The IAM policy API Gateway expects. The context ({scope, run_id}) reaches the $connect route
 * (and every later message) as requestContext.authorizer; API Gateway only passes
 * string/number/boolean values, so it is kept flat. A Deny rather than a thrown "Unauthorized"
 * (401): API Gateway refuses the handshake with 403 and the decision stays plain data.
 */
export function toPolicy(decision: ConnectDecision, methodArn: string): APIGatewayAuthorizerResult {
  return {
    principalId: decision.effect === "Allow" ? decision.principalId : "anonymous",
    policyDocument: {
      Version: "2012-10-17",
      Statement: [{ Action: "execute-api:Invoke", Effect: decision.effect, Resource: methodArn }],
    },
    ...(decision.effect === "Allow" ? { context: decision.context } : {}),
  };
}

/** The authorizer's answer for a $connect request carrying `?token=`, verified with `config`'s keys. */
export async function authorizeConnect(
  event: Pick<APIGatewayRequestAuthorizerEvent, "methodArn" | "queryStringParameters">,
  config: TokenSecretConfig,
  options: ConnectOptions = {},
): Promise<APIGatewayAuthorizerResult> {
  const decision = await decideConnect(event.queryStringParameters?.token, config, options);
  if (decision.effect === "Deny") logger.info("websocket connect denied", { reason: decision.reason });
  return toPolicy(decision, event.methodArn);
}

let config: ReturnType<typeof parseConfig> | undefined;
let secrets: SecretsManagerClient | undefined;

export const handler = async (
  event: APIGatewayRequestAuthorizerEvent,
): Promise<APIGatewayAuthorizerResult> => {
  config ??= parseConfig(process.env);
  // A missing secret is a deployment fault, not a bad client: it throws (API Gateway answers 500)
  // instead of quietly denying everyone.
  secrets ??= functionTracer(SERVICE).captureAWSv3Client(new SecretsManagerClient({ region: config.region }));
  return authorizeConnect(event, config, { client: secrets });
};
