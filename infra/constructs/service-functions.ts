// What the Service stack's concerns (workflow, REST API, WebSocket API) share about their functions:
// the one way a function is built from the environment's configuration, and the environment
// variables lambdas/runtime/config.ts requires of every function. Names are not access: each
// function's grants are still its own bind* calls.
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as kms from "aws-cdk-lib/aws-kms";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type { Construct } from "constructs";
import { DEFAULT_UPLOAD_MAX_BYTES, DEFAULT_UPLOAD_PREFIX } from "../../lambdas/contracts/documents.ts";
import { ENV } from "../../lambdas/contracts/environment.ts";
import { llmRoleEnvironment, type RewooConfig } from "../config.ts";
import { RewooFunction, type RewooFunctionProps } from "./rewoo-function.ts";

/** Where POST /v1/documents puts uploads in the documents bucket (REWOO_UPLOAD_PREFIX). */
export const UPLOAD_PREFIX = DEFAULT_UPLOAD_PREFIX;
/** The largest PDF an upload may be (REWOO_UPLOAD_MAX_BYTES). */
export const UPLOAD_MAX_BYTES = DEFAULT_UPLOAD_MAX_BYTES;

/**
 * The key prefixes of the documents bucket a run may name documents under, `[""]` for the whole
 * bucket. When the environment limits them, the upload prefix is one of them: an uploaded document
 * is meant for s3_pdf_paths.
 */
export function documentReadPrefixes(config: RewooConfig): string[] {
  const prefixes = config.documents.allowedPrefixes;
  if (prefixes.length === 0) return [""];
  return prefixes.some((prefix) => UPLOAD_PREFIX.startsWith(prefix))
    ? [...prefixes]
    : [...prefixes, UPLOAD_PREFIX];
}

/**
 * The API function's document grants: s3:PutObject under the upload prefix only (a presigned PUT acts
 * with its signer's permissions, so the upload URL can write nowhere else), and s3:GetObject where
 * runs' documents may be (the presigned GETs of GET /v1/runs/{run_id}/documents), with the settings.
 */
export function bindDocumentAccess(
  api: RewooFunction,
  config: RewooConfig,
  documentsBucket: s3.IBucket,
): RewooFunction {
  api
    .bindObjects(documentsBucket, { read: documentReadPrefixes(config), write: [UPLOAD_PREFIX] })
    .bindObjectLocations(config.documents.additionalLocations, "read");
  api.addEnvironment(ENV.REWOO_UPLOAD_PREFIX, UPLOAD_PREFIX);
  api.addEnvironment(ENV.REWOO_UPLOAD_MAX_BYTES, String(UPLOAD_MAX_BYTES));
  return api;
}

/** What every function of the Service stack is built with. */
export interface ServiceFunctionContext {
  readonly config: RewooConfig;
  /** The environment's log key (the Data stack's). */
  readonly logsKey: kms.IKey;
}

export type FunctionSizing = Pick<
  RewooFunctionProps,
  "memorySize" | "timeout" | "description" | "reservedConcurrentExecutions"
>;

/** A RewooFunction named `name` (POWERTOOLS_SERVICE_NAME rewoo-<name>) in `scope`. */
export function serviceFunction(
  scope: Construct,
  context: ServiceFunctionContext,
  name: string,
  entry: string,
  sizing: FunctionSizing,
  environment: Record<string, string>,
): RewooFunction {
  const { config } = context;
  return new RewooFunction(scope, name, {
    entry,
    serviceName: `rewoo-${name.toLowerCase()}`,
    logRetention: config.logRetention,
    logEncryptionKey: context.logsKey,
    removalPolicy: config.removalPolicy,
    logLevel: config.logLevel,
    ...sizing,
    environment,
  });
}

export interface ServiceEnvironments {
  /** Required by lambdas/runtime/config.ts in every function. */
  readonly base: Record<string, string>;
  /** Where a request's output_destination may point (the API checks it, finalize writes there). */
  readonly resultDestinations: Record<string, string>;
  /** The workflow functions' shared services() configuration: tools, providers, limits. */
  readonly agent: Record<string, string>;
}

export function serviceEnvironments(
  config: RewooConfig,
  resources: { runsTable: dynamodb.ITable; documentsBucket: s3.IBucket; artifactsBucket: s3.IBucket },
  resultsPrefix: string,
): ServiceEnvironments {
  const { runsTable, documentsBucket, artifactsBucket } = resources;
  const documentLocations = config.documents.allowedPrefixes.length
    ? documentReadPrefixes(config).map((prefix) => `${documentsBucket.bucketName}/${prefix}`)
    : [documentsBucket.bucketName];
  const base = {
    [ENV.RUNS_TABLE]: runsTable.tableName,
    [ENV.DOCUMENTS_BUCKET]: documentsBucket.bucketName,
    [ENV.ARTIFACTS_BUCKET]: artifactsBucket.bucketName,
    [ENV.ALLOWED_DOCUMENT_PREFIXES]: [...documentLocations, ...config.documents.additionalLocations].join(
      ",",
    ),
    [ENV.REWOO_MAX_STEPS]: String(config.workflow.maxSteps),
    [ENV.REWOO_MAX_REPLANS]: String(config.workflow.maxReplans),
    [ENV.REWOO_REVIEW_THRESHOLD]: String(config.workflow.reviewThreshold),
    [ENV.REWOO_WAIT_SECONDS]: String(config.workflow.waitSeconds),
    [ENV.REWOO_APPROVAL]: config.workflow.approvalRequired ? "required" : "none",
    [ENV.REWOO_CLARIFICATION]: config.workflow.clarification ? "ask" : "never",
  };
  // Checked by the API when it accepts a run, and again by finalize, the only writer, which holds
  // s3:PutObject on exactly these.
  const resultDestinations = {
    [ENV.ALLOWED_RESULT_DESTINATIONS]: [
      `${artifactsBucket.bucketName}/${resultsPrefix}`,
      ...config.results.additionalDestinations,
    ].join(","),
  };
  // The four workflow functions share one services() configuration, so they agree on the tool
  // catalog, the providers and the limits; only their grants differ.
  const agent = {
    ...base,
    [ENV.REWOO_LLM_PROVIDER]: config.llm.provider,
    // The planner reads and writes plan templates (docs/architecture.md, "Plan cache").
    [ENV.REWOO_PLAN_CACHE]: config.workflow.planCache ? "on" : "off",
    // The planner turns this into the RunSteps Map's MaxConcurrencyPath value.
    [ENV.REWOO_WORKER_CONCURRENCY]: String(config.workflow.workerConcurrency),
    // Each role's temperature and output limit, when the environment sets them.
    ...llmRoleEnvironment(config.llm),
    ...definedEnv({
      [ENV.REWOO_PLANNER_MODEL]: config.llm.plannerModel,
      [ENV.REWOO_SOLVER_MODEL]: config.llm.solverModel,
      [ENV.REWOO_TOOL_MODEL]: config.llm.toolModel,
      [ENV.REWOO_REVIEWER_MODEL]: config.llm.reviewerModel,
      [ENV.REWOO_PLANNER_FALLBACK_MODELS]: config.llm.fallbackModels?.planner?.join(","),
      [ENV.REWOO_SOLVER_FALLBACK_MODELS]: config.llm.fallbackModels?.solver?.join(","),
      [ENV.REWOO_TOOL_FALLBACK_MODELS]: config.llm.fallbackModels?.tool?.join(","),
      [ENV.REWOO_REVIEWER_FALLBACK_MODELS]: config.llm.fallbackModels?.reviewer?.join(","),
      [ENV.REWOO_BEDROCK_GUARDRAIL_ID]: config.llm.guardrail?.id,
      [ENV.REWOO_BEDROCK_GUARDRAIL_VERSION]: config.llm.guardrail?.version,
      [ENV.OPENAI_BASE_URL]: config.llm.provider === "openai" ? config.llm.openAiBaseUrl : undefined,
      [ENV.PRECONDITIONS_API_URL]: config.lender.preconditionsApiUrl,
      [ENV.CONDITIONS_AI_API_URL]: config.lender.conditionsAiApiUrl,
    }),
  };
  return { base, resultDestinations, agent };
}

function definedEnv<T extends Record<string, string | undefined>>(record: T): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
}

export function definedList(...values: Array<string | undefined>): string[] {
  return values.filter((value): value is string => value !== undefined);
}
