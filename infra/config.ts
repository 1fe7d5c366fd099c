// One typed configuration per environment. `-c env=<name>` picks one; a few context keys override
// single values at deploy time (README "Deploy") so an operator can point an environment at an
// existing bucket or at the lender's services without editing code.
import { RemovalPolicy } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { ENV, MAX_WAIT_SECONDS } from "../lambdas/contracts/environment.ts";
import {
  DEFAULT_LLM_PROVIDER,
  DEPLOYABLE_LLM_PROVIDERS,
  type DeployableLlmProviderName,
  WORKFLOW_DEFAULTS,
} from "../lambdas/contracts/workflow-defaults.ts";

export const ENVIRONMENT_NAMES = ["dev", "staging", "prod"] as const;
export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

/** The providers a deployment may configure (lambdas/contracts/workflow-defaults.ts). */
export type LlmProviderName = DeployableLlmProviderName;

/** The model-calling roles whose sampling is configurable (the functions' REWOO_<ROLE>_TEMPERATURE / _MAX_TOKENS). */
export const LLM_ROLES = ["planner", "solver", "tool", "reviewer"] as const;
export type LlmRole = (typeof LLM_ROLES)[number];

/** A role's sampling; unset values keep the functions' defaults (docs/configuration in README). */
export interface LlmRoleSampling {
  /** 0–2 (Bedrock's models accept 0–1). */
  readonly temperature?: number;
  /** The most tokens the role may write; an answer cut off there fails the step instead of being used. */
  readonly maxTokens?: number;
}

/** What a deployed worker reads scanned pages with; tesseract runs offline only (see validateConfig). */
export type DeployedOcrEngine = "textract" | "none";

export interface RewooConfig {
  readonly name: EnvironmentName;
  /** Every function's, the state machine's and both APIs' log groups. */
  readonly logRetention: RetentionDays;
  /** Tables, log groups and the token secret when a stack is deleted. Buckets are always retained. */
  readonly removalPolicy: RemovalPolicy;
  /** On the data stack (tables, buckets, secret) and as DynamoDB deletion protection. */
  readonly terminationProtection: boolean;
  readonly logLevel: "DEBUG" | "INFO" | "WARN" | "ERROR";
  readonly workflow: {
    /** STANDARD: up to a year, exactly-once, cancel/describe work. EXPRESS: cheaper, at most 5 minutes. */
    readonly type: "STANDARD" | "EXPRESS";
    /** Steps of one dependency level run at most this many at a time (the RunSteps Map). */
    readonly workerConcurrency: number;
    readonly maxSteps: number;
    /** Times the planner may plan again after a required step failed (REWOO_MAX_REPLANS; 0 disables). */
    readonly maxReplans: number;
    /** Reviews scoring below this (1–10) replan once, then end the run NEEDS_REVIEW (REWOO_REVIEW_THRESHOLD). */
    readonly reviewThreshold: number;
    /** How long a run waits for an answer or an approval, in seconds (REWOO_WAIT_SECONDS; ≤ 3 days). */
    readonly waitSeconds: number;
    /** Runs wait for an operator's approval of the plan unless the request says otherwise (REWOO_APPROVAL). */
    readonly approvalRequired: boolean;
    /** Runs missing an input ask for it unless the request says otherwise (REWOO_CLARIFICATION). */
    readonly clarification: boolean;
    /** Runs reuse a validated plan of an earlier request of the same shape (REWOO_PLAN_CACHE). */
    readonly planCache: boolean;
  };
  readonly llm: {
    readonly provider: LlmProviderName;
    /** Bedrock model or inference-profile ids; required with the bedrock provider (they scope IAM). */
    readonly plannerModel?: string;
    readonly solverModel?: string;
    /** The `llm` tool's model; defaults to the solver's. */
    readonly toolModel?: string;
    /** The model reviewer's (plan and result reviews); defaults to the planner's. */
    readonly reviewerModel?: string;
    /** The openai provider's OpenAI-compatible server (OPENAI_BASE_URL), https://. */
    readonly openAiBaseUrl?: string;
    /**
     * The openai provider's key: an existing Secrets Manager secret's complete ARN (the key as a string,
     * or JSON with "api_key"). The functions that call the model may read exactly this secret.
     */
    readonly openAiApiKeySecretArn?: string;
    /** Per role; unset: planner 0.1, solver and `llm` tool 0.3, reviewer 0; Bedrock writes up to 4096 tokens. */
    readonly roles?: Partial<Record<LlmRole, LlmRoleSampling>>;
    /**
     * A Bedrock guardrail (created apart, e.g. in the console) applied to every model call of the
     * workflow (REWOO_BEDROCK_GUARDRAIL_ID / _VERSION); an intervention fails the run with
     * LlmGuardrailIntervened. Bedrock provider only.
     */
    readonly guardrail?: { readonly id: string; readonly version: string };
    /**
     * Per role, Bedrock models tried in order when the role's model is throttled, not ready,
     * unavailable or unknown (REWOO_<ROLE>_FALLBACK_MODELS); each is allowed bedrock:InvokeModel like
     * the role's own. Unset: `tool` takes the solver's and `reviewer` the planner's, as their models do.
     */
    readonly fallbackModels?: Partial<Record<LlmRole, readonly string[]>>;
  };
  /** The worker's OCR of PDF pages without a text layer (REWOO_OCR_ENGINE, REWOO_OCR_MIN_CONFIDENCE). */
  readonly ocr: {
    /** textract: Amazon Textract reads the S3 object. none: such pages stay unread (insufficient_evidence). */
    readonly engine: DeployedOcrEngine;
    /** 0–100: a verdict resting on an OCR read less sure than this is insufficient_evidence. */
    readonly minConfidence: number;
    /**
     * Textract analyses scans for signatures (AnalyzeDocument's SIGNATURES feature, the document
     * analysis API) besides reading their text, so a hand signature on a scanned return is seen.
     * Off: text detection only, and a scanned Sign Here box is insufficient_evidence.
     */
    readonly textractSignatures: boolean;
    /**
     * Textract's document analysis adds FORMS and TABLES: the document model gets Textract's
     * key–value pairs and tables. Costs more per page than SIGNATURES alone (docs/cost.md).
     */
    readonly textractForms?: boolean;
  };
  readonly documents: {
    /** Import this bucket instead of creating one (it keeps its own policies and logging). */
    readonly existingBucketName?: string;
    /** Key prefixes inside the documents bucket the worker may read; empty: the whole bucket. */
    readonly allowedPrefixes: readonly string[];
    /** More readable locations elsewhere, as `bucket` or `bucket/prefix`. */
    readonly additionalLocations: readonly string[];
  };
  readonly results: {
    /** Where `output_destination` may point besides `s3://<artifacts>/results/`: `bucket/prefix`. */
    readonly additionalDestinations: readonly string[];
  };
  /** Large evidence (runs/<id>/evidence/*) is deleted this many days after it was written. */
  readonly evidenceRetentionDays: number;
  readonly lender: {
    /** Unset: the built-in reference engines answer instead of the lender's services. */
    readonly preconditionsApiUrl?: string;
    readonly conditionsAiApiUrl?: string;
    /** Existing Secrets Manager secret holding the bearer token the lender issued. */
    readonly apiTokenSecretArn?: string;
  };
  readonly api: {
    /** iam: callers sign with SigV4 (loan systems are AWS principals). api-key: x-api-key + usage plan. */
    readonly authorization: "iam" | "api-key";
    readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
    /** A regional WAFv2 web ACL to associate with the REST stage. */
    readonly webAclArn?: string;
    /**
     * API Gateway execution logging needs an account-wide CloudWatch role. `false` when the
     * platform team already set one for the account and region.
     */
    readonly createAccountLogRole: boolean;
  };
  readonly dashboard: {
    /** Deploy the dashboard as a static site: a private S3 bucket behind CloudFront (OAC, HTTPS only). */
    readonly site: boolean;
    /**
     * With the site: officers sign in through a Cognito user pool's hosted UI and the page signs its
     * REST calls with the temporary credentials of an identity pool role (the API stays IAM-authorized).
     * Default (unset): true.
     */
    readonly signIn?: boolean;
    /**
     * Origins a browser may call the REST API and upload documents to the documents bucket from (CORS).
     * The site's own CloudFront domain is known only after it is deployed, so the default allows
     * CloudFront's domains (S3 CORS takes one `*` per origin); list a custom domain here.
     */
    readonly allowedOrigins: readonly string[];
  };
  readonly alarms: {
    /** Existing SNS topic for alarms; unset: an encrypted topic is created. */
    readonly topicArn?: string;
  };
  /**
   * Lambda reserved concurrency: the most instances that may run at once, and also instances that
   * no other function in the account can take. Reserving needs the account's unreserved
   * concurrency to stay at 100 or more afterwards, so a new account with a low limit must ask for
   * an increase or lower these.
   */
  readonly reservedConcurrency: {
    /**
     * Worker invocations across all runs: caps the load on the lender's services, Bedrock and the
     * documents bucket. At least workflow.workerConcurrency, or one run's widest level throttles
     * itself (the ASL retries a throttle three times, then the run fails).
     */
    readonly worker: number;
    /** REST API invocations: a request burst cannot starve the workflow functions. */
    readonly api: number;
  };
}

const base: Omit<RewooConfig, "name"> = {
  logRetention: RetentionDays.ONE_MONTH,
  removalPolicy: RemovalPolicy.DESTROY,
  terminationProtection: false,
  logLevel: "INFO",
  workflow: {
    type: "STANDARD",
    workerConcurrency: WORKFLOW_DEFAULTS.workerConcurrency,
    maxSteps: WORKFLOW_DEFAULTS.maxSteps,
    maxReplans: WORKFLOW_DEFAULTS.maxReplans,
    reviewThreshold: WORKFLOW_DEFAULTS.reviewThreshold,
    waitSeconds: WORKFLOW_DEFAULTS.waitSeconds,
    approvalRequired: false,
    clarification: true,
    planCache: true,
  },
  llm: { provider: DEFAULT_LLM_PROVIDER },
  ocr: { engine: "textract", minConfidence: 80, textractSignatures: true, textractForms: true },
  documents: { allowedPrefixes: [], additionalLocations: [] },
  results: { additionalDestinations: [] },
  evidenceRetentionDays: 30,
  lender: {},
  api: {
    authorization: "iam",
    throttle: { rateLimit: 20, burstLimit: 40 },
    createAccountLogRole: true,
  },
  dashboard: { site: true, signIn: true, allowedOrigins: ["https://*.cloudfront.net"] },
  alarms: {},
  reservedConcurrency: { worker: 50, api: 20 },
};

export const ENVIRONMENTS: Record<EnvironmentName, RewooConfig> = {
  dev: { ...base, name: "dev", logLevel: "DEBUG", logRetention: RetentionDays.ONE_WEEK },
  staging: { ...base, name: "staging" },
  prod: {
    ...base,
    name: "prod",
    logRetention: RetentionDays.ONE_YEAR,
    removalPolicy: RemovalPolicy.RETAIN,
    terminationProtection: true,
    evidenceRetentionDays: 90,
    api: { ...base.api, throttle: { rateLimit: 50, burstLimit: 100 } },
    reservedConcurrency: { worker: 200, api: 50 },
  },
};

/** Context keys (`-c key=value`) that override one value of the chosen environment. */
export const CONTEXT_OVERRIDES = [
  "documentsBucketName",
  "preconditionsApiUrl",
  "conditionsAiApiUrl",
  "lenderApiTokenSecretArn",
  "llmProvider",
  "plannerModel",
  "solverModel",
  "toolModel",
  "reviewerModel",
  "openAiBaseUrl",
  "openAiApiKeySecretArn",
  "plannerTemperature",
  "solverTemperature",
  "toolTemperature",
  "reviewerTemperature",
  "plannerMaxTokens",
  "solverMaxTokens",
  "toolMaxTokens",
  "reviewerMaxTokens",
  "guardrailId",
  "guardrailVersion",
  "plannerFallbackModels",
  "solverFallbackModels",
  "toolFallbackModels",
  "reviewerFallbackModels",
  "workerConcurrency",
  "workflowType",
  "alarmTopicArn",
  "webAclArn",
  "workerReservedConcurrency",
  "apiReservedConcurrency",
  "ocrEngine",
] as const;

type Context = (key: string) => unknown;

export function resolveConfig(context: Context): RewooConfig {
  const envName = String(context("env") ?? "dev");
  if (!ENVIRONMENT_NAMES.includes(envName as EnvironmentName)) {
    throw new Error(
      `-c env=${envName}: unknown environment; expected one of ${ENVIRONMENT_NAMES.join(", ")}`,
    );
  }
  const chosen = ENVIRONMENTS[envName as EnvironmentName];
  const text = (key: (typeof CONTEXT_OVERRIDES)[number]) => {
    const value = context(key);
    return value === undefined || value === "" ? undefined : String(value);
  };
  const provider = text("llmProvider") ?? chosen.llm.provider;
  const workflowType = text("workflowType") ?? chosen.workflow.type;
  const count = (key: (typeof CONTEXT_OVERRIDES)[number], fallback: number) => {
    const value = text(key);
    return value === undefined ? fallback : Number(value);
  };
  const config: RewooConfig = {
    ...chosen,
    workflow: {
      ...chosen.workflow,
      type: workflowType as RewooConfig["workflow"]["type"],
      workerConcurrency: count("workerConcurrency", chosen.workflow.workerConcurrency),
    },
    llm: {
      provider: provider as LlmProviderName,
      ...definedOnly({
        plannerModel: text("plannerModel") ?? chosen.llm.plannerModel,
        solverModel: text("solverModel") ?? chosen.llm.solverModel,
        toolModel: text("toolModel") ?? chosen.llm.toolModel,
        reviewerModel: text("reviewerModel") ?? chosen.llm.reviewerModel,
        openAiBaseUrl: text("openAiBaseUrl") ?? chosen.llm.openAiBaseUrl,
        openAiApiKeySecretArn: text("openAiApiKeySecretArn") ?? chosen.llm.openAiApiKeySecretArn,
        roles: roleSampling(chosen.llm.roles, text),
        guardrail: guardrailOf(chosen.llm.guardrail, text("guardrailId"), text("guardrailVersion")),
        fallbackModels: fallbackModelsOf(chosen.llm.fallbackModels, text),
      }),
    },
    ocr: {
      ...chosen.ocr,
      engine: (text("ocrEngine") ?? chosen.ocr.engine) as DeployedOcrEngine,
    },
    documents: {
      ...chosen.documents,
      ...definedOnly({
        existingBucketName: text("documentsBucketName") ?? chosen.documents.existingBucketName,
      }),
    },
    lender: definedOnly({
      preconditionsApiUrl: text("preconditionsApiUrl") ?? chosen.lender.preconditionsApiUrl,
      conditionsAiApiUrl: text("conditionsAiApiUrl") ?? chosen.lender.conditionsAiApiUrl,
      apiTokenSecretArn: text("lenderApiTokenSecretArn") ?? chosen.lender.apiTokenSecretArn,
    }),
    api: { ...chosen.api, ...definedOnly({ webAclArn: text("webAclArn") ?? chosen.api.webAclArn }) },
    alarms: definedOnly({ topicArn: text("alarmTopicArn") ?? chosen.alarms.topicArn }),
    reservedConcurrency: {
      worker: count("workerReservedConcurrency", chosen.reservedConcurrency.worker),
      api: count("apiReservedConcurrency", chosen.reservedConcurrency.api),
    },
  };
  validateConfig(config);
  return config;
}

/** Fails synth with every problem named, before any resource is built from a bad value. */
export function validateConfig(config: RewooConfig): void {
  const problems: string[] = [];
  if (!(DEPLOYABLE_LLM_PROVIDERS as readonly string[]).includes(config.llm.provider)) {
    problems.push(`llmProvider "${config.llm.provider}": expected rule-based, bedrock or openai`);
  }
  if (config.llm.provider === "openai") {
    const { openAiBaseUrl, openAiApiKeySecretArn } = config.llm;
    // The key travels with every call: never over plain http.
    if (!openAiBaseUrl || !/^https:\/\/[^/\s]+/.test(openAiBaseUrl))
      problems.push(`openAiBaseUrl "${openAiBaseUrl ?? ""}": the openai provider needs an https:// URL`);
    // A complete ARN (with its random suffix): the grant names exactly that secret.
    if (
      !openAiApiKeySecretArn ||
      !/^arn:[\w-]+:secretsmanager:[\w-]+:\d{12}:secret:.+-[A-Za-z0-9]{6}$/.test(openAiApiKeySecretArn)
    )
      problems.push(
        `openAiApiKeySecretArn "${openAiApiKeySecretArn ?? ""}": the openai provider needs the complete ARN of the Secrets Manager secret holding its key`,
      );
  }
  for (const [role, sampling] of Object.entries(config.llm.roles ?? {})) {
    const { temperature, maxTokens } = sampling ?? {};
    if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0 && temperature <= 2))
      problems.push(`${role}Temperature ${temperature}: expected a number from 0 to 2`);
    if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0))
      problems.push(`${role}MaxTokens ${maxTokens}: expected a positive integer`);
  }
  if (config.llm.guardrail) {
    const { id, version } = config.llm.guardrail;
    if (config.llm.provider !== "bedrock")
      problems.push(
        `guardrail: a Bedrock guardrail applies to the bedrock provider only, not ${config.llm.provider}`,
      );
    if (!/^([a-z0-9]+|arn:aws(-[^:]+)?:bedrock:[a-z0-9-]{1,20}:[0-9]{12}:guardrail\/[a-z0-9]+)$/.test(id))
      problems.push(`guardrailId "${id}": expected a guardrail id (lowercase letters and digits) or its ARN`);
    if (!/^([1-9][0-9]{0,7}|DRAFT)$/.test(version))
      problems.push(`guardrailVersion "${version}": expected a published version number (1, 2, …) or DRAFT`);
  }
  for (const [role, models] of Object.entries(config.llm.fallbackModels ?? {})) {
    if (config.llm.provider !== "bedrock" && models.length > 0)
      problems.push(
        `${role}FallbackModels: model fallback applies to the bedrock provider only, not ${config.llm.provider}`,
      );
    for (const model of models) {
      if (!/^[\w.:/-]+$/.test(model))
        problems.push(
          `${role}FallbackModels "${model}": expected Bedrock model or inference-profile ids, comma-separated`,
        );
    }
  }
  if (config.llm.provider === "bedrock") {
    for (const key of ["plannerModel", "solverModel"] as const) {
      if (!config.llm[key])
        problems.push(`${key} is required with the bedrock provider (it scopes bedrock:InvokeModel)`);
    }
  }
  if ((config.ocr.engine as string) === "tesseract") {
    problems.push(
      'ocrEngine "tesseract": runs offline only (the local twin); in Lambda its 10 MB of language data and minutes of CPU per scanned document would hold a worker for most of its timeout. Use textract or none',
    );
  } else if (!["textract", "none"].includes(config.ocr.engine)) {
    problems.push(`ocrEngine "${config.ocr.engine}": expected textract or none`);
  }
  if (
    !Number.isInteger(config.ocr.minConfidence) ||
    config.ocr.minConfidence < 0 ||
    config.ocr.minConfidence > 100
  ) {
    problems.push(`ocr.minConfidence ${config.ocr.minConfidence}: expected an integer from 0 to 100`);
  }
  if (!["STANDARD", "EXPRESS"].includes(config.workflow.type)) {
    problems.push(`workflowType "${config.workflow.type}": expected STANDARD or EXPRESS`);
  }
  if (config.workflow.type === "EXPRESS") {
    // The definition waits for people with task tokens (.waitForTaskToken), which Express workflows reject.
    problems.push(
      'workflowType "EXPRESS": runs wait for answers and approvals with task tokens, which only STANDARD workflows support',
    );
  }
  if (
    !Number.isInteger(config.workflow.waitSeconds) ||
    config.workflow.waitSeconds < 1 ||
    config.workflow.waitSeconds > MAX_WAIT_SECONDS
  ) {
    problems.push(
      `waitSeconds ${config.workflow.waitSeconds}: expected an integer from 1 to ${MAX_WAIT_SECONDS} (3 days)`,
    );
  }
  if (!Number.isInteger(config.workflow.workerConcurrency) || config.workflow.workerConcurrency < 1) {
    problems.push(`workerConcurrency ${config.workflow.workerConcurrency}: expected a positive integer`);
  }
  for (const [name, value] of Object.entries(config.reservedConcurrency)) {
    if (!Number.isInteger(value) || value < 1) {
      problems.push(`reservedConcurrency.${name} ${value}: expected a positive integer`);
    }
  }
  if (
    Number.isInteger(config.reservedConcurrency.worker) &&
    config.reservedConcurrency.worker < config.workflow.workerConcurrency
  ) {
    problems.push(
      `reservedConcurrency.worker ${config.reservedConcurrency.worker}: expected at least workerConcurrency ` +
        `(${config.workflow.workerConcurrency}), or one run's widest level throttles itself`,
    );
  }
  for (const key of ["preconditionsApiUrl", "conditionsAiApiUrl"] as const) {
    const url = config.lender[key];
    // The functions refuse plain http at cold start (the bearer token travels with every call).
    if (url !== undefined && !/^https:\/\/[^/\s]+/.test(url))
      problems.push(`${key} "${url}": expected an https:// URL`);
  }
  for (const location of [
    ...config.documents.additionalLocations,
    ...config.results.additionalDestinations,
  ]) {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(location)) {
      problems.push(`"${location}": expected bucket or bucket/prefix (no s3:// scheme)`);
    }
  }
  for (const prefix of config.documents.allowedPrefixes) {
    if (prefix.startsWith("/") || prefix.includes("*")) {
      problems.push(`documents prefix "${prefix}": expected a plain key prefix such as rm-conditions/`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration for environment ${config.name}: ${problems.join("; ")}`);
  }
}

function definedOnly<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The environment's per-role sampling with the context keys (`-c plannerTemperature=0`) over it; a
 * value that is not a number stays NaN so validateConfig names it.
 */
function roleSampling(
  chosen: RewooConfig["llm"]["roles"],
  text: (key: (typeof CONTEXT_OVERRIDES)[number]) => string | undefined,
): RewooConfig["llm"]["roles"] {
  const roles: Partial<Record<LlmRole, LlmRoleSampling>> = {};
  for (const role of LLM_ROLES) {
    const temperature = text(`${role}Temperature`);
    const maxTokens = text(`${role}MaxTokens`);
    const sampling = definedOnly({
      temperature: temperature === undefined ? chosen?.[role]?.temperature : Number(temperature),
      maxTokens: maxTokens === undefined ? chosen?.[role]?.maxTokens : Number(maxTokens),
    });
    if (Object.keys(sampling).length > 0) roles[role] = sampling;
  }
  return Object.keys(roles).length > 0 ? roles : undefined;
}

/**
 * The environment's guardrail with `-c guardrailId=… -c guardrailVersion=…` over it. One of the two
 * alone is a problem validateConfig names (an empty id or version), not a silent half setting.
 */
function guardrailOf(
  chosen: RewooConfig["llm"]["guardrail"],
  id: string | undefined,
  version: string | undefined,
): RewooConfig["llm"]["guardrail"] {
  const merged = { id: id ?? chosen?.id ?? "", version: version ?? chosen?.version ?? "" };
  return merged.id === "" && merged.version === "" ? undefined : merged;
}

/** The environment's fallback models per role, each replaced by its `-c <role>FallbackModels=a,b` list. */
function fallbackModelsOf(
  chosen: RewooConfig["llm"]["fallbackModels"],
  text: (key: (typeof CONTEXT_OVERRIDES)[number]) => string | undefined,
): RewooConfig["llm"]["fallbackModels"] {
  const roles: Partial<Record<LlmRole, readonly string[]>> = {};
  for (const role of LLM_ROLES) {
    const listed = text(`${role}FallbackModels`);
    const models =
      listed === undefined
        ? chosen?.[role]
        : listed
            .split(",")
            .map((model) => model.trim())
            .filter(Boolean);
    if (models?.length) roles[role] = models;
  }
  return Object.keys(roles).length > 0 ? roles : undefined;
}

/**
 * Each role's fallback models as the functions resolve them (lambdas/runtime/config.ts): the tool's
 * default to the solver's and the reviewer's to the planner's, unless that role has a model of its own.
 */
export function effectiveFallbackModels(llm: RewooConfig["llm"]): Record<LlmRole, readonly string[]> {
  const set = llm.fallbackModels ?? {};
  const planner = set.planner ?? [];
  const solver = set.solver ?? [];
  return {
    planner,
    solver,
    tool: set.tool ?? (llm.toolModel ? [] : solver),
    reviewer: set.reviewer ?? (llm.reviewerModel ? [] : planner),
  };
}

/** REWOO_<ROLE>_TEMPERATURE / _MAX_TOKENS for the functions that call the model; unset roles set nothing. */
export function llmRoleEnvironment(llm: RewooConfig["llm"]): Record<string, string> {
  const names = {
    planner: [ENV.REWOO_PLANNER_TEMPERATURE, ENV.REWOO_PLANNER_MAX_TOKENS],
    solver: [ENV.REWOO_SOLVER_TEMPERATURE, ENV.REWOO_SOLVER_MAX_TOKENS],
    tool: [ENV.REWOO_TOOL_TEMPERATURE, ENV.REWOO_TOOL_MAX_TOKENS],
    reviewer: [ENV.REWOO_REVIEWER_TEMPERATURE, ENV.REWOO_REVIEWER_MAX_TOKENS],
  } as const satisfies Record<LlmRole, readonly [string, string]>;
  const env: Record<string, string> = {};
  for (const role of LLM_ROLES) {
    const { temperature, maxTokens } = llm.roles?.[role] ?? {};
    const [temperatureName, maxTokensName] = names[role];
    if (temperature !== undefined) env[temperatureName] = String(temperature);
    if (maxTokens !== undefined) env[maxTokensName] = String(maxTokens);
  }
  return env;
}
