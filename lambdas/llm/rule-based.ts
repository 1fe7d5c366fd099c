// The default provider (README: Configuration): plans and solves deterministically from the request and the
// evidence, so the whole system is useful offline and every test is reproducible. It answers in the
// same text format a model is asked for (a JSON plan, a JSON result), so its output goes through the
// same parser and validation as a real model's.

import { type InstructionScope, loanScope } from "../agents/loan/instructions/interpret.ts";
import { judgesConditions, preconditionsArgs, scopedDocuments } from "../agents/loan/profiles.ts";
import { ocrMarks, shortSolverAnswer } from "../agents/loan/solver-answer.ts";
import { profileModule } from "../agents/registry.ts";
import type { ConditionFinding } from "../contracts/run-result.ts";
import type { EvaluationRequest, Evidence, Plan, RawStep, RunResult, ToolCatalog } from "../core/types.ts";
import type { Completion, CompletionRequest, LlmProvider, ReplanContext } from "./types.ts";
import { countedUsage } from "./usage.ts";

export const RULE_BASED_MODEL = "rule-based";

const PRECONDITIONS = "call_preconditions_api";
const CONDITIONS_AI = "call_conditions_ai_api";
const RETRIEVE = "retrieve_s3_document";
const DATABASE = "query_database";

/**
 * Instructions that ask for the loan's history or comparable loans: the loan-agent plan's optional
 * `query_database` step, "check historical evaluations" (docs/architecture.md, "Where this project comes from").
 */
const HISTORY_QUESTION =
  /\b(?:histor(?:y|ic|ical|ically)|similar|(?:previous|prior|past|earlier)\s+(?:loans?|evaluations?|conditions?|decisions?|files?|applications?|underwriting))\b/i;
const SIMILAR_LOANS = /\bsimilar\b/i;
/**
 * The loan-agent plan's expanded use case, "Check if these bank statements are sufficient ... tell me what's
 * missing" (docs/architecture.md, "Where this project comes from").
 */
const SUFFICIENCY_QUESTION = /\b(?:in)?sufficien(?:t|cy)\b|\benough\b|\bmissing\b/i;

/** Tools whose output the solver reads; an output it cannot see is missing information. */
const JUDGED_TOOLS = new Set([PRECONDITIONS, CONDITIONS_AI, DATABASE]);

const TOOL_ANSWER_CHARS = 400;
const SUMMARY_ID_LIMIT = 6;

export class RuleBasedProvider implements LlmProvider {
  readonly name = "rule-based";

  async complete(request: CompletionRequest): Promise<Completion> {
    request.signal?.throwIfAborted();
    const { context } = request;
    let text: string;
    const offlinePlanText =
      context.purpose === "planner" ? profileModule(context.profile).offlinePlanText : undefined;
    if (context.purpose === "planner" && offlinePlanText) {
      text = offlinePlanText(context.request);
    } else if (context.purpose === "planner") {
      text = plannerText(
        context.request,
        context.tools,
        context.maxSteps,
        loanScope(context.scope),
        context.replan,
      );
    } else if (context.purpose === "solver") {
      text = solverText(context.request, context.plan, context.evidence);
    } else if (context.purpose === "review") {
      // The reviewers skip this provider; asked anyway, it has nothing to add to the rules' findings.
      text = JSON.stringify({ criteria: context.rules.criteria, issues: [] });
    } else {
      text = extractiveAnswer(request.prompt);
    }
    return {
      text,
      model: request.model ?? RULE_BASED_MODEL,
      usage: await countedUsage(request.system, request.prompt, text),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Planner

export function asksForHistory(instructions: string | undefined): boolean {
  return HISTORY_QUESTION.test(instructions ?? "");
}

/**
 * The loan-agent plan's flow (docs/architecture.md, "Where this project comes from"), shaped by how the
 * instructions were read (`scope`): PreConditions (narrowed
 * to the conditions asked for) → Conditions AI over the documents asked for, with one retrieval per
 * document running in parallel with PreConditions (so a missing document surfaces as its own failed
 * step), no judging at all when only the applicable conditions were asked for, and a history lookup
 * when the instructions ask for it. Retrievals are what gives way to `maxSteps`. Planning again
 * (`replan`), documents whose retrieval failed are left out of the judging step.
 * Without a scope (callers that do not interpret instructions), every condition is judged.
 */
export function planFromRequest(
  request: EvaluationRequest,
  tools: ToolCatalog,
  maxSteps: number,
  scope?: InstructionScope,
  replan?: ReplanContext,
): RawStep[] {
  const label = loanLabel(request.metadata);
  const questions = new Set(scope?.questions ?? []);
  const wantsHistory =
    tools.has(DATABASE) &&
    (scope
      ? questions.has("history") || questions.has("similar_loans")
      : asksForHistory(request.instructions));
  const similar = scope ? questions.has("similar_loans") : SIMILAR_LOANS.test(request.instructions ?? "");
  const judging = judgesConditions(scope);
  const documents = withoutFailedRetrievals(scopedDocuments(request, scope), replan);
  const retrievalSlots =
    judging && tools.has(RETRIEVE) ? Math.max(0, maxSteps - 2 - (wantsHistory ? 1 : 0)) : 0;

  const steps: RawStep[] = [];
  const nextId = () => `E${steps.length + 1}`;
  const narrowed = scope?.include_conditions?.length || scope?.exclude_conditions.length;
  steps.push({
    id: nextId(),
    tool: PRECONDITIONS,
    args: preconditionsArgs(request, scope),
    description: judging
      ? `Predict the deficient conditions for ${label}${narrowed ? ", narrowed as the instructions ask" : ""}`
      : `List the conditions that apply to ${label}, as the instructions ask (nothing is judged)`,
  });
  const preconditionsId = steps[0]?.id ?? "E1";

  if (judging) {
    const retrievalIds: string[] = [];
    for (const path of documents.slice(0, retrievalSlots)) {
      const id = nextId();
      retrievalIds.push(id);
      steps.push({
        id,
        tool: RETRIEVE,
        args: { s3_path: path },
        description: `Check ${path} is readable`,
      });
    }
    steps.push({
      id: nextId(),
      tool: CONDITIONS_AI,
      args: { conditions: `{{${preconditionsId}.conditions}}`, documents: [...documents] },
      depends_on: [preconditionsId, ...retrievalIds],
      description: `Judge each predicted condition against the ${plural(documents.length, "document")}`,
    });
  }

  if (wantsHistory) {
    const query = similar ? "similar_loans" : "condition_history";
    steps.push({
      id: nextId(),
      tool: DATABASE,
      args: { query, filters: loanFilters(request.metadata) },
      description: `Look up ${query === "similar_loans" ? "similar loans" : "the condition history"} for ${label}, as the instructions ask`,
    });
  }
  return steps;
}

/** The documents to judge, less those whose retrieval failed in the previous plan (unless that leaves none). */
function withoutFailedRetrievals(documents: string[], replan: ReplanContext | undefined): string[] {
  if (!replan) return documents;
  const failed = new Set(
    replan.evidence
      .filter((item) => item.tool === RETRIEVE && item.status === "error")
      .map((item) => stringArg(item.args?.s3_path))
      .filter((path): path is string => path !== undefined),
  );
  const kept = documents.filter((path) => !failed.has(path));
  return kept.length ? kept : documents;
}

function loanFilters(metadata: Record<string, unknown>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const key of ["loan_program", "classification"]) {
    const value = metadata[key];
    if (typeof value === "string" && value) filters[key] = value;
  }
  return filters;
}

// ---------------------------------------------------------------------------------------------
// Solver

/** What the catalog says of a condition, as PreConditions and Conditions AI report it. */
interface ConditionLabels {
  title?: string;
  compartment?: string;
  priority?: string | number;
}

interface PredictedCondition extends ConditionLabels {
  id: string;
  reason?: string;
}

interface Verdict extends ConditionLabels {
  id: string;
  status: "fulfilled" | "not_fulfilled" | "insufficient_evidence";
  reason?: string;
  citations: NonNullable<ConditionFinding["citations"]>;
  /** What a loan officer should do, specific to the finding (Conditions AI's reference engine writes them). */
  remedies: string[];
  /** What exactly is missing, specific to the finding. */
  missing: string[];
}

interface StepRecord {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  evidence?: Evidence;
}

/**
 * Tool output contracts it reads (by tool name):
 * - call_preconditions_api → {loan_program, classification, conditions: [{id, title, compartment, priority, reason}]}
 * - call_conditions_ai_api → {verdicts: [{condition_id, title, status, reason, citations: [{document, page, excerpt}]}]}
 * - query_database → {query, results: [...], message}
 * Other tools' outputs are not judged; their failures still become missing information.
 */
export function solveFromEvidence(request: EvaluationRequest, plan: Plan, evidence: Evidence[]): RunResult {
  const scope = loanScope(plan.scope);
  const steps = stepRecords(plan, evidence);
  const failed = steps.filter((step) => step.evidence?.status === "error");
  const notRun = steps.filter((step) => !step.evidence);

  const preconditions = readPreconditions(steps);
  const label = loanLabel({ ...request.metadata, ...preconditions.loan });
  const interpretation = scope ? { interpretation: scope.interpretation } : {};
  if (!judgesConditions(scope)) {
    return {
      ...listApplicable(preconditions, label, steps, failed, outOfReach(scope)),
      ...interpretation,
    };
  }
  const conditionsAi = readVerdicts(steps);
  const predicted = new Map(preconditions.conditions.map((condition) => [condition.id, condition]));

  const fulfilled: ConditionFinding[] = [];
  const unfulfilled: ConditionFinding[] = [];
  const judged = new Set<string>();
  const verdictOf = new Map<string, Verdict>();
  if (conditionsAi.verdicts) {
    for (const verdict of conditionsAi.verdicts) {
      if (judged.has(verdict.id)) continue;
      judged.add(verdict.id);
      verdictOf.set(verdict.id, verdict);
      const labels = { ...predicted.get(verdict.id), ...definedLabels(verdict) };
      const described = {
        id: verdict.id,
        ...(labels.title ? { title: labels.title } : {}),
        ...(labels.compartment ? { compartment: labels.compartment } : {}),
        ...(labels.priority !== undefined ? { priority: labels.priority } : {}),
      };
      if (verdict.status === "fulfilled") {
        fulfilled.push({
          ...described,
          reason: verdict.reason ?? "Conditions AI found the condition fulfilled",
          citations: verdict.citations,
        });
      } else {
        unfulfilled.push({
          ...described,
          status: verdict.status,
          reason: verdict.reason ?? `Conditions AI found the condition ${verdict.status.replace("_", " ")}`,
          citations: verdict.citations,
        });
      }
    }
  }
  const unjudgedReason = conditionsAi.verdicts
    ? `${conditionsAi.source} returned no verdict for this condition`
    : `Not evaluated: ${conditionsAi.problem}`;
  const unjudged: string[] = [];
  for (const condition of preconditions.conditions) {
    if (judged.has(condition.id)) continue;
    judged.add(condition.id);
    unjudged.push(condition.id);
    unfulfilled.push({
      id: condition.id,
      ...definedLabels(condition),
      status: "insufficient_evidence",
      reason: unjudgedReason,
      citations: [],
    });
  }

  const missing: string[] = [];
  for (const step of steps) {
    const hint = argHint(step);
    if (step.evidence?.status === "error") {
      missing.push(`${step.id} ${step.tool}${hint} failed: ${step.evidence.error ?? "unknown error"}`);
    } else if (!step.evidence) {
      missing.push(`${step.id} ${step.tool}${hint} did not run: no evidence was recorded`);
    } else if (
      step.evidence.output === undefined &&
      step.evidence.output_ref &&
      JUDGED_TOOLS.has(step.tool)
    ) {
      missing.push(
        `${step.id} ${step.tool} output is stored at ${step.evidence.output_ref} and was not provided to the solver`,
      );
    }
  }
  missing.push(...documentProblems(steps));
  for (const finding of unfulfilled) {
    const specific = verdictOf.get(finding.id)?.missing ?? [];
    if (specific.length) {
      for (const item of specific) missing.push(`${describeCondition(finding)}: ${item}`);
    } else if (finding.status === "insufficient_evidence" && !unjudged.includes(finding.id)) {
      missing.push(`Insufficient evidence for ${describeCondition(finding)}: ${finding.reason}`);
    }
  }

  const recommendations: string[] = [];
  for (const finding of unfulfilled) {
    if (unjudged.includes(finding.id)) continue;
    const remedies = verdictOf.get(finding.id)?.remedies ?? [];
    if (remedies.length) {
      for (const remedy of remedies) recommendations.push(`${finding.id}: ${remedy}`);
      continue;
    }
    recommendations.push(
      finding.status === "not_fulfilled"
        ? `Obtain a corrected document that satisfies ${describeCondition(finding)}`
        : `Provide a document that shows ${describeCondition(finding)}`,
    );
  }
  if (unjudged.length) {
    recommendations.push(
      conditionsAi.verdicts
        ? `Re-run ${CONDITIONS_AI} for ${plural(unjudged.length, "condition")} it did not judge: ${listIds(unjudged)}`
        : `Re-run the evaluation so ${CONDITIONS_AI} can judge ${plural(unjudged.length, "condition")}: ${listIds(unjudged)}`,
    );
  }
  for (const step of failed) {
    if (step.tool === CONDITIONS_AI && unjudged.length) continue;
    if (step.tool === RETRIEVE) {
      recommendations.push(
        `Re-upload ${stringArg(step.args.s3_path) ?? "the document"} or correct its path, then re-run the evaluation (${step.id} failed)`,
      );
    } else if (step.tool === PRECONDITIONS) {
      recommendations.push(
        `Retry ${PRECONDITIONS} (${step.id}): without predicted conditions nothing could be evaluated`,
      );
    } else {
      recommendations.push(
        `Retry ${step.tool} (${step.id}) after fixing: ${step.evidence?.error ?? "unknown error"}`,
      );
    }
  }
  if (recommendations.length === 0 && notRun.length === 0) {
    recommendations.push(
      fulfilled.length
        ? `No action needed: all ${plural(fulfilled.length, "condition")} fulfilled`
        : `No action needed: ${PRECONDITIONS} predicted no conditions`,
    );
  }

  const total = fulfilled.length + unfulfilled.length;
  let summary: string;
  if (total === 0 && !preconditions.ok) {
    summary = `No conditions could be evaluated for ${label}: ${preconditions.problem}.`;
  } else if (total === 0) {
    summary = `No conditions apply to ${label}: ${PRECONDITIONS} predicted none${preconditions.filteredOut ? ` of those the instructions asked for` : ""}.`;
  } else {
    summary = `${fulfilled.length} of ${plural(total, "condition")} fulfilled for ${label}`;
    summary += unfulfilled.length
      ? `; ${unfulfilled.length} ${unfulfilled.length === 1 ? "needs" : "need"} attention: ${listIds(unfulfilled.map((c) => c.id))}.`
      : ".";
    if (!conditionsAi.verdicts) summary += ` Not evaluated: ${conditionsAi.problem}.`;
    else if (failed.length)
      summary += ` ${plural(failed.length, "step")} failed: ${failed.map((s) => `${s.id} ${s.tool}`).join(", ")}.`;
  }
  const history = readHistory(steps);
  if (history) summary += ` ${history}`;
  const sufficiencyAsked = scope
    ? scope.questions.includes("sufficiency")
    : SUFFICIENCY_QUESTION.test(request.instructions ?? "");
  if (sufficiencyAsked) {
    const sufficient = total > 0 && unfulfilled.length === 0 && failed.length === 0 && notRun.length === 0;
    summary = `${sufficient ? "Sufficient" : "Not sufficient"}: ${summary}`;
  }

  return {
    summary,
    fulfilled_conditions: fulfilled,
    unfulfilled_conditions: unfulfilled,
    missing_information: missing,
    recommendations,
    ...interpretation,
  };
}

/**
 * What the instructions asked for that is out of reach, when that is all they asked for (the scope
 * judges nothing): `"credit score is above 700"`. Empty otherwise.
 */
function outOfReach(scope: InstructionScope | undefined): string[] {
  if (!scope?.nothing_in_reach) return [];
  return (scope.unhandled ?? []).map((part) => `"${part.text}"`);
}

/**
 * "Which conditions apply": PreConditions' answer, listed and not judged. When the instructions
 * asked only for what is out of reach (`unreachable`), the summary says that is why nothing was judged.
 */
function listApplicable(
  preconditions: ReturnType<typeof readPreconditions>,
  label: string,
  steps: StepRecord[],
  failed: StepRecord[],
  unreachable: string[] = [],
): RunResult {
  const applicable: ConditionFinding[] = preconditions.conditions.map((condition) => ({
    id: condition.id,
    ...definedLabels(condition),
    ...(condition.reason ? { reason: condition.reason } : {}),
  }));
  const missing = failed.map(
    (step) => `${step.id} ${step.tool}${argHint(step)} failed: ${step.evidence?.error ?? "unknown error"}`,
  );
  for (const step of steps) {
    if (!step.evidence)
      missing.push(`${step.id} ${step.tool}${argHint(step)} did not run: no evidence was recorded`);
  }
  let summary: string;
  if (!preconditions.ok) summary = `Cannot say which conditions apply to ${label}: ${preconditions.problem}.`;
  else if (applicable.length === 0) summary = `No conditions apply to ${label}.`;
  else
    summary = `${plural(applicable.length, "condition")} ${applicable.length === 1 ? "applies" : "apply"} to ${label}: ${listIds(applicable.map((c) => c.id))}. ${
      unreachable.length
        ? `None was judged: the instructions ask only for ${unreachable.join(" and ")}, which no condition here covers.`
        : "None was judged, as the instructions ask."
    }`;
  return {
    summary,
    fulfilled_conditions: [],
    unfulfilled_conditions: [],
    applicable_conditions: applicable,
    missing_information: missing,
    recommendations: preconditions.ok
      ? applicable.length
        ? [
            unreachable.length
              ? `Check ${unreachable.join(" and ")} outside this evaluation, or ask for an evaluation of these conditions to have them judged against the borrower's documents`
              : "Ask for an evaluation of these conditions to have them judged against the borrower's documents",
          ]
        : []
      : [`Retry ${PRECONDITIONS}: without it nothing can be said about which conditions apply`],
  };
}

/**
 * Documents Conditions AI could not use (missing, unreadable, no text layer), unless a failed
 * retrieval already said so, and read documents of a kind no condition is judged on (its note).
 */
function documentProblems(steps: StepRecord[]): string[] {
  const reported = new Set(
    steps
      .filter((step) => step.tool === RETRIEVE && step.evidence?.status === "error")
      .map((step) => stringArg(step.args.s3_path)),
  );
  const out: string[] = [];
  for (const step of steps) {
    if (step.tool !== CONDITIONS_AI || step.evidence?.status !== "ok") continue;
    const documents = asRecord(step.evidence.output)?.documents;
    for (const entry of Array.isArray(documents) ? documents : []) {
      const record = asRecord(entry);
      const document = stringArg(record?.document);
      const status = stringArg(record?.status);
      const kindNote = stringArg(record?.kind_note);
      if (status === "read" && kindNote) out.push(kindNote);
      if (!document || !status || status === "read" || reported.has(document)) continue;
      reported.add(document);
      out.push(
        `${document} could not be used (${status.replaceAll("_", " ")})${record?.reason ? `: ${stringArg(record.reason)}` : ""}`,
      );
    }
  }
  return out;
}

function definedLabels(labels: ConditionLabels): ConditionLabels {
  return {
    ...(labels.title ? { title: labels.title } : {}),
    ...(labels.compartment ? { compartment: labels.compartment } : {}),
    ...(labels.priority !== undefined ? { priority: labels.priority } : {}),
  };
}

function stepRecords(plan: Plan, evidence: Evidence[]): StepRecord[] {
  const byStep = new Map(evidence.map((item) => [item.step_id, item]));
  const records: StepRecord[] = plan.steps.map((step) => {
    const item = byStep.get(step.id);
    byStep.delete(step.id);
    return { id: step.id, tool: step.tool, args: item?.args ?? step.args, evidence: item };
  });
  for (const item of byStep.values())
    records.push({ id: item.step_id, tool: item.tool, args: item.args ?? {}, evidence: item });
  return records;
}

function readPreconditions(steps: StepRecord[]): {
  ok: boolean;
  problem: string;
  loan: Record<string, string>;
  conditions: PredictedCondition[];
  /** Conditions that apply but that the instructions left out. */
  filteredOut: number;
} {
  const relevant = steps.filter((step) => step.tool === PRECONDITIONS);
  const loan: Record<string, string> = {};
  const conditions: PredictedCondition[] = [];
  let ok = false;
  let filteredOut = 0;
  for (const step of relevant) {
    const output = asRecord(step.evidence?.status === "ok" ? step.evidence.output : undefined);
    if (!output || !Array.isArray(output.conditions)) continue;
    ok = true;
    if (Array.isArray(output.filtered_out)) filteredOut += output.filtered_out.length;
    for (const key of ["loan_program", "classification"]) {
      const value = stringArg(output[key]);
      if (value) loan[key] = value;
    }
    for (const entry of output.conditions) {
      const record = asRecord(entry);
      const id = stringArg(record ? (record.id ?? record.condition_id) : entry);
      if (!id || conditions.some((c) => c.id === id)) continue;
      const reason = stringArg(record?.reason);
      conditions.push({ id, ...labelsOf(record), ...(reason ? { reason } : {}) });
    }
  }
  return {
    ok,
    problem: ok ? "" : stepProblem(PRECONDITIONS, relevant, "conditions"),
    loan,
    conditions,
    filteredOut,
  };
}

function readVerdicts(steps: StepRecord[]): { verdicts?: Verdict[]; source: string; problem: string } {
  const relevant = steps.filter((step) => step.tool === CONDITIONS_AI);
  const verdicts: Verdict[] = [];
  const sources: string[] = [];
  for (const step of relevant) {
    const output = asRecord(step.evidence?.status === "ok" ? step.evidence.output : undefined);
    if (!output || !Array.isArray(output.verdicts)) continue;
    sources.push(step.id);
    for (const entry of output.verdicts) {
      const verdict = toVerdict(entry);
      if (verdict) verdicts.push(verdict);
    }
  }
  const source = `${CONDITIONS_AI} (${sources.join(", ")})`;
  if (sources.length) return { verdicts, source, problem: "" };
  return { source, problem: stepProblem(CONDITIONS_AI, relevant, "verdicts") };
}

/** Why a tool's evidence is unusable, naming the step: the reason a loan officer reads. */
function stepProblem(tool: string, relevant: StepRecord[], field: string): string {
  if (relevant.length === 0) return `the plan had no ${tool} step`;
  const step = relevant[0] as StepRecord;
  if (!step.evidence) return `${tool} (${step.id}) did not run`;
  if (step.evidence.status === "error")
    return `${tool} (${step.id}) failed: ${step.evidence.error ?? "unknown error"}`;
  if (step.evidence.output === undefined && step.evidence.output_ref) {
    return `${tool} (${step.id}) output was not provided to the solver (stored at ${step.evidence.output_ref})`;
  }
  return `${tool} (${step.id}) returned no "${field}"`;
}

function toVerdict(entry: unknown): Verdict | undefined {
  const record = asRecord(entry);
  const id = stringArg(record?.condition_id ?? record?.id);
  if (!record || !id) return undefined;
  const raw = (stringArg(record.status) ?? "").toLowerCase().replace(/[\s-]+/g, "_");
  const known = raw === "fulfilled" || raw === "not_fulfilled" || raw === "insufficient_evidence";
  const reason = stringArg(record.reason);
  const citations: Verdict["citations"] = [];
  for (const citation of Array.isArray(record.citations) ? record.citations : []) {
    const c = asRecord(citation);
    const document = stringArg(c?.document);
    if (!c || !document) continue;
    citations.push({
      document,
      ...(typeof c.page === "number" ? { page: c.page } : {}),
      ...(typeof c.excerpt === "string" ? { excerpt: c.excerpt } : {}),
      ...ocrMarks(c),
    });
  }
  // An unknown status is not a verdict an officer can rely on: it never counts as fulfilled.
  const explained = known
    ? reason
    : `Conditions AI returned status "${raw || "none"}"${reason ? `: ${reason}` : ""}`;
  return {
    id,
    ...labelsOf(record),
    status: known ? (raw as Verdict["status"]) : "insufficient_evidence",
    ...(explained ? { reason: explained } : {}),
    citations,
    remedies: stringList(record.remedies),
    missing: stringList(record.missing),
  };
}

function labelsOf(record: Record<string, unknown> | undefined): ConditionLabels {
  const title = stringArg(record?.title);
  const compartment = stringArg(record?.compartment);
  const priority = record?.priority;
  return {
    ...(title ? { title } : {}),
    ...(compartment ? { compartment } : {}),
    ...(typeof priority === "string" || typeof priority === "number" ? { priority } : {}),
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.map(stringArg).filter((item): item is string => item !== undefined)
    : [];
}

function readHistory(steps: StepRecord[]): string | undefined {
  for (const step of steps) {
    if (step.tool !== DATABASE || step.evidence?.status !== "ok") continue;
    const output = asRecord(step.evidence.output);
    const message = stringArg(output?.message);
    if (!message) continue;
    const query = stringArg(output?.query) ?? stringArg(step.args.query) ?? "history";
    return `History (${query}): ${/[.!?]$/.test(message) ? message : `${message}.`}`;
  }
  return undefined;
}

function argHint(step: StepRecord): string {
  if (step.tool === RETRIEVE) return `(${stringArg(step.args.s3_path) ?? "?"})`;
  if (step.tool === DATABASE) return `(${stringArg(step.args.query) ?? "?"})`;
  return "";
}

function describeCondition(finding: ConditionFinding): string {
  return finding.title ? `"${finding.title}" (${finding.id})` : `condition ${finding.id}`;
}

function loanLabel(metadata: Record<string, unknown>): string {
  const parts = [stringArg(metadata.loan_program), stringArg(metadata.classification)].filter(Boolean);
  return parts.length ? parts.join(" / ") : "this loan";
}

function listIds(ids: string[]): string {
  if (ids.length <= SUMMARY_ID_LIMIT) return ids.join(", ");
  return `${ids.slice(0, SUMMARY_ID_LIMIT).join(", ")} and ${ids.length - SUMMARY_ID_LIMIT} more`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function stringArg(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim()) return value.trim();
  if (typeof value === "number") return String(value);
  return undefined;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// The `llm` tool

/**
 * Extractive, and labelled as such: the leading sentences of the prompt, whitespace-collapsed.
 * It does not reason; a plan that needs reasoning inside a step needs a real model.
 */
export function extractiveAnswer(prompt: string): string {
  const text = prompt.replace(/\s+/g, " ").trim();
  if (!text) return "rule-based summary: (empty prompt)";
  if (text.length <= TOOL_ANSWER_CHARS) return `rule-based summary: ${text}`;
  const head = text.slice(0, TOOL_ANSWER_CHARS);
  const sentenceEnd = Math.max(head.lastIndexOf(". "), head.lastIndexOf("! "), head.lastIndexOf("? "));
  const cut = sentenceEnd >= TOOL_ANSWER_CHARS / 2 ? head.slice(0, sentenceEnd + 1) : `${head.trimEnd()}…`;
  return `rule-based summary: ${cut}`;
}

/**
 * The planner's answer: one compact step per line, as the planner prompt's example asks of a model
 * (indentation is output tokens that carry nothing). Benchmarks replay exactly this text.
 */
export function plannerText(
  request: EvaluationRequest,
  tools: ToolCatalog,
  maxSteps: number,
  scope?: InstructionScope,
  replan?: ReplanContext,
): string {
  const steps = planFromRequest(request, tools, maxSteps, scope, replan);
  return `[\n${steps.map((step) => JSON.stringify(step)).join(",\n")}\n]`;
}

/**
 * The solver's answer in the prompt's short form, compact (benchmarks replay exactly this text):
 * a condition whose Conditions AI verdict it adopts as it stands is its id alone.
 */
export function solverText(request: EvaluationRequest, plan: Plan, evidence: Evidence[]): string {
  return JSON.stringify(shortSolverAnswer(solveFromEvidence(request, plan, evidence), { plan, evidence }));
}
