// How runs, statuses, verdicts and amounts are named on every page.
import { h } from "./dom.js";
import { WAITING_STATUSES } from "./run-status.js";

const RUN_STATUS_LABEL = {
  PENDING: "Pending",
  PLANNING: "Planning",
  RUNNING: "Running",
  SOLVING: "Solving",
  SUCCEEDED: "Succeeded",
  FAILED: "Failed",
  CANCELLED: "Cancelled",
  INTERRUPTED: "Interrupted",
  NEEDS_REVIEW: "Needs review",
  AWAITING_INPUT: "Waiting for input",
  AWAITING_APPROVAL: "Waiting for approval",
  REJECTED: "Rejected",
};

export function runStatusLabel(status) {
  return Object.hasOwn(RUN_STATUS_LABEL, status) ? RUN_STATUS_LABEL[status] : String(status);
}

export const isWaiting = (status) => WAITING_STATUSES.includes(status);

export function runStatusBadge(status, props = {}) {
  return h(
    "span",
    {
      class: `badge run-${String(status).toLowerCase()}`,
      ...props,
      dataset: { status, ...(props.dataset ?? {}) },
    },
    runStatusLabel(status),
  );
}

const VERDICT_LABEL = {
  fulfilled: "Fulfilled",
  not_fulfilled: "Not fulfilled",
  insufficient_evidence: "Insufficient evidence",
};

export function verdictLabel(status) {
  return Object.hasOwn(VERDICT_LABEL, status) ? VERDICT_LABEL[status] : String(status).replaceAll("_", " ");
}

/** A banking assistant's run (no loan program) is named by what the customer asked for. */
export function bankingIntentOf(request) {
  const m = request?.metadata ?? {};
  return !m.loan_program && typeof m.intent === "string" ? m.intent.replaceAll("_", " ") : null;
}

export function programOf(request) {
  const m = request?.metadata ?? {};
  const intent = bankingIntentOf(request);
  if (intent) return `Banking assistant · ${intent}`;
  return [m.loan_program, m.classification].filter(Boolean).join(" · ") || "Loan file";
}

// ---------------------------------------------------------------------------------------------
// Runs list

/** The loan number the list shows: the API's `loan_number`, or the request's metadata for runs listed locally. */
export function loanNumberOf(run) {
  const value = run.loan_number ?? run.request?.metadata?.loan_number;
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

export function shortRunId(runId) {
  // run-20261121223539-01d82d25 → …01d82d25: the random suffix is what tells runs apart.
  const match = /-([0-9a-f]{6,})$/i.exec(runId);
  return match ? `…${match[1]}` : runId;
}

// ---------------------------------------------------------------------------------------------
// Run header and KPIs

/** USD with three significant digits: a run costs fractions of a cent, which "$0.00" would hide. */
export function formatUsd(amount) {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return "—";
  if (amount === 0) return "$0";
  return `$${amount.toLocaleString("en-US", amount >= 1 ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { maximumSignificantDigits: 3 })}`;
}
