// Secure defaults, in one place (the aws-solutions-constructs way): every function, bucket, table
// and API stage is built from these and overrides only what it must.
import { fileURLToPath } from "node:url";
import { Duration } from "aws-cdk-lib";
import * as apigateway from "aws-cdk-lib/aws-apigateway";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import * as s3 from "aws-cdk-lib/aws-s3";
import {
  BUNDLE_ALIAS,
  BUNDLE_BANNER,
  BUNDLE_DEFERRED_IMPORTS,
  BUNDLE_MAIN_FIELDS,
  BUNDLE_TARGET,
  deferredImportCommands,
} from "./bundling.ts";

/** The repository root: entries, the lockfile and statemachine/ are resolved from it. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export const functionDefaults = {
  runtime: lambda.Runtime.NODEJS_22_X,
  architecture: lambda.Architecture.ARM_64,
  tracing: lambda.Tracing.ACTIVE,
  handler: "handler",
} as const;

export const bundlingDefaults: BundlingOptions = {
  // The code is ESM (import.meta.url, top-level imports of ESM-only packages such as unpdf).
  format: OutputFormat.ESM,
  target: BUNDLE_TARGET,
  mainFields: BUNDLE_MAIN_FIELDS,
  banner: BUNDLE_BANNER,
  // `--alias:node:http=./lambdas/runtime/node-http.ts`, resolved from the project root esbuild runs in.
  esbuildArgs: { "--alias": Object.entries(BUNDLE_ALIAS).map(([from, to]) => `${from}=${to}`) },
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  // The SDK version the tests ran against, not whatever the runtime ships this month; and one
  // minified file imports in about half the time of the runtime's own SDK, loaded from its many
  // files (README "Lambda bundles").
  bundleAwsSDK: true,
  // Loaded on first use from files shipped beside the bundle (bundling.ts, BUNDLE_DEFERRED_IMPORTS).
  externalModules: Object.keys(BUNDLE_DEFERRED_IMPORTS),
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => deferredImportCommands(inputDir, outputDir),
  },
};

export const bucketDefaults: s3.BucketProps = {
  blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  minimumTLSVersion: 1.2,
  encryption: s3.BucketEncryption.S3_MANAGED,
  objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
  versioned: true,
};

export const tableDefaults = {
  billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
  encryption: dynamodb.TableEncryption.AWS_MANAGED,
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
} satisfies Partial<dynamodb.TableProps>;

/** REST stage: JSON access logs, X-Ray, metrics; request and response bodies never reach a log. */
export const restStageDefaults: apigateway.StageOptions = {
  tracingEnabled: true,
  metricsEnabled: true,
  loggingLevel: apigateway.MethodLoggingLevel.ERROR,
  dataTraceEnabled: false,
  accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields({
    caller: true,
    httpMethod: true,
    ip: true,
    protocol: true,
    requestTime: true,
    resourcePath: true,
    responseLength: true,
    status: true,
    user: true,
  }),
};

/** WebSocket stage access log line: one JSON object per connect/message/disconnect. */
export const webSocketAccessLogFormat = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: "$context.requestId",
    connectionId: "$context.connectionId",
    routeKey: "$context.routeKey",
    eventType: "$context.eventType",
    status: "$context.status",
    requestTime: "$context.requestTime",
    ip: "$context.identity.sourceIp",
    authorizerError: "$context.authorizer.error",
    integrationError: "$context.integration.error",
  }),
);

/** API Gateway's own integration limit is 29 s; a function that outlives it answers nobody. */
export const API_INTEGRATION_TIMEOUT = Duration.seconds(29);
