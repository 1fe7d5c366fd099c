// SDK clients, built once per cold start from the configuration. Locally the endpoints point at
// dynalite and s3rver; in AWS they are unset and the SDK resolves the regional endpoints.
// Every client is captured by the function's Tracer (lambdas/runtime/tracer.ts): in Lambda each call
// is an X-Ray subsegment; elsewhere tracing is off and the clients are left as they are.
import { ApiGatewayManagementApiClient } from "@aws-sdk/client-apigatewaymanagementapi";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Config } from "./config.ts";
import { type FunctionTracer, functionTracer } from "./tracer.ts";

export interface AwsClients {
  ddb: DynamoDBDocumentClient;
  s3: S3Client;
}

export function createAwsClients(config: Config, tracer: FunctionTracer = functionTracer()): AwsClients {
  return { ddb: createDynamoDbClient(config, tracer), s3: createS3Client(config, tracer) };
}

const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };

/**
 * The DynamoDB document client alone: the functions that only read and write the tables (the event
 * stream, the WebSocket functions) ask for this and their bundles carry no S3 client
 * (lambdas/runtime/services.ts, tableServices).
 */
export function createDynamoDbClient(
  config: Config,
  tracer: FunctionTracer = functionTracer(),
): DynamoDBDocumentClient {
  // The SDK's standard retry mode retries throttling, 5xx and timeouts with backoff; a few more
  // attempts than the default 3 ride out a burst, and what still fails is a Rewoo.TransientError
  // the state machine retries (lambdas/runtime/transient.ts).
  const dynamo = tracer.captureAWSv3Client(
    new DynamoDBClient({
      region: config.region,
      maxAttempts: 5,
      ...(config.endpoints.dynamodb
        ? { endpoint: config.endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }
        : {}),
    }),
  );
  // The document client sends through `dynamo`'s middleware stack, where the tracer's middleware is.
  return DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
  });
}

export function createS3Client(config: Config, tracer: FunctionTracer = functionTracer()): S3Client {
  return tracer.captureAWSv3Client(
    new S3Client({
      region: config.region,
      maxAttempts: 5,
      ...(config.endpoints.s3
        ? {
            endpoint: config.endpoints.s3,
            credentials: LOCAL_CREDENTIALS,
            // s3rver serves path-style only, and stores streamed bodies corrupted when the SDK adds
            // its default CRC32 trailing checksums.
            forcePathStyle: true,
            requestChecksumCalculation: "WHEN_REQUIRED" as const,
            responseChecksumValidation: "WHEN_REQUIRED" as const,
          }
        : {}),
    }),
  );
}

/**
 * The API Gateway management API (PostToConnection) of the WebSocket API, or undefined when no
 * endpoint is configured. The endpoint includes the stage (https://{api-id}.execute-api.{region}.
 * amazonaws.com/{stage}); the twin's gateway serves it on loopback http, where the signature is
 * not checked and dummy credentials spare the default credential chain.
 * Short timeouts and two attempts bound one push (~11 s worst case) well inside the delivery lease
 * (lambdas/ws/push.ts): a push that outlived its lease could be repeated by the next drainer.
 */
export function createManagementApiClient(
  config: Config,
  tracer: FunctionTracer = functionTracer(),
): ApiGatewayManagementApiClient | undefined {
  const endpoint = config.api.websocketEndpoint;
  if (!endpoint) return undefined;
  const url = new URL(endpoint);
  const loopback =
    url.protocol === "http:" &&
    (url.hostname === "localhost" || url.hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(url.hostname));
  return tracer.captureAWSv3Client(
    new ApiGatewayManagementApiClient({
      region: config.region,
      endpoint,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
      ...(loopback ? { credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
    }),
  );
}
