// SDK clients, built once per cold start from the configuration. Locally the endpoints point at
// dynalite and s3rver; in AWS they are unset and the SDK resolves the regional endpoints.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Config } from "./config.ts";

export interface AwsClients {
  ddb: DynamoDBDocumentClient;
  s3: S3Client;
}

export function createAwsClients(config: Config): AwsClients {
  const local = { accessKeyId: "local", secretAccessKey: "local" };
  const dynamo = new DynamoDBClient({
    region: config.region,
    ...(config.endpoints.dynamodb ? { endpoint: config.endpoints.dynamodb, credentials: local } : {}),
  });
  const s3 = new S3Client({
    region: config.region,
    ...(config.endpoints.s3
      ? {
          endpoint: config.endpoints.s3,
          credentials: local,
          // s3rver serves path-style only, and stores streamed bodies corrupted when the SDK adds
          // its default CRC32 trailing checksums.
          forcePathStyle: true,
          requestChecksumCalculation: "WHEN_REQUIRED" as const,
          responseChecksumValidation: "WHEN_REQUIRED" as const,
        }
      : {}),
  });
  return {
    ddb: DynamoDBDocumentClient.from(dynamo, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
    }),
    s3,
  };
}
