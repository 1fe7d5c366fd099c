// Human-readable rendering of progress events and run records for the terminal.
import pc from "picocolors";
import {
  citationOcr,
  type DocumentReportLike,
  documentReports,
  fieldOcrConfidence,
  kindLabel,
  ocrSummary,
  ocrTag,
} from "../dashboard/documents.js";
import {
  applicableFindings,
  type FindingGroups,
  groupFindings,
  interpretationOf,
  judgedFindings,
  priorityLabel,
  priorityLevel,
  replanSummary,
  reviewSummary,
} from "../dashboard/findings.js";
import type { ConditionFinding } from "../lambdas/contracts/run-result.ts";
import type {
  Approval,
  Clarification,
  Evidence,
  InputQuestion,
  Plan,
  ProgressEvent,
  RunRecord,
} from "../lambdas/core/types.ts";
import { RESUMABLE_STATUSES, WAITING_STATUSES } from "../lambdas/core/types.ts";
import { MAX_ATTEMPTS } from "../lambdas/runs/resume-run.ts";
import { answerCommand, approvalCommands, type RunAddress, rewooCommand } from "./wait-commands.ts";

/** Where the run lives, so that lines about a wait can say the exact command that answers it. */
export interface FormatContext {
  address?: RunAddress;
}

export function formatEvent(event: ProgressEvent, context: FormatContext = {}): string[] {
  switch (event.stage) {
    case "plan":
      return [
        `${pc.bold("PLAN")}    ${event.plan.steps.length} steps in ${event.plan.levels.length} dependency levels`,
        ...formatPlanSteps(event.plan),
      ];
    case "worker": {
      const label = `${pc.cyan(event.step)} ${event.tool}`;
      if (event.status === "started")
        return [`${pc.bold("WORKER")}  ${label} ${pc.dim(`(level ${event.level})`)} started`];
      if (event.status === "completed")
        return [`${pc.bold("WORKER")}  ${label} ${pc.green("completed")} in ${event.duration_ms} ms`];
      return [
        `${pc.bold("WORKER")}  ${label} ${pc.red("failed")} in ${event.duration_ms} ms: ${event.error}`,
      ];
    }
    case "solver":
      return [`${pc.bold("SOLVER")}  ${event.status}`];
    case "resume":
      return [`${pc.bold("RESUME")}  attempt ${event.attempt}: ${event.reason}`];
    case "replan":
      return [`${pc.bold("REPLAN")}  ${pc.yellow(describeReplan(event))}`];
    case "review": {
      const line = reviewSummary(event.target, event);
      return [`${pc.bold("REVIEW")}  ${event.approved ? line : pc.yellow(line)}`];
    }
    case "question":
      return formatQuestions(event.run_id, event.questions, event.deadline, context.address);
    case "answer":
      return [
        `${pc.bold("ANSWER")}  ${
          event.status === "answered"
            ? `${event.fields.join(", ")} answered; the run goes on`
            : pc.yellow(
                `no answer came for ${event.fields.join(", ")} by the deadline; the run goes on without it`,
              )
        }`,
      ];
    case "approval":
      if (event.status === "pending") {
        return formatApprovalRequest(event.run_id, event.deadline, context.address);
      }
      return [
        `${pc.bold("APPROVAL")} ${describeDecision(event)}${event.status === "edited" ? pc.dim(" (the plan above runs)") : ""}`,
      ];
    case "complete":
      return [
        `${pc.bold("DONE")}    ${event.status === "SUCCEEDED" ? pc.green(event.status) : pc.red(event.status)}${event.error ? `: ${event.error}` : ""}`,
      ];
    default: {
      // A newer server may send stages this CLI does not know: name them rather than stop following.
      const stage = (event as { stage?: unknown }).stage;
      return [`${pc.bold("EVENT")}   ${typeof stage === "string" ? stage : "unknown stage"}`];
    }
  }
}

/** "1 step", "3 steps". */
export function stepCount(count: number): string {
  return `${count} ${count === 1 ? "step" : "steps"}`;
}

/** Each step with its dependencies and description, after the plan's levels. */
export function formatPlanSteps(plan: Plan): string[] {
  const lines = plan.levels.map((level, index) => `  level ${index}: ${level.join(", ")}`);
  for (const step of plan.steps) {
    const deps = step.depends_on.length ? pc.dim(` ← ${step.depends_on.join(", ")}`) : "";
    lines.push(
      `  ${pc.cyan(step.id)} ${step.tool}${deps}${step.description ? pc.dim(`  ${step.description}`) : ""}`,
    );
  }
  for (const repair of plan.repairs) lines.push(pc.yellow(`  repaired: ${repair.message}`));
  return lines;
}

/** QUESTION: what the run waits for, why, what a valid answer looks like, until when, and how to answer. */
export function formatQuestions(
  runId: string,
  questions: readonly InputQuestion[],
  deadline: string | undefined,
  address?: RunAddress,
): string[] {
  const lines = [
    `${pc.bold("QUESTION")} ${pc.yellow(`the run waits for input${deadline ? ` until ${deadline}` : ""}`)} ${pc.dim("(then it goes on without it)")}`,
  ];
  for (const question of questions) {
    lines.push(`  ${pc.bold(question.field)}: ${question.question}`);
    if (question.why) lines.push(`    why:      ${question.why}`);
    lines.push(`    expected: ${question.expected}`);
    if (question.conditions.length) lines.push(`    for:      ${question.conditions.join(", ")}`);
  }
  if (address) {
    const fields = questions.map((question) => question.field);
    lines.push(`  answer: ${pc.cyan(answerCommand(address, runId, fields))}`);
  }
  return lines;
}

/** APPROVAL pending: until when, and the commands that approve, reject or edit the plan. */
export function formatApprovalRequest(
  runId: string,
  deadline: string | undefined,
  address?: RunAddress,
): string[] {
  const lines = [
    `${pc.bold("APPROVAL")} ${pc.yellow(`the plan waits for an operator's approval${deadline ? ` until ${deadline}` : ""}`)} ${pc.dim("(then the run ends REJECTED)")}`,
  ];
  if (address) {
    for (const [label, command] of approvalCommands(address, runId)) {
      lines.push(`  ${`${label}:`.padEnd(8)} ${pc.cyan(command)}`);
    }
  }
  return lines;
}

/**
 * "approved: looks right", "rejected: wrong borrower", "timed out: no decision by …"; as it happens
 * (`live`), a rejection also says what follows from it.
 */
export function describeDecision(
  approval: { status: Approval["status"]; reason?: string },
  live = true,
): string {
  const reason = approval.reason ? `: ${approval.reason}` : "";
  const ends = live ? "; the run ends REJECTED" : "";
  switch (approval.status) {
    case "pending":
      return `pending${reason}`;
    case "approved":
      return pc.green(`approved${reason}`);
    case "edited":
      return pc.green(`approved as edited${reason}`);
    case "rejected":
      return pc.red(`rejected${reason}${live ? "; no tool runs" : ""}${ends}`);
    case "timed_out":
      return pc.red(`timed out${reason}${ends}`);
  }
}

/** "replanned (attempt 1): E3 call_conditions_ai_api failed: …"; the failed steps when there is no reason. */
export const describeReplan = replanSummary;

/** `replans` of a record when it is a positive count, else 0 (runs from before replanning have none). */
export function replanCount(run: { replans?: unknown }): number {
  return Number.isInteger(run.replans) && (run.replans as number) > 0 ? (run.replans as number) : 0;
}

/** Where the plan came from, when the run record says (REWOO_PLAN_CACHE). */
function planSourceNote(run: Pick<RunRecord, "plan_source">): string {
  if (run.plan_source === "cache") return " · plan: cached (no planner call)";
  return run.plan_source === "planner" ? " · plan: planner" : "";
}

export function formatRunRecord(run: RunRecord, context: FormatContext = {}): string[] {
  const replans = replanCount(run);
  const lines = [
    "",
    `${pc.bold(`Run ${run.run_id}: ${run.status}`)}${run.plan_source === "cache" ? pc.cyan(" · cached plan") : ""}${replans ? pc.yellow(` · replanned ×${replans}`) : ""}`,
  ];
  if (run.error) lines.push(pc.red(`  ${run.error.error}: ${run.error.cause}`));
  lines.push(...formatResume(run, context));
  lines.push(...formatWaits(run, context));
  for (const [target, review] of [
    ["plan", run.plan_review],
    ["result", run.result_review],
  ] as const) {
    if (!review) continue;
    const line = `  ${reviewSummary(target, review)}`;
    lines.push(review.approved ? pc.dim(line) : pc.yellow(line));
  }
  const result = run.result;
  if (result) {
    const interpretation = interpretationOf(result);
    if (interpretation) lines.push("", pc.bold("Instructions read as"), `  ${interpretation}`);
    lines.push("", pc.bold("Summary"), `  ${result.summary}`);
    lines.push(...formatJudged(judgedFindings(result)));
    const applicable = applicableFindings(result);
    if (applicable?.length) {
      lines.push("", pc.bold("Conditions that apply (not judged)"));
      const { grouped, groups } = groupFindings(applicable);
      for (const group of groups) {
        if (grouped) lines.push(`  ${pc.bold(group.compartment ?? "Other")}`);
        for (const condition of group.findings) lines.push(...formatCondition(condition, grouped ? 4 : 2));
      }
    }
    if (result.missing_information?.length) {
      lines.push(
        "",
        pc.bold("Missing information"),
        ...result.missing_information.map((item) => `  - ${item}`),
      );
    }
    if (result.recommendations?.length) {
      lines.push("", pc.bold("Recommendations"), ...result.recommendations.map((item) => `  - ${item}`));
    }
  }
  lines.push(...formatDocuments(run.evidence));
  lines.push(
    "",
    pc.dim(
      `Evidence: ${run.evidence.filter((e) => e.status === "ok").length} ok, ${run.evidence.filter((e) => e.status === "error").length} failed${planSourceNote(run)} · LLM usage: ${run.usage.llm_calls} calls, ${run.usage.input_tokens} input + ${run.usage.output_tokens} output tokens${run.usage.models?.length ? ` (${run.usage.models.join(", ")})` : ""}`,
    ),
  );
  return lines;
}

/** A FAILED or INTERRUPTED run: the command that resumes it where it stopped, or why none would. */
function formatResume(run: RunRecord, context: FormatContext): string[] {
  if (!RESUMABLE_STATUSES.includes(run.status) || !context.address) return [];
  if ((run.attempt ?? 1) >= MAX_ATTEMPTS) {
    return [pc.dim(`  it has run ${run.attempt} times, the limit for one run: start a new run to try again`)];
  }
  const command = rewooCommand(context.address, ["runs", "resume", run.run_id]);
  return [`  resume: ${pc.cyan(command)} ${pc.dim("(finished steps are not run again)")}`];
}

/**
 * With compartments: one section per compartment, most urgent first, each finding with its status.
 * Without (runs from before compartments): the fulfilled and the unfulfilled sections as always.
 */
function formatJudged(findings: Array<ConditionFinding & { status: string }>): string[] {
  const lines: string[] = [];
  const byCompartment: FindingGroups<ConditionFinding & { status: string }> = groupFindings(findings);
  if (byCompartment.grouped) {
    for (const group of byCompartment.groups) {
      const fulfilled = group.findings.filter((c) => c.status === "fulfilled").length;
      lines.push(
        "",
        `${pc.bold(group.compartment ?? "Other")} ${pc.dim(`· ${fulfilled} of ${group.findings.length} fulfilled`)}`,
      );
      for (const condition of group.findings) lines.push(...formatCondition(condition, 2, condition.status));
    }
    return lines;
  }
  const ordered = byCompartment.groups.flatMap((group) => group.findings);
  const fulfilled = ordered.filter((c) => c.status === "fulfilled");
  const unfulfilled = ordered.filter((c) => c.status !== "fulfilled");
  if (fulfilled.length) {
    lines.push("", pc.bold(pc.green("Fulfilled")));
    for (const condition of fulfilled) lines.push(...formatCondition(condition, 2, condition.status));
  }
  if (unfulfilled.length) {
    lines.push("", pc.bold(pc.red("Not fulfilled / insufficient evidence")));
    for (const condition of unfulfilled) lines.push(...formatCondition(condition, 2, condition.status));
  }
  return lines;
}

const PRIORITY_COLOUR = { high: pc.red, medium: pc.yellow, low: pc.dim, unknown: pc.dim } as const;

/** `TR_SIGNED: fulfilled — title [high]`; without a status (not judged) `TR_SIGNED — title [high]`. */
function formatCondition(condition: ConditionFinding, indent: number, status?: string): string[] {
  const pad = " ".repeat(indent);
  const tag = priorityLabel(condition.priority);
  const head = `${pad}${pc.bold(String(condition.id))}${status ? `: ${status}` : ""}${condition.title ? ` — ${condition.title}` : ""}${tag ? ` ${PRIORITY_COLOUR[priorityLevel(condition.priority)](`[${tag}]`)}` : ""}`;
  const lines = [head];
  if (condition.reason) lines.push(`${pad}    ${condition.reason}`);
  for (const citation of Array.isArray(condition.citations) ? condition.citations : []) {
    const excerpt = citation.excerpt ? ` "${printable(citation.excerpt).slice(0, 100)}"` : "";
    // A page read by OCR may hold misread words: say so beside the page, with the engine's confidence.
    const ocr = citationOcr(citation);
    const tag = ocr
      ? ` ${pc.yellow(`[${ocrTag(ocr.confidence)}${ocr.confirmed ? `, ${ocr.confirmed}` : ""}]`)}`
      : "";
    lines.push(
      pc.dim(
        `${pad}    ↳ ${printable(citation.document)}${citation.page ? ` p.${citation.page}` : ""}${tag}${excerpt}`,
      ),
    );
  }
  return lines;
}

/**
 * One line per document Conditions AI reported (its status, kind and pages); for a document read by
 * OCR, how (engine, pages, time, mean confidence) and each field read from an OCR page with the
 * engine's confidence, so a person knows which values came from a scan. Reports come from every
 * successful step that gave them, the later step's report of a document replacing the earlier.
 */
function formatDocuments(evidence: readonly Evidence[]): string[] {
  const reports = new Map<string, DocumentReportLike>();
  for (const item of evidence) {
    if (item.status !== "ok") continue;
    for (const report of documentReports(item.output)) reports.set(report.document, report);
  }
  if (reports.size === 0) return [];
  const lines = ["", pc.bold("Documents")];
  for (const report of reports.values()) {
    const status = typeof report.status === "string" && report.status ? printable(report.status) : "unknown";
    const facts = [status === "read" ? status : pc.yellow(status)];
    if (report.extraction?.kind) facts.push(printable(kindLabel(report.extraction.kind)));
    if (Number.isInteger(report.page_count)) {
      facts.push(`${report.page_count} ${report.page_count === 1 ? "page" : "pages"}`);
    }
    lines.push(`  ${printable(report.document)}: ${facts.join(" · ")}`);
    if (typeof report.reason === "string" && report.reason)
      lines.push(pc.dim(`      ${printable(report.reason)}`));
    const ocr = ocrSummary(report);
    if (ocr) lines.push(`      ${printable(ocr)}`);
    const fields = Array.isArray(report.extraction?.fields) ? report.extraction.fields : [];
    for (const field of fields) {
      const confidence = fieldOcrConfidence(field);
      if (confidence === null || field?.found !== true || typeof field.field !== "string") continue;
      const value = typeof field.value === "string" && field.value ? ` ${printable(field.value)}` : "";
      const page = Number.isInteger(field.page) ? ` · p.${field.page}` : "";
      lines.push(`      ${printable(field.field)}:${value}${page} ${pc.yellow(`[${ocrTag(confidence)}]`)}`);
    }
  }
  return lines;
}

/**
 * Document text on one line, without control characters: an excerpt or a value read from a
 * borrower's upload must not move the cursor or recolour the terminal.
 */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  return text.replace(/\s+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

/**
 * What the run asked and what became of it; for a run that waits now, the question or the plan to
 * approve and the commands that answer it.
 */
function formatWaits(run: RunRecord, context: FormatContext): string[] {
  const lines: string[] = [];
  const { clarification, approval } = run;
  if (run.customer_id && WAITING_STATUSES.includes(run.status)) {
    // A customer's chat request: the operator routes refuse it, so no command is offered.
    const what = run.status === "AWAITING_INPUT" ? "an answer" : "the customer's confirmation";
    lines.push(
      "",
      `${pc.bold(run.status === "AWAITING_INPUT" ? "QUESTION" : "APPROVAL")} ${pc.yellow(`waits for ${what} in the chat; only that customer can give it`)}`,
    );
    return lines;
  }
  if (clarification) {
    if (run.status === "AWAITING_INPUT" && clarification.status === "asked") {
      lines.push(
        "",
        ...formatQuestions(run.run_id, clarification.questions, clarification.deadline, context.address),
      );
    } else {
      lines.push(`  ${describeClarification(clarification)}`);
    }
  }
  if (approval) {
    if (run.status === "AWAITING_APPROVAL" && approval.status === "pending") {
      lines.push("", ...formatApprovalRequest(run.run_id, approval.deadline, context.address));
      if (run.plan) {
        lines.push(
          `  ${pc.bold("plan")}: ${run.plan.steps.length} steps in ${run.plan.levels.length} dependency levels`,
          ...formatPlanSteps(run.plan),
        );
      }
    } else {
      lines.push(`  plan ${describeDecision(approval, false)}`);
    }
  }
  return lines;
}

/** "asked borrower_info.monthly_income: answered (borrower_info.monthly_income=8000)". */
function describeClarification(clarification: Clarification): string {
  const fields = clarification.questions.map((question) => question.field).join(", ");
  switch (clarification.status) {
    case "asked":
      return pc.yellow(`asked ${fields}: no answer yet (until ${clarification.deadline})`);
    case "answered": {
      const given = Object.entries(clarification.answer ?? {})
        .map(([field, value]) => `${field}=${typeof value === "string" ? value : JSON.stringify(value)}`)
        .join(", ");
      return `asked ${fields}: answered${given ? ` (${given})` : ""}`;
    }
    case "timed_out":
      return pc.yellow(`asked ${fields}: no answer came by ${clarification.deadline}; judged without it`);
  }
}
