// The contracts of docs/api.openapi.yaml, shared by every function. Pure types: no I/O here.
import type { z } from "zod";
import type { RunResult } from "../contracts/run-result.ts";
import type { RunStatus, TerminalStatus } from "../contracts/run-status.ts";
import type { RunCost } from "./cost.ts";

export type { RunCost } from "./cost.ts";

/** A step as the planner wrote it, before validation (ids and tools as given). */
export interface RawStep {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** Explicit dependencies the planner declared (JSON plans only). */
  depends_on?: string[];
  /** The `Plan:` sentence (text plans) or `description` field (JSON plans). */
  description?: string;
}

/** A validated step: `depends_on` = explicit ids ∪ ids referenced in args, sorted by step number. */
export interface PlanStep {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  depends_on: string[];
  description?: string;
}

/** What validation changed so the plan could run (loomflow truncation, required-step insertion). */
export interface PlanRepair {
  kind: "truncated" | "inserted_required_step";
  message: string;
  step_ids: string[];
}

export interface Plan {
  steps: PlanStep[];
  /** Topological levels of the dependency DAG: every step of level k depends only on levels < k. */
  levels: string[][];
  repairs: PlanRepair[];
  /** How the instructions were read when the plan was made (the solver answers within it). */
  scope?: InstructionReading;
}

/**
 * How the run's agent read its instructions when it planned: one sentence for people, and whatever
 * else the agent's planner, reviewers and solver read (the agent defines it; the engine stores it
 * with the plan and passes it on unread).
 */
export interface InstructionReading {
  interpretation: string;
}

/** What a tool needs to be validated and described; the implementation lives in lambdas/tools. */
export interface ToolSpec {
  name: string;
  description: string;
  args: z.ZodType<Record<string, unknown>>;
}

export type ToolCatalog = ReadonlyMap<string, ToolSpec>;

/**
 * The steps a plan must contain whatever its planner wrote, in order (an agent's rules:
 * AgentProfileModule.reviewRules, and the agent's planFromText that validates against them).
 */
export interface AgentProfile {
  name: string;
  /**
   * In order: every tool listed must appear in the plan, and the step of entry i+1 must depend (directly or
   * transitively) on the step of entry i. Validation inserts a missing step and adds a missing dependency.
   */
  required_steps: RequiredStep[];
}

export interface RequiredStep {
  tool: string;
  /** Becomes the inserted step's `description`, so the plan event explains why the step is there. */
  description: string;
  /**
   * Args of the step when validation has to insert it. `earlier` maps each earlier required tool to its step's
   * id, so a later step can reference an earlier one's evidence (e.g. `{{E1.items}}`).
   */
  build_args: (request: EvaluationRequest, earlier: Record<string, string>) => Record<string, unknown>;
}

/**
 * The name of an agent the engine runs: each is a profile (its tools, plans, reviewers and answer)
 * on the same workflow, registered in the agent registry (docs/agents.md). Runs without one are
 * DEFAULT_PROFILE's (lambdas/contracts/agents.ts).
 */
export type ProfileName = string;

export interface EvaluationOptions {
  max_steps?: number;
  parallel?: boolean;
  /** "required": the plan waits for an operator's approval before any tool runs (default: the environment's). */
  approval?: "required" | "none";
  /**
   * "ask" (default): a request that lacks an input a tool needs pauses and asks for it;
   * "never": it is answered as it is (what needed the input comes out undecided).
   */
  clarification?: "ask" | "never";
  /**
   * false: this run's plan is written by the planner, neither read from the plan cache nor stored in it
   * (default: the environment's REWOO_PLAN_CACHE).
   */
  plan_cache?: boolean;
}

/** The hybrid request of docs/api.openapi.yaml EvaluationRequest. */
export interface EvaluationRequest {
  metadata: Record<string, unknown>;
  instructions?: string;
  s3_pdf_paths: string[];
  output_destination?: string;
  /** Groups runs: a follow-up inherits the session's metadata and documents (lambdas/core/sessions.ts). */
  session_id?: string;
  options?: EvaluationOptions;
}

export type EvidenceStatus = "ok" | "error";

export interface Evidence {
  step_id: string;
  tool: string;
  status: EvidenceStatus;
  /** Present when the output is small enough to live in DynamoDB. */
  output?: unknown;
  /** `s3://bucket/key` of the output when it is too large for the item. */
  output_ref?: string;
  error?: string;
  upstream_errors: string[];
  args?: Record<string, unknown>;
  started_at: string;
  finished_at: string;
  duration_ms: number;
}

// The statuses and their groups live in lambdas/contracts/run-status.ts, where the CLI and the
// dashboard's twin list read them too; re-exported here for the engine's modules.
export {
  isTerminal,
  NEEDS_YOU_STATUSES,
  RESUMABLE_STATUSES,
  RUN_STATUSES,
  type RunStatus,
  TERMINAL_STATUSES,
  type TerminalStatus,
  UNFINISHED_STATUSES,
  WAITING_STATUSES,
} from "../contracts/run-status.ts";
// The result's shape is the API's, one for every agent (lambdas/contracts/run-result.ts).
export type { RunResult };

export interface Usage {
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  /**
   * The models that answered the calls, sorted: with fallback models configured, the ones actually
   * used, which the run's cost is priced by. Absent on runs recorded before it was kept.
   */
  models?: string[];
}

export type ReviewCriterion = "relevance" | "completeness" | "safety" | "quality";
export type IssueSeverity = "minor" | "major" | "critical";

export interface ReviewIssue {
  criterion: ReviewCriterion;
  severity: IssueSeverity;
  message: string;
  /** The step or finding the issue is about, when it is about one. */
  ref?: string;
  /** "model": found by the model reviewer; absent: by the rules (lambdas/core/review.ts). */
  source?: "model";
}

/** A reviewer's verdict on a plan or a result (lambdas/core/review.ts scores it). */
export interface Review {
  approved: boolean;
  /** 1–10. */
  score: number;
  criteria: Record<ReviewCriterion, number>;
  issues: ReviewIssue[];
}

/** One input the run needs from its caller before it can decide some of its findings. */
export interface InputQuestion {
  /** Dotted path in the request's metadata, e.g. "borrower_info.monthly_income". */
  field: string;
  question: string;
  /** Why the run needs it. */
  why: string;
  /** What a valid answer looks like. */
  expected: string;
  /** The ids of the findings that cannot be decided without it (the API's name for them). */
  conditions: string[];
}

/** The run's question to its caller, and what became of it. */
export interface Clarification {
  status: "asked" | "answered" | "timed_out";
  questions: InputQuestion[];
  asked_at: string;
  /** When the run stops waiting and goes on without the answer. */
  deadline: string;
  answered_at?: string;
  /** The metadata the answer supplied (merged into the request's metadata). */
  answer?: Record<string, unknown>;
}

/** An operator's approval of the plan (options.approval "required"). */
export interface Approval {
  status: "pending" | "approved" | "rejected" | "edited" | "timed_out";
  requested_at: string;
  /** When the run stops waiting and ends REJECTED. */
  deadline: string;
  decided_at?: string;
  /** The operator's reason (reject), or what the edit changed. */
  reason?: string;
}

export type PlanSource = "planner" | "cache";

export interface RunRecord {
  run_id: string;
  status: RunStatus;
  /** The agent the run belongs to (absent: DEFAULT_PROFILE, lambdas/contracts/agents.ts). */
  profile?: ProfileName;
  /** The authenticated customer the run acts for (an agent whose tools act on a customer's behalf). */
  customer_id?: string;
  /** The session the run belongs to (lambdas/core/sessions.ts). */
  session_id?: string;
  request: EvaluationRequest;
  plan?: Plan;
  /**
   * Where the run's first plan came from: "planner" (an LLM call) or "cache" (a template of an earlier
   * run of the same request shape, filled in and validated, no planner call). A replan is the planner's.
   * Absent on legacy runs and runs recorded before the cache existed.
   */
  plan_source?: PlanSource;
  evidence: Evidence[];
  result?: RunResult;
  error?: { error: string; cause: string };
  usage: Usage;
  /** 1 for the first execution, +1 for each resume. */
  attempt?: number;
  /** How many times the planner planned again after a required step failed (0 or absent: never). */
  replans?: number;
  /** The plan reviewer's verdict on the plan that ran (after the one replan a low score allows). */
  plan_review?: Review;
  /** The result reviewer's verdict on the result. */
  result_review?: Review;
  /** What the run asked its caller, and the answer. */
  clarification?: Clarification;
  /** The operator's decision on the plan, when approval is required. */
  approval?: Approval;
  /** What the run cost, estimated when it ended (lambdas/core/cost.ts); absent while it runs. */
  cost?: RunCost;
  created_at: string;
  updated_at: string;
}

/** Progress events of docs/api.openapi.yaml ProgressEvent, before the store stamps `run_id`, `seq` and `timestamp`. */
export type ProgressEventBody =
  | { stage: "plan"; plan: Plan }
  | {
      stage: "worker";
      step: string;
      tool: string;
      level: number;
      status: "started" | "completed" | "failed";
      duration_ms?: number;
      error?: string;
    }
  | { stage: "solver"; status: "started" | "completed"; results?: RunResult }
  | { stage: "resume"; attempt: number; reason: string }
  | { stage: "replan"; attempt: number; reason: string; failed_steps: string[] }
  | ({ stage: "review"; target: "plan" | "result" } & Review)
  | { stage: "question"; questions: InputQuestion[]; deadline: string }
  | { stage: "answer"; status: "answered" | "timed_out"; fields: string[] }
  | { stage: "approval"; status: Approval["status"]; deadline?: string; reason?: string }
  | { stage: "complete"; status: TerminalStatus; error?: string };

export type ProgressEvent = ProgressEventBody & { run_id: string; seq: number; timestamp: string };
