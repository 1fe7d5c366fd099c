// Configuration of every function, read once per cold start from the environment (Lambda) or set by
// the local twin before it imports the handlers. Invalid configuration fails the cold start loudly.
import * as z from "zod";
import type { TokenKeySettings } from "../auth/secret.ts";
import { DEFAULT_MAX_LIFETIME_SECONDS, TOKEN_AUDIENCES, type TokenAudience } from "../auth/tokens.ts";
import { originPatternProblem } from "../contracts/cors.ts";
import { DEFAULT_UPLOAD_MAX_BYTES, DEFAULT_UPLOAD_PREFIX } from "../contracts/documents.ts";
import {
  ENV,
  MAX_WAIT_SECONDS,
  RETIRED_VARIABLES,
  type RuntimeVariable,
  TOKEN_KEY_VARIABLES,
} from "../contracts/environment.ts";
import {
  DEFAULT_LLM_PROVIDER,
  LLM_PROVIDER_NAMES,
  WORKFLOW_DEFAULTS,
} from "../contracts/workflow-defaults.ts";
import { type PriceTable, priceTableOverrideSchema, withPriceOverrides } from "../core/cost.ts";
import { lazily } from "../core/lazy.ts";
import { parseFaults } from "./faults.ts";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Unset or empty: undefined (the role's default), not the 0 `z.coerce` would make of "". */
const unsetIfEmpty = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** The longest lifetime an audience's maximum may be set to: a longer bearer token is a standing credential. */
const LONGEST_TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;

/** The variables of one token audience: its key (and the previous one), or its secret; its maximum lifetime. */
function tokenKeyShape<Audience extends TokenAudience>(audience: Audience) {
  const names = TOKEN_KEY_VARIABLES[audience];
  const key = (name: string) =>
    z.preprocess(unsetIfEmpty, z.string().min(32, `${name} must be at least 32 characters`).optional());
  return {
    [names.secret]: key(names.secret),
    [names.previous]: key(names.previous),
    [names.secretArn]: z.preprocess(unsetIfEmpty, z.string().optional()),
    [names.maxLifetime]: z.coerce
      .number()
      .int(`${names.maxLifetime} must be a whole number of seconds`)
      .min(1)
      .max(
        LONGEST_TOKEN_LIFETIME_SECONDS,
        `${names.maxLifetime} must be at most ${LONGEST_TOKEN_LIFETIME_SECONDS} (7 days)`,
      )
      .default(DEFAULT_MAX_LIFETIME_SECONDS[audience]),
  } as {
    [N in (typeof names)["secret" | "previous" | "secretArn"]]: z.ZodType<string | undefined>;
  } & { [N in (typeof names)["maxLifetime"]]: z.ZodDefault<z.ZodCoercedNumber> };
}

const OCR_CONFIDENCE_RANGE =
  "expected a whole number from 0 to 100 (Textract's and tesseract's confidence scale)";

/**
 * The environment's schema, built at the first parse rather than when the module loads
 * (lambdas/core/lazy.ts): every function's bundle carries it, and only an invocation reads it.
 */
const envSchema = /* @__PURE__ */ lazily(() => {
  const csv = z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    );

  /** Comma-separated Bedrock model or inference-profile ids (or ARNs). */
  const modelList = csv.refine(
    (models) => models.every((model) => /^[\w.:/-]+$/.test(model)),
    "expected Bedrock model or inference-profile ids, comma-separated",
  );
  /** A role's temperature: 0–2 is what the OpenAI API accepts; Bedrock's models take 0–1 and refuse more. */
  const temperature = z.preprocess(unsetIfEmpty, z.coerce.number().min(0).max(2).optional());
  const maxTokens = z.preprocess(unsetIfEmpty, z.coerce.number().int().positive().optional());

  /** A lender service URL. Unset or empty: the built-in reference engine answers instead. */
  const lenderUrl = z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z
      .string()
      .refine((value) => {
        // Checked here rather than with .url(): zod runs every check, and `new URL` throws on garbage.
        if (!URL.canParse(value)) return false;
        const url = new URL(value);
        return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname));
      }, "must be an https:// URL (http:// only for localhost): the bearer token travels with every request")
      .optional(),
  );

  // Keyed by the contract's names; `satisfies` makes a name parsed here but missing there (or the
  // reverse) a compile error, so what the deployment sets and what is read cannot drift apart.
  const shape = {
    [ENV.AWS_REGION]: z.string().default("us-east-1"),
    [ENV.RUNS_TABLE]: z.string().min(1, `${ENV.RUNS_TABLE} must name the DynamoDB runs table`),
    [ENV.DOCUMENTS_BUCKET]: z.string().min(1, `${ENV.DOCUMENTS_BUCKET} must name the documents bucket`),
    [ENV.ARTIFACTS_BUCKET]: z
      .string()
      .min(1, `${ENV.ARTIFACTS_BUCKET} must name the artifacts/results bucket`),
    /** `bucket` or `bucket/prefix` entries; empty means "the documents bucket, any key". */
    [ENV.ALLOWED_DOCUMENT_PREFIXES]: csv,
    /**
     * Where POST /v1/documents puts uploads, a key prefix in the documents bucket ending in `/`: the
     * API function may write there and nowhere else in the bucket (infra grants PutObject on it only).
     */
    [ENV.REWOO_UPLOAD_PREFIX]: z
      .string()
      .default(DEFAULT_UPLOAD_PREFIX)
      .refine(
        (value) => /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/$/.test(value),
        `${ENV.REWOO_UPLOAD_PREFIX} must be a key prefix such as uploads/ (plain path parts, ending in /)`,
      ),
    /** The PDF size limit of an upload; S3 refuses a PUT of another size than the one signed. */
    [ENV.REWOO_UPLOAD_MAX_BYTES]: positiveInt(DEFAULT_UPLOAD_MAX_BYTES),
    /**
     * `bucket/prefix` (or `bucket`) entries where `output_destination` may point, besides
     * `<ARTIFACTS_BUCKET>/results/`, which is always allowed. Never inside a document location.
     */
    [ENV.ALLOWED_RESULT_DESTINATIONS]: csv,
    /** Endpoint overrides: the local twin points the SDK clients at dynalite and s3rver. */
    [ENV.DYNAMODB_ENDPOINT]: z.string().url().optional(),
    [ENV.S3_ENDPOINT]: z.string().url().optional(),
    [ENV.REWOO_LLM_PROVIDER]: z.enum(LLM_PROVIDER_NAMES).default(DEFAULT_LLM_PROVIDER),
    /**
     * What reads PDF pages without a text layer. `none` unless told: a function left without the
     * setting then neither calls a service its role may not allow nor spends minutes of CPU on a scan.
     * The CDK stack sets the environment's choice on the worker (textract), the local twin tesseract.
     */
    [ENV.REWOO_OCR_ENGINE]: z.enum(["textract", "tesseract", "none"]).default("none"),
    /**
     * Textract reads scans with its document analysis and the SIGNATURES feature (hand signatures
     * seen), not text detection alone. Off unless told; the CDK stack turns it on with Textract.
     */
    [ENV.REWOO_TEXTRACT_SIGNATURES]: z.enum(["true", "false"]).default("false"),
    /**
     * Textract's document analysis adds the FORMS and TABLES features (key–value pairs and tables in
     * the document model). Off unless told; the CDK stack turns it on with Textract.
     */
    [ENV.REWOO_TEXTRACT_FORMS]: z.enum(["true", "false"]).default("false"),
    /** A verdict resting on an OCR read below this confidence (0–100) is insufficient_evidence. */
    [ENV.REWOO_OCR_MIN_CONFIDENCE]: z.coerce
      .number()
      .int(OCR_CONFIDENCE_RANGE)
      .min(0, OCR_CONFIDENCE_RANGE)
      .max(100, OCR_CONFIDENCE_RANGE)
      .default(80),
    /** Textract endpoint override: a VPC interface endpoint or an emulator. */
    [ENV.TEXTRACT_ENDPOINT]: z.string().url().optional(),
    [ENV.REWOO_PLANNER_MODEL]: z.string().optional(),
    [ENV.REWOO_SOLVER_MODEL]: z.string().optional(),
    [ENV.REWOO_TOOL_MODEL]: z.string().optional(),
    /** The model reviewer's; defaults to the planner's. Unused with the rule-based provider. */
    [ENV.REWOO_REVIEWER_MODEL]: z.string().optional(),
    /** Bedrock model ids, comma-separated, tried in order after the role's model (lambdas/llm/bedrock.ts). */
    [ENV.REWOO_PLANNER_FALLBACK_MODELS]: modelList,
    [ENV.REWOO_SOLVER_FALLBACK_MODELS]: modelList,
    [ENV.REWOO_TOOL_FALLBACK_MODELS]: modelList,
    [ENV.REWOO_REVIEWER_FALLBACK_MODELS]: modelList,
    [ENV.OPENAI_BASE_URL]: z.string().url().optional(),
    [ENV.OPENAI_API_KEY]: z.string().optional(),
    /** In AWS: the secret holding OPENAI_API_KEY (the CDK stack sets this and grants its read, not the key). */
    [ENV.OPENAI_API_KEY_SECRET_ARN]: z.string().optional(),
    /** Per role (lambdas/llm/index.ts LlmRoleSettings); unset: today's defaults (lambdas/llm/types.ts). */
    [ENV.REWOO_PLANNER_TEMPERATURE]: temperature,
    [ENV.REWOO_SOLVER_TEMPERATURE]: temperature,
    [ENV.REWOO_TOOL_TEMPERATURE]: temperature,
    [ENV.REWOO_REVIEWER_TEMPERATURE]: temperature,
    [ENV.REWOO_PLANNER_MAX_TOKENS]: maxTokens,
    [ENV.REWOO_SOLVER_MAX_TOKENS]: maxTokens,
    [ENV.REWOO_TOOL_MAX_TOKENS]: maxTokens,
    [ENV.REWOO_REVIEWER_MAX_TOKENS]: maxTokens,
    /** Converse's guardrailIdentifier and guardrailVersion patterns; set both or neither (parseConfig). */
    [ENV.REWOO_BEDROCK_GUARDRAIL_ID]: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .regex(
          /^([a-z0-9]+|arn:aws(-[^:]+)?:bedrock:[a-z0-9-]{1,20}:[0-9]{12}:guardrail\/[a-z0-9]+)$/,
          "expected a guardrail id (lowercase letters and digits) or its ARN",
        )
        .optional(),
    ),
    [ENV.REWOO_BEDROCK_GUARDRAIL_VERSION]: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .regex(/^([1-9][0-9]{0,7}|DRAFT)$/, "expected a published version number (1, 2, …) or DRAFT")
        .optional(),
    ),
    [ENV.REWOO_SCRIPTED_RESPONSES]: z.string().optional(),
    [ENV.REWOO_PLANNER_PROMPT]: z.string().optional(),
    [ENV.REWOO_SOLVER_PROMPT]: z.string().optional(),
    [ENV.REWOO_MAX_STEPS]: positiveInt(WORKFLOW_DEFAULTS.maxSteps),
    /** Times the planner may plan again after a step the profile requires failed (0: never). */
    [ENV.REWOO_MAX_REPLANS]: z.coerce.number().int().min(0).max(5).default(WORKFLOW_DEFAULTS.maxReplans),
    /** Reviews scoring below this (1–10) send a plan back to the planner, then end the run NEEDS_REVIEW. */
    [ENV.REWOO_REVIEW_THRESHOLD]: z.coerce
      .number()
      .int()
      .min(1)
      .max(10)
      .default(WORKFLOW_DEFAULTS.reviewThreshold),
    /**
     * How long a run waits for a person (an answer, an approval), in seconds: at most 3 days, so that
     * both waits and the work fit in the state machine's 7-day execution timeout.
     */
    [ENV.REWOO_WAIT_SECONDS]: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_WAIT_SECONDS)
      .default(WORKFLOW_DEFAULTS.waitSeconds),
    /** "required": every run's plan waits for an operator's approval unless its request says otherwise. */
    [ENV.REWOO_APPROVAL]: z.enum(["required", "none"]).default("none"),
    /** "ask": a request missing an input a condition needs pauses and asks for it unless it says otherwise. */
    [ENV.REWOO_CLARIFICATION]: z.enum(["ask", "never"]).default("ask"),
    /**
     * "on": the planner reuses a plan template of the same request shape (docs/architecture.md, "Plan
     * cache"). Off unless told: the CDK stack turns it on per environment (workflow.planCache), the local
     * twin when REWOO_PLAN_CACHE=on is set.
     */
    [ENV.REWOO_PLAN_CACHE]: z.enum(["on", "off"]).default("off"),
    /** At least the widest level a plan within REWOO_MAX_STEPS can have, so a level runs in one wave. */
    [ENV.REWOO_WORKER_CONCURRENCY]: positiveInt(WORKFLOW_DEFAULTS.workerConcurrency),
    /** Evidence above this many bytes of JSON goes to S3; DynamoDB items stop at 400 KB. */
    [ENV.REWOO_EVIDENCE_INLINE_LIMIT]: positiveInt(64 * 1024),
    /** Extra latency per tool (`tool=ms,tool=ms` or `*=ms`), used by benchmarks to emulate remote services. */
    [ENV.REWOO_TOOL_LATENCY_MS]: z.string().optional(),
    /** "tool=ms,…": a tool's timeout instead of its catalog's (e.g. a slow lender service). */
    [ENV.REWOO_TOOL_TIMEOUT_MS]: z.string().optional(),
    /** Injected faults for chaos tests and benchmarks (`tool=probability:kind,…`, see lambdas/runtime/faults.ts). */
    [ENV.REWOO_FAULTS]: z.string().optional(),
    [ENV.REWOO_FAULTS_SEED]: z.coerce.number().int().optional(),
    [ENV.PRECONDITIONS_API_URL]: lenderUrl,
    [ENV.CONDITIONS_AI_API_URL]: lenderUrl,
    /**
     * Bearer token for both lender services. In AWS it comes from Secrets Manager (wired by the CDK
     * stack), not a plain environment value in the template; it is never logged or put in errors.
     */
    [ENV.LENDER_API_TOKEN]: z.string().optional(),
    /** In AWS: the Secrets Manager secret holding LENDER_API_TOKEN (the CDK stack sets this, not the token). */
    [ENV.LENDER_API_TOKEN_SECRET_ARN]: z.string().optional(),
    /** Per attempt; the tool's own timeout bounds the retries as a whole. */
    [ENV.LENDER_API_TIMEOUT_MS]: positiveInt(10_000),
    /** WebSocket subscriptions (API issue): connection_id → run_id, GSI by_run. */
    [ENV.CONNECTIONS_TABLE]: z.string().optional(),
    /** The banking assistant's core-banking table (lambdas/store/core-banking.ts); only the worker's tools use it. */
    [ENV.CORE_BANKING_TABLE]: z
      .string()
      .min(1, `${ENV.CORE_BANKING_TABLE} must name the core-banking table`)
      .optional(),
    /** The workflow the REST API starts; the twin points SFN_ENDPOINT at its Step Functions emulation. */
    [ENV.STATE_MACHINE_ARN]: z.string().optional(),
    /** The batch workflow (statemachine/batch.asl.json) the REST API starts for POST /v1/batches. */
    [ENV.BATCH_STATE_MACHINE_ARN]: z.string().optional(),
    /** Largest max_concurrency a batch may ask for (lines evaluated at once by its Distributed Map). */
    [ENV.REWOO_BATCH_MAX_CONCURRENCY]: z.coerce.number().int().min(1).max(10_000).default(100),
    /** Largest POST /v1/batches body (inline requests); Lambda's synchronous payload stops at 6 MB. */
    [ENV.REWOO_BATCH_MAX_BODY_BYTES]: positiveInt(5 * 1024 * 1024),
    [ENV.SFN_ENDPOINT]: z.string().url().optional(),
    /** API Gateway management endpoint (https://{api-id}.execute-api.{region}.amazonaws.com/{stage}) for PostToConnection. */
    [ENV.WEBSOCKET_ENDPOINT]: z.string().url().optional(),
    /** What clients connect to (wss://…/{stage}); returned by POST /v1/evaluate-conditions. */
    [ENV.WEBSOCKET_URL]: z.string().optional(),
    /** Base URL of the REST API as clients see it, for status_url / events_url. */
    [ENV.PUBLIC_API_URL]: z.string().optional(),
    /**
     * Origins (or patterns with one `*`) whose pages may call the REST API from a browser: the API
     * function echoes a matching Origin in Access-Control-Allow-Origin. Empty: no cross-origin caller.
     */
    [ENV.REWOO_ALLOWED_ORIGINS]: csv.superRefine((patterns, ctx) => {
      for (const pattern of patterns) {
        const problem = originPatternProblem(pattern);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }
    }),
    /**
     * One HMAC key per token audience (lambdas/auth/tokens.ts), each configured directly (local) or as
     * a Secrets Manager secret (AWS; its AWSPREVIOUS version is the previous key).
     */
    ...tokenKeyShape("customer"),
    ...tokenKeyShape("run"),
    ...tokenKeyShape("operator"),
    /** How long a run (subscribe) token returned with a new run stays valid. */
    [ENV.REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS]: positiveInt(DEFAULT_MAX_LIFETIME_SECONDS.run),
    /** Largest accepted request body (API Gateway itself stops at 10 MB). */
    [ENV.REWOO_MAX_BODY_BYTES]: positiveInt(256 * 1024),
    /**
     * How long POST /v1/chat waits for its run to ask, confirm or finish before it answers "working on
     * it" (API Gateway ends a request at 29 s).
     */
    [ENV.REWOO_CHAT_WAIT_SECONDS]: z.coerce
      .number()
      .int(`${ENV.REWOO_CHAT_WAIT_SECONDS} must be a whole number of seconds`)
      .min(0)
      .max(25, `${ENV.REWOO_CHAT_WAIT_SECONDS} must be at most 25 (API Gateway ends a request at 29 s)`)
      .default(20),
    /**
     * Whether operators (callers of the REST API without the customer's token) may read banking chat
     * transcripts: the customer's own words, which officers have no need to see by default.
     */
    [ENV.REWOO_CHAT_TRANSCRIPTS]: z.enum(["customer_only", "officers"]).default("customer_only"),
    /** Parsed by parsePriceTable (lambdas/core/cost.ts PriceTable; docs/cost.md). */
    [ENV.REWOO_PRICE_TABLE]: z.string().optional(),
  } satisfies Record<RuntimeVariable, z.ZodType>;
  return z.object(shape);
});

export type Config = ReturnType<typeof parseConfig>;

/** The guardrail every Bedrock call is made under: both settings, or none. */
function guardrailSetting(id: string | undefined, version: string | undefined) {
  if (id === undefined && version === undefined) return undefined;
  if (id === undefined || version === undefined) {
    const missing = id === undefined ? ENV.REWOO_BEDROCK_GUARDRAIL_ID : ENV.REWOO_BEDROCK_GUARDRAIL_VERSION;
    throw new Error(
      `Invalid configuration: ${missing}: required with ${id === undefined ? ENV.REWOO_BEDROCK_GUARDRAIL_VERSION : ENV.REWOO_BEDROCK_GUARDRAIL_ID} (a guardrail is its id and a version)`,
    );
  }
  return { id, version };
}

export function parseConfig(env: NodeJS.ProcessEnv) {
  const retired = Object.entries(RETIRED_VARIABLES)
    .filter(([name]) => env[name] !== undefined)
    .map(
      ([name, field]) =>
        `${name}: no longer read, set ${TOKEN_AUDIENCES.map((audience) => TOKEN_KEY_VARIABLES[audience][field]).join(", ")} (one per token audience)`,
    );
  if (retired.length) throw new Error(`Invalid configuration: ${retired.join("; ")}`);
  const parsed = envSchema().safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  const tokens = tokenKeySettings(e);
  const guardrail = guardrailSetting(e.REWOO_BEDROCK_GUARDRAIL_ID, e.REWOO_BEDROCK_GUARDRAIL_VERSION);
  const fallbackModels = {
    planner: e.REWOO_PLANNER_FALLBACK_MODELS,
    solver: e.REWOO_SOLVER_FALLBACK_MODELS,
    // Like the models themselves: the tool follows the solver, the reviewer the planner, unless set.
    tool:
      e.REWOO_TOOL_FALLBACK_MODELS.length || e.REWOO_TOOL_MODEL
        ? e.REWOO_TOOL_FALLBACK_MODELS
        : e.REWOO_SOLVER_FALLBACK_MODELS,
    reviewer:
      e.REWOO_REVIEWER_FALLBACK_MODELS.length || e.REWOO_REVIEWER_MODEL
        ? e.REWOO_REVIEWER_FALLBACK_MODELS
        : e.REWOO_PLANNER_FALLBACK_MODELS,
  };
  const fallbackSet = Object.entries(fallbackModels).find(([, models]) => models.length > 0);
  if (fallbackSet && e.REWOO_LLM_PROVIDER !== "bedrock") {
    throw new Error(
      `Invalid configuration: REWOO_${fallbackSet[0].toUpperCase()}_FALLBACK_MODELS: model fallback applies to REWOO_LLM_PROVIDER=bedrock only, not ${e.REWOO_LLM_PROVIDER}`,
    );
  }
  if (guardrail && e.REWOO_LLM_PROVIDER !== "bedrock") {
    // Set and silently unused would let an operator believe every call is guarded.
    throw new Error(
      `Invalid configuration: ${ENV.REWOO_BEDROCK_GUARDRAIL_ID}: a Bedrock guardrail applies to REWOO_LLM_PROVIDER=bedrock only, not ${e.REWOO_LLM_PROVIDER}`,
    );
  }
  return {
    region: e.AWS_REGION,
    runsTable: e.RUNS_TABLE,
    documentsBucket: e.DOCUMENTS_BUCKET,
    artifactsBucket: e.ARTIFACTS_BUCKET,
    allowedDocumentPrefixes: e.ALLOWED_DOCUMENT_PREFIXES.length
      ? e.ALLOWED_DOCUMENT_PREFIXES
      : [e.DOCUMENTS_BUCKET],
    allowedResultDestinations: [
      ...new Set([`${e.ARTIFACTS_BUCKET}/results/`, ...e.ALLOWED_RESULT_DESTINATIONS]),
    ],
    uploads: { prefix: e.REWOO_UPLOAD_PREFIX, maxBytes: e.REWOO_UPLOAD_MAX_BYTES },
    endpoints: { dynamodb: e.DYNAMODB_ENDPOINT, s3: e.S3_ENDPOINT },
    llm: {
      provider: e.REWOO_LLM_PROVIDER,
      plannerModel: e.REWOO_PLANNER_MODEL,
      solverModel: e.REWOO_SOLVER_MODEL,
      toolModel: e.REWOO_TOOL_MODEL ?? e.REWOO_SOLVER_MODEL,
      reviewerModel: e.REWOO_REVIEWER_MODEL ?? e.REWOO_PLANNER_MODEL,
      openaiBaseUrl: e.OPENAI_BASE_URL,
      openaiApiKey: e.OPENAI_API_KEY,
      openaiApiKeySecretArn: e.OPENAI_API_KEY_SECRET_ARN || undefined,
      scriptedResponsesFile: e.REWOO_SCRIPTED_RESPONSES,
      ...(guardrail ? { guardrail } : {}),
      ...(fallbackSet ? { fallbackModels } : {}),
      roles: {
        planner: { temperature: e.REWOO_PLANNER_TEMPERATURE, maxTokens: e.REWOO_PLANNER_MAX_TOKENS },
        solver: { temperature: e.REWOO_SOLVER_TEMPERATURE, maxTokens: e.REWOO_SOLVER_MAX_TOKENS },
        tool: { temperature: e.REWOO_TOOL_TEMPERATURE, maxTokens: e.REWOO_TOOL_MAX_TOKENS },
        reviewer: { temperature: e.REWOO_REVIEWER_TEMPERATURE, maxTokens: e.REWOO_REVIEWER_MAX_TOKENS },
      },
      plannerPrompt: e.REWOO_PLANNER_PROMPT,
      solverPrompt: e.REWOO_SOLVER_PROMPT,
    },
    ocr: {
      engine: e.REWOO_OCR_ENGINE,
      minConfidence: e.REWOO_OCR_MIN_CONFIDENCE,
      textractSignatures: e.REWOO_TEXTRACT_SIGNATURES === "true",
      textractForms: e.REWOO_TEXTRACT_FORMS === "true",
      textractEndpoint: e.TEXTRACT_ENDPOINT,
    },
    maxSteps: e.REWOO_MAX_STEPS,
    maxReplans: e.REWOO_MAX_REPLANS,
    reviewThreshold: e.REWOO_REVIEW_THRESHOLD,
    waitSeconds: e.REWOO_WAIT_SECONDS,
    approvalByDefault: e.REWOO_APPROVAL === "required",
    clarificationByDefault: e.REWOO_CLARIFICATION === "ask",
    planCache: e.REWOO_PLAN_CACHE === "on",
    workerConcurrency: e.REWOO_WORKER_CONCURRENCY,
    evidenceInlineLimit: e.REWOO_EVIDENCE_INLINE_LIMIT,
    toolLatencyMs: parseLatencies(e.REWOO_TOOL_LATENCY_MS, ENV.REWOO_TOOL_LATENCY_MS),
    toolTimeoutMs: positiveTimeouts(parseLatencies(e.REWOO_TOOL_TIMEOUT_MS, ENV.REWOO_TOOL_TIMEOUT_MS)),
    faults: { spec: e.REWOO_FAULTS, seed: e.REWOO_FAULTS_SEED, rules: parseFaults(e.REWOO_FAULTS) },
    connectionsTable: e.CONNECTIONS_TABLE,
    coreBankingTable: e.CORE_BANKING_TABLE,
    stateMachineArn: e.STATE_MACHINE_ARN,
    batch: {
      stateMachineArn: e.BATCH_STATE_MACHINE_ARN,
      maxConcurrency: e.REWOO_BATCH_MAX_CONCURRENCY,
      maxBodyBytes: e.REWOO_BATCH_MAX_BODY_BYTES,
    },
    api: {
      sfnEndpoint: e.SFN_ENDPOINT,
      websocketEndpoint: e.WEBSOCKET_ENDPOINT,
      websocketUrl: e.WEBSOCKET_URL,
      publicApiUrl: e.PUBLIC_API_URL,
      allowedOrigins: e.REWOO_ALLOWED_ORIGINS,
      tokens,
      subscribeTokenTtlSeconds: e.REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS,
      maxBodyBytes: e.REWOO_MAX_BODY_BYTES,
      chatWaitSeconds: e.REWOO_CHAT_WAIT_SECONDS,
      officersReadChats: e.REWOO_CHAT_TRANSCRIPTS === "officers",
    },
    lender: {
      preconditionsUrl: e.PRECONDITIONS_API_URL,
      conditionsAiUrl: e.CONDITIONS_AI_API_URL,
      token: e.LENDER_API_TOKEN || undefined,
      tokenSecretArn: e.LENDER_API_TOKEN_SECRET_ARN || undefined,
      timeoutMs: e.LENDER_API_TIMEOUT_MS,
    },
    prices: parsePriceTable(e.REWOO_PRICE_TABLE),
  };
}

/**
 * Each audience's key settings, refusing what would make two audiences' tokens interchangeable (one key
 * or one secret for two of them) and a subscribe token longer than a run token may live.
 */
function tokenKeySettings(e: z.infer<ReturnType<typeof envSchema>>): Record<TokenAudience, TokenKeySettings> {
  const settings = Object.fromEntries(
    TOKEN_AUDIENCES.map((audience) => {
      const names = TOKEN_KEY_VARIABLES[audience];
      const value: TokenKeySettings = {
        secret: e[names.secret],
        previousSecret: e[names.previous],
        secretArn: e[names.secretArn],
        maxLifetimeSeconds: e[names.maxLifetime],
      };
      return [audience, value];
    }),
  ) as Record<TokenAudience, TokenKeySettings>;
  const problems: string[] = [];
  TOKEN_AUDIENCES.forEach((audience, index) => {
    for (const other of TOKEN_AUDIENCES.slice(index + 1)) {
      const [mine, theirs] = [TOKEN_KEY_VARIABLES[audience], TOKEN_KEY_VARIABLES[other]];
      if (settings[audience].secret && settings[audience].secret === settings[other].secret) {
        problems.push(
          `${mine.secret} and ${theirs.secret} must differ: one key would sign both audiences' tokens`,
        );
      }
      if (settings[audience].secretArn && settings[audience].secretArn === settings[other].secretArn) {
        problems.push(`${mine.secretArn} and ${theirs.secretArn} must name different secrets`);
      }
    }
  });
  if (e.REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS > settings.run.maxLifetimeSeconds) {
    problems.push(
      `${ENV.REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS} (${e.REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS}) must be at most ${TOKEN_KEY_VARIABLES.run.maxLifetime} (${settings.run.maxLifetimeSeconds}): a longer run token is refused`,
    );
  }
  if (problems.length) throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  return settings;
}

/** The default prices with REWOO_PRICE_TABLE's overrides; a bad table names the field that is wrong. */
export function parsePriceTable(json: string | undefined): PriceTable {
  if (!json?.trim()) return withPriceOverrides();
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new Error(
      `Invalid configuration: ${ENV.REWOO_PRICE_TABLE} is not JSON (${(error as Error).message})`,
    );
  }
  const parsed = priceTableOverrideSchema().safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${[ENV.REWOO_PRICE_TABLE, ...issue.path.map(String)].join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  return withPriceOverrides(parsed.data);
}

/** Per-tool timeouts: each a whole, positive number of milliseconds. */
function positiveTimeouts(timeouts: Record<string, number>): Record<string, number> {
  for (const [tool, ms] of Object.entries(timeouts)) {
    if (!Number.isInteger(ms) || ms <= 0) {
      throw new Error(
        `Invalid configuration: ${ENV.REWOO_TOOL_TIMEOUT_MS} entry "${tool}=${ms}": expected a whole number of milliseconds above 0`,
      );
    }
  }
  return timeouts;
}

function parseLatencies(spec: string | undefined, variable: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (spec ?? "").split(",").filter(Boolean)) {
    const [tool, ms] = part.split("=");
    const value = Number(ms);
    if (!tool || !Number.isFinite(value) || value < 0) {
      throw new Error(`Invalid configuration: ${variable} entry "${part}" is not "tool=milliseconds"`);
    }
    out[tool.trim()] = value;
  }
  return out;
}
