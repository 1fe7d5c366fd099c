// The REST API's answers (docs/api.openapi.yaml) as types: the handlers build them and clients (the
// CLI) read them, so neither side reaches into the other's modules. Types only, from the pure
// lambdas/core: nothing here exists at run time, so the CDK app may import this module like the
// rest of lambdas/contracts.
import type { SessionState } from "../core/sessions.ts";
import type {
  Approval,
  Clarification,
  Plan,
  ProgressEvent,
  Review,
  RunCost,
  RunStatus,
} from "../core/types.ts";

/**
 * How a run is planned: "rewoo" asks the planner LLM; "legacy" (POST /v1/evaluate-loan-conditions, the
 * legacy endpoint: docs/architecture.md, "Where this project comes from") runs the fixed PreConditions →
 * Conditions AI plan without it.
 */
export type RunMode = "rewoo" | "legacy";

/** 202 of POST /v1/evaluate-conditions (RunStarted): where to follow the run. */
export interface StartedRun {
  run_id: string;
  /** The session the run belongs to (given by the request, or new). */
  session_id?: string;
  status: RunStatus;
  status_url: string;
  events_url: string;
  websocket_url: string | null;
  subscribe_token: string;
}

/** GET /v1/runs/{run_id}/events?after_seq=n (EventsPage); docs/events.md says how to follow a run with it. */
export interface EventsPage {
  run_id: string;
  /**
   * The run's status when the page was read. Final (SUCCEEDED, FAILED…): every writer has finished
   * and the page holds all stored events after after_seq, holes included; otherwise only those that
   * follow after_seq without a hole.
   */
  status: RunStatus;
  events: ProgressEvent[];
  /** Pass as after_seq to get the next events. */
  next_after_seq: number;
}

/** One run of GET /v1/runs, newest first. */
export interface RunSummary {
  run_id: string;
  status: RunStatus;
  mode: RunMode;
  created_at: string;
  updated_at: string;
  request: { metadata: Record<string, unknown> };
  /** The run's estimated cost (total only), once it ended. */
  cost?: Pick<RunCost, "currency" | "total" | "estimated">;
  /** metadata.loan_number, when the request had one (what GET /v1/runs?q= finds). */
  loan_number?: string;
  /** True for a run POST /v1/runs/{run_id}/resume would take up again (FAILED, INTERRUPTED). */
  resumable?: boolean;
}

/**
 * GET /v1/runs?status=&loan_program=&classification=&from=&to=&q=&limit=&cursor= : runs newest first,
 * filtered; `next_cursor` (absent on the last page) is passed back as `cursor` for the next page.
 */
export interface RunList {
  runs: RunSummary[];
  next_cursor?: string;
}

/** The body of POST /v1/documents: what the browser is about to upload. */
export interface DocumentUploadRequest {
  /** The file's name on the officer's disk; kept (made S3-safe) as the key's last part. */
  filename: string;
  /** Only "application/pdf". */
  content_type: string;
  /** The exact size in bytes; S3 refuses an upload of another size. */
  size_bytes: number;
  /** SHA-256 of the file, 64 hex digits: the key is derived from it, and S3 checks the upload against it. */
  sha256: string;
}

/** 201 of POST /v1/documents: where and how to PUT the file, and the path to use in s3_pdf_paths. */
export interface DocumentUpload {
  /** The document path for s3_pdf_paths (a key in the documents bucket). */
  s3_pdf_path: string;
  bucket: string;
  key: string;
  upload: {
    method: "PUT";
    url: string;
    /** Send exactly these headers with the PUT (they are signed). */
    headers: Record<string, string>;
  };
  /** ISO time after which the URL no longer works. */
  expires_at: string;
  max_bytes: number;
}

/** GET /v1/runs/{run_id}/documents: each document of the run with a presigned GET URL. */
export interface RunDocuments {
  run_id: string;
  documents: {
    /** As in the request's s3_pdf_paths. */
    path: string;
    bucket: string;
    key: string;
    url: string;
    expires_at: string;
  }[];
}

/** GET /v1/catalog: what a new-evaluation form offers and asks. */
export interface CatalogView {
  version: string;
  /** Loan programs seen in the catalog and examples, as suggestions (any program name is accepted). */
  loan_programs: string[];
  classifications: {
    name: string;
    description: string;
    aliases: string[];
    conditions: { id: string; title: string; compartment: string; priority: string }[];
    /** Metadata fields the classification's conditions read (dotted paths), with how to fill each. */
    inputs: {
      field: string;
      question: string;
      expected: string;
      /** The conditions that cannot be verified without it. */
      conditions: string[];
    }[];
  }[];
}

/** 202 of POST /v1/runs/{run_id}/resume: the attempt that continues the run. */
export interface ResumedRun {
  run_id: string;
  attempt: number;
  execution_name: string;
  status: RunStatus;
}

/** 202 of POST /v1/runs/{run_id}/input: the answers were taken, the run goes on. */
export interface InputAccepted {
  run_id: string;
  status: RunStatus;
  clarification: Clarification;
}

/** 202 of POST /v1/runs/{run_id}/approval: the decision, and the plan that runs when it was edited. */
export interface PlanDecided {
  run_id: string;
  status: RunStatus;
  approval: Approval;
  plan?: Plan;
  plan_review?: Review;
}

/** 202 of POST /v1/batches (BatchStarted). */
export interface BatchStarted {
  batch_id: string;
  name?: string;
  status: "RUNNING";
  total: number;
  status_url: string;
  results_url: string;
}

/** 200 of POST /v1/chat: the assistant's reply, and the run the message started or moved on. */
export interface ChatReply {
  session_id: string;
  reply: string;
  state: SessionState;
  plan_review_score?: number;
  execution_review_score?: number;
  run_id?: string;
  /** Watches the run over the WebSocket API (the run's own subscribe token). */
  subscribe_token?: string;
}
