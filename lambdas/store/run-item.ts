// The run's META item as the runs table stores it: the run record of the API (lambdas/core/types.ts
// RunRecord) without what is stored in items of its own (evidence) or counted (usage), plus what only
// the store and the engine read.
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { RunMode } from "../contracts/api-types.ts";
import type { RunRecord } from "../core/types.ts";

export type MetaItem = Omit<RunRecord, "evidence" | "usage"> & {
  /** Absent on runs created before modes existed: those are "rewoo". */
  mode?: RunMode;
  usage_llm_calls?: number;
  usage_input_tokens?: number;
  usage_output_tokens?: number;
  /** The models that answered the run's LLM calls (a string set, added to with each call). */
  usage_models?: Set<string>;
  /** Invocations of the run's workflow functions, their memory × duration and the state transitions they account for (addInvocation). */
  lambda_requests?: number;
  lambda_mb_ms?: number;
  sfn_transitions?: number;
  /** The execution currently driving the run (absent: named after the run, the first one). */
  execution_name?: string;
  /** Why the request cannot be carried out, found before anything was asked or run (told to the caller). */
  refusal?: string;
  /**
   * The task token of the wait state the run is in (AWAITING_INPUT / AWAITING_APPROVAL): only the API
   * reads it, to resume the execution. Never part of a run record or an event.
   */
  task_token?: string;
  /** Set with the `complete` event: no event is appended after it (until a resume reopens the run). */
  events_closed?: boolean;
};

/** The table the run store's modules read and write, and its clock. */
export interface RunsTable {
  ddb: DynamoDBDocumentClient;
  table: string;
  now: () => Date;
}
