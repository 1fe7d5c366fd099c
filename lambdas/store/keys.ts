import { randomUUID } from "node:crypto";
import type { KeyNames, TABLES } from "../contracts/tables.ts";

/**
 * An item's primary key in the runs table (and the core-banking table, keyed the same way), named as
 * lambdas/contracts/tables.ts declares the key attributes. The stores spell `pk`/`sk` in their items
 * and expressions; `itemKey` stops compiling if the schema renames them, which is where a rename starts.
 */
export type ItemKey = {
  [Name in KeyNames<typeof TABLES.runs> | KeyNames<typeof TABLES.coreBanking>]: string;
};
export const itemKey = (pk: string, sk: string): ItemKey => ({ pk, sk });

// One item collection per run (README: Architecture): a single Query on pk loads the whole run.
export const runKey = (runId: string) => `RUN#${runId}`;
export const META = "META";
export const stepKey = (stepId: string) => `STEP#${stepId}`;
// Zero-padded so the sort key orders events by seq (lexicographic = numeric up to 10^9 events).
export const eventKey = (seq: number) => `EVENT#${String(seq).padStart(9, "0")}`;
export const profileKey = (loanProgram: unknown, classification: unknown) =>
  `PROFILE#${String(loanProgram ?? "-")}#${String(classification ?? "-")}`;
/** Creation day (UTC) of a run, the partition of the by_day index. */
export const dayKey = (isoTimestamp: string) => `DAY#${isoTimestamp.slice(0, 10)}`;
/** Longest loan number the by_loan index takes: longer values are not loan numbers but free text. */
export const MAX_LOAN_NUMBER_LENGTH = 64;
/**
 * The loan number a run is found by (GET /v1/runs?q=): metadata.loan_number as given, trimmed, when it
 * is a non-empty string or a finite number of at most MAX_LOAN_NUMBER_LENGTH characters.
 */
export function loanNumberOf(value: unknown): string | undefined {
  if (typeof value !== "string" && !(typeof value === "number" && Number.isFinite(value))) return undefined;
  const loan = String(value).trim();
  return loan.length > 0 && loan.length <= MAX_LOAN_NUMBER_LENGTH ? loan : undefined;
}
/** Partition of the by_loan index. */
export const loanKey = (loanNumber: string) => `LOAN#${loanNumber}`;
/** Sort key of the by_loan index: creation time first (newest first when read backwards), the run id breaks ties. */
export const loanSortKey = (createdAt: string, runId: string) => `${createdAt}#${runId}`;
/** A session's item collection: its META (context, runs) and its ENTRY#<seq> items. */
export const sessionKey = (sessionId: string) => `SESSION#${sessionId}`;
export const sessionEntryKey = (seq: number) => `ENTRY#${String(seq).padStart(9, "0")}`;
/**
 * A batch's item collection: its record (sk BATCH_RECORD: status, counts) and one LINE#<line> item per
 * started or finished line. Not sk META: scans for unfinished runs read every META item as a run.
 */
export const batchKey = (batchId: string) => `BATCH#${batchId}`;
export const BATCH_RECORD = "BATCH";
// Zero-padded so a Query returns the lines in manifest order.
export const batchLineKey = (line: number) => `LINE#${String(line).padStart(9, "0")}`;

/** `<prefix>-<yyyymmddhhmmss>-<8 hex>`: ids that sort by creation and never collide (runs, sessions). */
export function timeOrderedId(prefix: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:TZ.]/g, "")
    .slice(0, 14);
  return `${prefix}-${stamp}-${randomUUID().slice(0, 8)}`;
}
