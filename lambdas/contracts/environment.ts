// The environment variables the functions read, as data: the one place each name is spelled. The
// runtime (lambdas/runtime/config.ts) parses the environment by these names, and whoever configures a
// function sets them by these names: the CDK stacks and constructs in AWS, the local twin offline.
// Data only: the CDK app imports this module, so it must never pull in handler code or SDK clients.

/** The names of one token audience's variables (written out: REWOO_RUN_TOKEN_SECRET…). */
type TokenVariables<Audience extends string> = {
  readonly secret: `REWOO_${Uppercase<Audience>}_TOKEN_SECRET`;
  readonly previous: `REWOO_${Uppercase<Audience>}_TOKEN_SECRET_PREVIOUS`;
  readonly secretArn: `REWOO_${Uppercase<Audience>}_TOKEN_SECRET_ARN`;
  readonly maxLifetime: `REWOO_${Uppercase<Audience>}_TOKEN_MAX_LIFETIME_SECONDS`;
};

// Generated rather than spelled out: every function's bundle carries this module.
function tokenVariables<Audience extends string>(audience: Audience): TokenVariables<Audience> {
  const prefix = `REWOO_${audience.toUpperCase()}_TOKEN`;
  return {
    secret: `${prefix}_SECRET`,
    previous: `${prefix}_SECRET_PREVIOUS`,
    secretArn: `${prefix}_SECRET_ARN`,
    maxLifetime: `${prefix}_MAX_LIFETIME_SECONDS`,
  } as TokenVariables<Audience>;
}

function tokenVariableSet<Audience extends string>(audience: Audience) {
  return Object.fromEntries(Object.values(tokenVariables(audience)).map((name) => [name, true])) as {
    readonly [Name in TokenVariables<Audience>[keyof TokenVariables<Audience>]]: true;
  };
}

/**
 * What lambdas/runtime/config.ts parses (and validates) at every cold start, each with what it means.
 * The meanings are comments, not strings: every function's bundle carries this module, and only the
 * names are read at run time.
 */
export const RUNTIME_VARIABLES = {
  /** The region the SDK clients call (set by Lambda; the twin sets its own) */
  AWS_REGION: true,
  /** The DynamoDB runs table: runs, steps, events, sessions, batches, idempotency records */
  RUNS_TABLE: true,
  /** The bucket loan documents are read from */
  DOCUMENTS_BUCKET: true,
  /** The bucket of large evidence (runs/), results (results/) and batch manifests (batches/) */
  ARTIFACTS_BUCKET: true,
  /** Comma-separated `bucket` or `bucket/prefix` locations a request may name documents in */
  ALLOWED_DOCUMENT_PREFIXES: true,
  /** Comma-separated `bucket/prefix` locations an output_destination may point to, besides <artifacts>/results/ */
  ALLOWED_RESULT_DESTINATIONS: true,
  /** Key prefix in the documents bucket under which POST /v1/documents issues uploads (default uploads/) */
  REWOO_UPLOAD_PREFIX: true,
  /** Largest PDF POST /v1/documents accepts, in bytes (default 50 MiB) */
  REWOO_UPLOAD_MAX_BYTES: true,
  /** DynamoDB endpoint override (the twin's dynalite) */
  DYNAMODB_ENDPOINT: true,
  /** S3 endpoint override (the twin's S3 emulator) */
  S3_ENDPOINT: true,
  /** rule-based | bedrock | openai | scripted: who plans, solves and reviews */
  REWOO_LLM_PROVIDER: true,
  /** textract | tesseract | none: what reads PDF pages without a text layer */
  REWOO_OCR_ENGINE: true,
  /** The least OCR confidence (0–100) a verdict may rest on */
  REWOO_OCR_MIN_CONFIDENCE: true,
  /** true | false: Textract analyses scans for signatures too (SIGNATURES), not text only */
  REWOO_TEXTRACT_SIGNATURES: true,
  /** true | false: Textract's analysis adds FORMS and TABLES (key–value pairs, tables) */
  REWOO_TEXTRACT_FORMS: true,
  /** Textract endpoint override (a VPC endpoint or the twin's emulator) */
  TEXTRACT_ENDPOINT: true,
  /** The planner's model id */
  REWOO_PLANNER_MODEL: true,
  /** The solver's model id */
  REWOO_SOLVER_MODEL: true,
  /** The model of LLM-backed tools (default: the solver's) */
  REWOO_TOOL_MODEL: true,
  /** The model reviewer's model id (default: the planner's) */
  REWOO_REVIEWER_MODEL: true,
  /** Comma-separated Bedrock models tried in order when the planner's is throttled or unavailable */
  REWOO_PLANNER_FALLBACK_MODELS: true,
  /** The same for the solver's model */
  REWOO_SOLVER_FALLBACK_MODELS: true,
  /** The same for the `llm` tool's model (default: the solver's, when the tool uses the solver's model) */
  REWOO_TOOL_FALLBACK_MODELS: true,
  /** The same for the model reviewer's model (default: the planner's, when it uses the planner's model) */
  REWOO_REVIEWER_FALLBACK_MODELS: true,
  /** Base URL of an OpenAI-compatible API (provider openai) */
  OPENAI_BASE_URL: true,
  /** Key of that API (provider openai; local only, in AWS: the secret below) */
  OPENAI_API_KEY: true,
  /** The Secrets Manager secret (ARN or name) holding OPENAI_API_KEY */
  OPENAI_API_KEY_SECRET_ARN: true,
  /** The planner's sampling temperature, 0–2 (default 0.1) */
  REWOO_PLANNER_TEMPERATURE: true,
  /** The solver's sampling temperature, 0–2 (default 0.3) */
  REWOO_SOLVER_TEMPERATURE: true,
  /** The `llm` tool's and Conditions AI field lookups' temperature, 0–2 (default 0.3 and 0) */
  REWOO_TOOL_TEMPERATURE: true,
  /** The model reviewer's sampling temperature, 0–2 (default 0) */
  REWOO_REVIEWER_TEMPERATURE: true,
  /** The most tokens the planner may write (default: 4096 on Bedrock, the server's own on OpenAI) */
  REWOO_PLANNER_MAX_TOKENS: true,
  /** The most tokens the solver may write (defaults as the planner's) */
  REWOO_SOLVER_MAX_TOKENS: true,
  /** The most tokens the `llm` tool and field lookups may write (defaults as the planner's) */
  REWOO_TOOL_MAX_TOKENS: true,
  /** The most tokens the model reviewer may write (defaults as the planner's) */
  REWOO_REVIEWER_MAX_TOKENS: true,
  /** A Bedrock guardrail's id (or ARN) applied to every Bedrock call (with REWOO_BEDROCK_GUARDRAIL_VERSION) */
  REWOO_BEDROCK_GUARDRAIL_ID: true,
  /** That guardrail's version: a published version number, or DRAFT */
  REWOO_BEDROCK_GUARDRAIL_VERSION: true,
  /** File of canned model answers (provider scripted: tests and benchmarks) */
  REWOO_SCRIPTED_RESPONSES: true,
  /** File replacing the planner's prompt */
  REWOO_PLANNER_PROMPT: true,
  /** File replacing the solver's prompt */
  REWOO_SOLVER_PROMPT: true,
  /** The most steps a plan may have */
  REWOO_MAX_STEPS: true,
  /** Times the planner may plan again after a required step failed (0: never) */
  REWOO_MAX_REPLANS: true,
  /** Reviews scoring below this (1–10) send a plan back, then end the run NEEDS_REVIEW */
  REWOO_REVIEW_THRESHOLD: true,
  /** How long a run waits for a person (an answer, an approval), at most MAX_WAIT_SECONDS */
  REWOO_WAIT_SECONDS: true,
  /** required | none: whether every plan waits for an operator's approval by default */
  REWOO_APPROVAL: true,
  /** ask | never: whether a request missing an input pauses to ask for it by default */
  REWOO_CLARIFICATION: true,
  /** on | off (default): whether runs reuse a validated plan of an earlier request of the same shape */
  REWOO_PLAN_CACHE: true,
  /** Steps of one plan level run at once (the RunSteps Map's concurrency) */
  REWOO_WORKER_CONCURRENCY: true,
  /** Evidence above this many bytes of JSON goes to S3 instead of the item */
  REWOO_EVIDENCE_INLINE_LIMIT: true,
  /** "tool=ms,…": per-tool timeouts overriding the catalog's */
  REWOO_TOOL_TIMEOUT_MS: true,
  /** Extra latency per tool (`tool=ms,…`), for benchmarks emulating remote services */
  REWOO_TOOL_LATENCY_MS: true,
  /** Injected faults (`tool=probability:kind,…`) for chaos tests and benchmarks */
  REWOO_FAULTS: true,
  /** Seed that makes the injected faults' draws reproducible */
  REWOO_FAULTS_SEED: true,
  /** The lender's preconditions service (unset: the built-in reference engine) */
  PRECONDITIONS_API_URL: true,
  /** The lender's conditions-AI service (unset: the built-in reference engine) */
  CONDITIONS_AI_API_URL: true,
  /** Bearer token for both lender services (local only; in AWS: the secret below) */
  LENDER_API_TOKEN: true,
  /** The Secrets Manager secret holding LENDER_API_TOKEN */
  LENDER_API_TOKEN_SECRET_ARN: true,
  /** Per-attempt timeout of a lender service call */
  LENDER_API_TIMEOUT_MS: true,
  /** The DynamoDB connections table: WebSocket connection → the run it watches */
  CONNECTIONS_TABLE: true,
  /** The banking assistant's core-banking table (only the worker's tools use it) */
  CORE_BANKING_TABLE: true,
  /** The evaluation workflow the REST API starts */
  STATE_MACHINE_ARN: true,
  /** The batch workflow the REST API starts for POST /v1/batches */
  BATCH_STATE_MACHINE_ARN: true,
  /** Largest max_concurrency a batch may ask for */
  REWOO_BATCH_MAX_CONCURRENCY: true,
  /** Largest POST /v1/batches body */
  REWOO_BATCH_MAX_BODY_BYTES: true,
  /** Step Functions endpoint override (the twin's emulation) */
  SFN_ENDPOINT: true,
  /** API Gateway management endpoint for PostToConnection (https://…/{stage}) */
  WEBSOCKET_ENDPOINT: true,
  /** What dashboards connect to (wss://…/{stage}), returned with a new run */
  WEBSOCKET_URL: true,
  /** Base URL of the REST API as clients see it (status_url, events_url) */
  PUBLIC_API_URL: true,
  /** Comma-separated web origins (one * for a label or a port) whose pages may call the REST API (CORS) */
  REWOO_ALLOWED_ORIGINS: true,
  /**
   * Per token audience (customer, run, operator; lambdas/auth/secret.ts), generated below:
   * REWOO_<AUDIENCE>_TOKEN_SECRET, the HMAC key (local only; in AWS: the secret of …_SECRET_ARN);
   * REWOO_<AUDIENCE>_TOKEN_SECRET_PREVIOUS, the key before a rotation, still verifying (local only; in
   * AWS: the secret's AWSPREVIOUS version); REWOO_<AUDIENCE>_TOKEN_SECRET_ARN, the Secrets Manager
   * secret holding the key; REWOO_<AUDIENCE>_TOKEN_MAX_LIFETIME_SECONDS, the longest exp − iat of a
   * token of the audience that verifiers accept.
   */
  ...tokenVariableSet("customer"),
  ...tokenVariableSet("run"),
  ...tokenVariableSet("operator"),
  /** How long a run (subscribe) token returned with a new run stays valid */
  REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS: true,
  /** Largest accepted REST request body */
  REWOO_MAX_BODY_BYTES: true,
  /** How long POST /v1/chat waits for its run before answering that it is working */
  REWOO_CHAT_WAIT_SECONDS: true,
  /** customer_only (default) | officers: who may read a banking chat's transcript besides its customer */
  REWOO_CHAT_TRANSCRIPTS: true,
  /** JSON overriding the prices a run's estimated cost uses (docs/cost.md) */
  REWOO_PRICE_TABLE: true,
} as const;

/** Read by the platform and its libraries rather than config.ts; set on every function by its construct. */
export const PLATFORM_VARIABLES = {
  /** How a function's log lines, traces and metrics are labelled (Powertools) */
  POWERTOOLS_SERVICE_NAME: true,
  /** The least level Powertools' logger writes */
  POWERTOOLS_LOG_LEVEL: true,
  /** Node.js flags of the function (source maps for stack traces) */
  NODE_OPTIONS: true,
} as const;

export type RuntimeVariable = keyof typeof RUNTIME_VARIABLES;
export type PlatformVariable = keyof typeof PLATFORM_VARIABLES;
export type EnvironmentVariable = RuntimeVariable | PlatformVariable;

const nameOf = <Name extends string>(names: readonly Name[]) =>
  Object.fromEntries(names.map((name) => [name, name])) as { readonly [N in Name]: N };

/** Every variable name by itself: `ENV.RUNS_TABLE === "RUNS_TABLE"`, spelled nowhere else. */
export const ENV = nameOf([
  ...(Object.keys(RUNTIME_VARIABLES) as RuntimeVariable[]),
  ...(Object.keys(PLATFORM_VARIABLES) as PlatformVariable[]),
]);

/** The variables of each token audience's key and lifetime (lambdas/auth/tokens.ts TOKEN_AUDIENCES). */
export const TOKEN_KEY_VARIABLES = {
  customer: tokenVariables("customer"),
  run: tokenVariables("run"),
  operator: tokenVariables("operator"),
} satisfies Record<string, Record<string, RuntimeVariable>>;

/** The token audiences by name (lambdas/auth/tokens.ts TokenAudience), for the CDK app, which may not import lambdas/auth. */
export type TokenAudienceName = keyof typeof TOKEN_KEY_VARIABLES;

/**
 * Names no longer read, with the field of TOKEN_KEY_VARIABLES that replaced them: a function (or the
 * twin) still given one refuses to start rather than ignore it, so a deployment is not left signing
 * with a key nobody configured.
 */
export const RETIRED_VARIABLES = {
  REWOO_TOKEN_SECRET: "secret",
  REWOO_TOKEN_SECRET_ARN: "secretArn",
} as const;

/**
 * The longest a run waits for a person (REWOO_WAIT_SECONDS): 3 days, so that a question, an approval
 * and the work fit in the state machine's 7-day execution timeout. The runtime rejects more, and so
 * does the deployment's configuration (infra/config.ts) before anything is deployed.
 */
export const MAX_WAIT_SECONDS = 3 * 24 * 3600;
