// Starting a run: validate, create the run record, start the execution named after the run.
// Shared by the CLI's local mode and the API's start handler so both start runs the same way.
import { randomUUID } from "node:crypto";
import type { DocumentPolicy } from "../core/documents.ts";
import { validateRequest } from "../core/request.ts";
import type { EvaluationRequest } from "../core/types.ts";
import type { RunStore } from "../store/runs.ts";

export type StartExecution = (name: string, input: { run_id: string }) => Promise<unknown>;

export function newRunId(now = new Date()): string {
  // Time-ordered prefix so ids sort by creation; random suffix so they never collide.
  const stamp = now
    .toISOString()
    .replace(/[-:TZ.]/g, "")
    .slice(0, 14);
  return `run-${stamp}-${randomUUID().slice(0, 8)}`;
}

export async function startRun(
  input: unknown,
  deps: { runs: RunStore; policy: DocumentPolicy; startExecution: StartExecution },
  options: { runId?: string } = {},
): Promise<{ run_id: string; request: EvaluationRequest; created: boolean }> {
  const request = validateRequest(input, deps.policy);
  const runId = options.runId ?? newRunId();
  const created = await deps.runs.createRun(runId, request);
  if (created) await deps.startExecution(runId, { run_id: runId });
  return { run_id: runId, request, created };
}
