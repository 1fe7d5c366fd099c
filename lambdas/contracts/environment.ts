// The environment variables the functions read, as data: the one place each name is spelled. The
// runtime (lambdas/runtime/config.ts) parses the environment by these names, and whoever configures a
// function sets them by these names: the CDK stacks and constructs in AWS, the local twin offline.
// Data only: the CDK app imports this module, so it must never pull in handler code or SDK clients.

/** What lambdas/runtime/config.ts parses (and validates) at every cold start, with what each means. */
export const RUNTIME_VARIABLES = {
  AWS_REGION: "The region the SDK clients call (set by Lambda; the twin sets its own)",
  RUNS_TABLE: "The DynamoDB runs table: runs, steps, events, sessions, batches, idempotency records",
  DOCUMENTS_BUCKET: "The bucket loan documents are read from",
  ARTIFACTS_BUCKET: "The bucket of large evidence (runs/), results (results/) and batch manifests (batches/)",
  ALLOWED_DOCUMENT_PREFIXES:
    "Comma-separated `bucket` or `bucket/prefix` locations a request may name documents in",
  ALLOWED_RESULT_DESTINATIONS:
    "Comma-separated `bucket/prefix` locations an output_destination may point to, besides <artifacts>/results/",
  REWOO_UPLOAD_PREFIX:
    "Key prefix in the documents bucket under which POST /v1/documents issues uploads (default uploads/)",
  REWOO_UPLOAD_MAX_BYTES: "Largest PDF POST /v1/documents accepts, in bytes (default 50 MiB)",
  DYNAMODB_ENDPOINT: "DynamoDB endpoint override (the twin's dynalite)",
  S3_ENDPOINT: "S3 endpoint override (the twin's S3 emulator)",
  REWOO_LLM_PROVIDER: "rule-based | bedrock | openai | scripted: who plans, solves and reviews",
  REWOO_OCR_ENGINE: "textract | tesseract | none: what reads PDF pages without a text layer",
  REWOO_OCR_MIN_CONFIDENCE: "The least OCR confidence (0–100) a verdict may rest on",
  TEXTRACT_ENDPOINT: "Textract endpoint override (a VPC endpoint or the twin's emulator)",
  REWOO_PLANNER_MODEL: "The planner's model id",
  REWOO_SOLVER_MODEL: "The solver's model id",
  REWOO_TOOL_MODEL: "The model of LLM-backed tools (default: the solver's)",
  REWOO_REVIEWER_MODEL: "The model reviewer's model id (default: the planner's)",
  OPENAI_BASE_URL: "Base URL of an OpenAI-compatible API (provider openai)",
  OPENAI_API_KEY: "Key of that API (provider openai; local only, in AWS: the secret below)",
  OPENAI_API_KEY_SECRET_ARN: "The Secrets Manager secret (ARN or name) holding OPENAI_API_KEY",
  REWOO_PLANNER_TEMPERATURE: "The planner's sampling temperature, 0–2 (default 0.1)",
  REWOO_SOLVER_TEMPERATURE: "The solver's sampling temperature, 0–2 (default 0.3)",
  REWOO_TOOL_TEMPERATURE:
    "The `llm` tool's and Conditions AI field lookups' temperature, 0–2 (default 0.3 and 0)",
  REWOO_REVIEWER_TEMPERATURE: "The model reviewer's sampling temperature, 0–2 (default 0)",
  REWOO_PLANNER_MAX_TOKENS:
    "The most tokens the planner may write (default: 4096 on Bedrock, the server's own on OpenAI)",
  REWOO_SOLVER_MAX_TOKENS: "The most tokens the solver may write (defaults as the planner's)",
  REWOO_TOOL_MAX_TOKENS:
    "The most tokens the `llm` tool and field lookups may write (defaults as the planner's)",
  REWOO_REVIEWER_MAX_TOKENS: "The most tokens the model reviewer may write (defaults as the planner's)",
  REWOO_SCRIPTED_RESPONSES: "File of canned model answers (provider scripted: tests and benchmarks)",
  REWOO_PLANNER_PROMPT: "File replacing the planner's prompt",
  REWOO_SOLVER_PROMPT: "File replacing the solver's prompt",
  REWOO_MAX_STEPS: "The most steps a plan may have",
  REWOO_MAX_REPLANS: "Times the planner may plan again after a required step failed (0: never)",
  REWOO_REVIEW_THRESHOLD: "Reviews scoring below this (1–10) send a plan back, then end the run NEEDS_REVIEW",
  REWOO_WAIT_SECONDS: "How long a run waits for a person (an answer, an approval), at most MAX_WAIT_SECONDS",
  REWOO_APPROVAL: "required | none: whether every plan waits for an operator's approval by default",
  REWOO_CLARIFICATION: "ask | never: whether a request missing an input pauses to ask for it by default",
  REWOO_WORKER_CONCURRENCY: "Steps of one plan level run at once (the RunSteps Map's concurrency)",
  REWOO_EVIDENCE_INLINE_LIMIT: "Evidence above this many bytes of JSON goes to S3 instead of the item",
  REWOO_TOOL_LATENCY_MS: "Extra latency per tool (`tool=ms,…`), for benchmarks emulating remote services",
  REWOO_FAULTS: "Injected faults (`tool=probability:kind,…`) for chaos tests and benchmarks",
  REWOO_FAULTS_SEED: "Seed that makes the injected faults' draws reproducible",
  PRECONDITIONS_API_URL: "The lender's preconditions service (unset: the built-in reference engine)",
  CONDITIONS_AI_API_URL: "The lender's conditions-AI service (unset: the built-in reference engine)",
  LENDER_API_TOKEN: "Bearer token for both lender services (local only; in AWS: the secret below)",
  LENDER_API_TOKEN_SECRET_ARN: "The Secrets Manager secret holding LENDER_API_TOKEN",
  LENDER_API_TIMEOUT_MS: "Per-attempt timeout of a lender service call",
  CONNECTIONS_TABLE: "The DynamoDB connections table: WebSocket connection → the run it watches",
  CORE_BANKING_TABLE: "The banking assistant's core-banking table (only the worker's tools use it)",
  STATE_MACHINE_ARN: "The evaluation workflow the REST API starts",
  BATCH_STATE_MACHINE_ARN: "The batch workflow the REST API starts for POST /v1/batches",
  REWOO_BATCH_MAX_CONCURRENCY: "Largest max_concurrency a batch may ask for",
  REWOO_BATCH_MAX_BODY_BYTES: "Largest POST /v1/batches body",
  SFN_ENDPOINT: "Step Functions endpoint override (the twin's emulation)",
  WEBSOCKET_ENDPOINT: "API Gateway management endpoint for PostToConnection (https://…/{stage})",
  WEBSOCKET_URL: "What dashboards connect to (wss://…/{stage}), returned with a new run",
  PUBLIC_API_URL: "Base URL of the REST API as clients see it (status_url, events_url)",
  REWOO_ALLOWED_ORIGINS:
    "Comma-separated web origins (one * for a label or a port) whose pages may call the REST API (CORS)",
  REWOO_TOKEN_SECRET: "HMAC key for subscribe/operator tokens (local only; in AWS: the secret below)",
  REWOO_TOKEN_SECRET_ARN: "The Secrets Manager secret holding the token HMAC key",
  REWOO_SUBSCRIBE_TOKEN_TTL_SECONDS: "How long a subscribe token returned with a new run stays valid",
  REWOO_MAX_BODY_BYTES: "Largest accepted REST request body",
  REWOO_CHAT_WAIT_SECONDS: "How long POST /v1/chat waits for its run before answering that it is working",
  REWOO_PRICE_TABLE: "JSON overriding the prices a run's estimated cost uses (docs/cost.md)",
} as const;

/** Read by the platform and its libraries rather than config.ts; set on every function by its construct. */
export const PLATFORM_VARIABLES = {
  POWERTOOLS_SERVICE_NAME: "How a function's log lines, traces and metrics are labelled (Powertools)",
  POWERTOOLS_LOG_LEVEL: "The least level Powertools' logger writes",
  NODE_OPTIONS: "Node.js flags of the function (source maps for stack traces)",
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

/**
 * The longest a run waits for a person (REWOO_WAIT_SECONDS): 3 days, so that a question, an approval
 * and the work fit in the state machine's 7-day execution timeout. The runtime rejects more, and so
 * does the deployment's configuration (infra/config.ts) before anything is deployed.
 */
export const MAX_WAIT_SECONDS = 3 * 24 * 3600;
