// The loan solver's answer (docs/api.openapi.yaml RunResult), read into the run's result. Models wrap JSON in fences or prose, drop empty
// arrays, or list a condition as a bare id; a run that gathered all its evidence must not fail on
// that, so parsing is lenient, records what it repaired as warnings, and never throws.
//
// A bare id is also the answer's short form (the solver prompt asks for it): a condition whose
// Conditions AI verdict the solver accepts as it stands is written as its id, and the verdict the
// solver read supplies its title, labels, status, reason and citations. Copying them cost the model
// most of its output tokens and added nothing: the record is the same as if it had copied them.

import { isDeepStrictEqual } from "node:util";
import * as z from "zod";
import type { ConditionFinding } from "../../contracts/run-result.ts";
import { balancedJsonEnd } from "../../core/embedded-json.ts";
import type { Clarification, Evidence, InputQuestion, Plan, RunResult } from "../../core/types.ts";

export const CitationSchema = z.object({
  document: z.string(),
  page: z.number().optional(),
  excerpt: z.string().optional(),
  source: z.literal("ocr").optional(),
  confidence: z.number().int().min(0).max(100).optional(),
});

export const ConditionFindingSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string().optional(),
  status: z.string().optional(),
  reason: z.string().optional(),
  citations: z.array(CitationSchema).optional(),
});

export const RunResultSchema = z.object({
  summary: z.string(),
  fulfilled_conditions: z.array(ConditionFindingSchema),
  unfulfilled_conditions: z.array(ConditionFindingSchema),
  missing_information: z.array(z.string()),
  recommendations: z.array(z.string()),
  applicable_conditions: z.array(ConditionFindingSchema).optional(),
  interpretation: z.string().optional(),
});

// Compile-time check that the schema and the contract in types.ts agree.
const _schemaMatchesContract: (value: z.infer<typeof RunResultSchema>) => RunResult = (value) => value;
void _schemaMatchesContract;

export interface ParsedSolverOutput {
  result: RunResult;
  warnings: string[];
}

const RESULT_KEYS = [
  "summary",
  "fulfilled_conditions",
  "unfulfilled_conditions",
  "missing_information",
  "recommendations",
] as const;

/** What the solver read: bare ids in its answer refer to this evidence, the plan's scope to its reading. */
export interface SolverInput {
  plan: Pick<Plan, "scope">;
  /** The evidence as the solver prompt showed it (the tools' solver views). */
  evidence: Evidence[];
}

export function parseSolverOutput(text: string, input?: SolverInput): ParsedSolverOutput {
  const warnings: string[] = [];
  const source = typeof text === "string" ? text : String(text ?? "");
  const found = findResultObject(source, warnings);
  if (!found) {
    warnings.push("solver output contained no result JSON object; using the whole text as the summary");
    return { result: emptyResult(source.trim()), warnings };
  }
  const result = normalizeResult(found, warnings, input ? conditionRecords(input.evidence) : undefined);
  // How the instructions were read is the planner's, not the solver's: it need not be repeated.
  const interpretation = input?.plan.scope?.interpretation;
  if (result.interpretation === undefined && interpretation) result.interpretation = interpretation;
  // A document of the wrong kind (a Form 1120-S sent for a Form 1120) is named in every answer.
  for (const note of input ? documentKindNotes(input.evidence) : []) {
    if (result.missing_information.some((item) => item.includes(note))) continue;
    result.missing_information.push(note);
    warnings.push(`solver output did not name a document of the wrong kind; added: ${note}`);
  }
  const checked = RunResultSchema.safeParse(result);
  if (!checked.success) {
    // normalizeResult should make this unreachable; keep the text rather than lose the answer.
    warnings.push(
      `solver output did not match the result schema (${checked.error.issues[0]?.message}); using the text as the summary`,
    );
    return { result: emptyResult(source.trim()), warnings };
  }
  return { result: checked.data, warnings };
}

function emptyResult(summary: string): RunResult {
  return {
    summary,
    fulfilled_conditions: [],
    unfulfilled_conditions: [],
    missing_information: [],
    recommendations: [],
  };
}

/** The first JSON object in the text that carries any of the result fields. */
function findResultObject(text: string, warnings: string[]): Record<string, unknown> | undefined {
  let sawOtherJson = false;
  for (const candidate of jsonCandidates(text)) {
    const parsed = parseLoose(candidate, warnings);
    if (!isRecord(parsed)) continue;
    const unwrapped = unwrapResult(parsed);
    if (RESULT_KEYS.some((key) => key in unwrapped)) return unwrapped;
    sawOtherJson = true;
  }
  if (sawOtherJson) warnings.push("solver JSON had none of the result fields");
  return undefined;
}

/** `{"result": {...}}` / `{"results": {...}}` — the shape of the solver progress event, which models imitate. */
function unwrapResult(value: Record<string, unknown>): Record<string, unknown> {
  if (RESULT_KEYS.some((key) => key in value)) return value;
  for (const key of ["result", "results", "answer"]) {
    const inner = value[key];
    if (isRecord(inner) && RESULT_KEYS.some((k) => k in inner)) return inner;
  }
  return value;
}

function* jsonCandidates(text: string): Generator<string> {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) yield trimmed;
  for (const match of text.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) {
    if (match[1]?.trim().startsWith("{")) yield match[1].trim();
  }
  yield* balancedObjects(text);
}

const MAX_BALANCED_CANDIDATES = 50;

/** Every `{...}` span balanced outside strings, scanning left to right; bounded against pathological text. */
function* balancedObjects(text: string): Generator<string> {
  let emitted = 0;
  let start = text.indexOf("{");
  while (start !== -1 && emitted < MAX_BALANCED_CANDIDATES) {
    const end = balancedJsonEnd(text, start);
    if (end !== -1) {
      emitted += 1;
      yield text.slice(start, end + 1);
    }
    start = text.indexOf("{", start + 1);
  }
}

function parseLoose(candidate: string, warnings: string[]): unknown {
  try {
    return JSON.parse(candidate);
  } catch {
    // Trailing commas are the most common near-JSON slip of models; nothing else is guessed.
    const repaired = candidate.replace(/,\s*([}\]])/g, "$1");
    if (repaired === candidate) return undefined;
    try {
      const value = JSON.parse(repaired);
      warnings.push("solver JSON had trailing commas; removed them");
      return value;
    } catch {
      return undefined;
    }
  }
}

function normalizeResult(
  raw: Record<string, unknown>,
  warnings: string[],
  records: ConditionRecords | undefined,
): RunResult {
  let summary: string;
  if (typeof raw.summary === "string") summary = raw.summary.trim();
  else if (raw.summary === undefined || raw.summary === null) {
    warnings.push('solver output had no "summary"');
    summary = "";
  } else {
    warnings.push('solver "summary" was not a string; converted it');
    summary = stringify(raw.summary);
  }
  const result: RunResult = {
    summary,
    fulfilled_conditions: normalizeConditions(raw, "fulfilled_conditions", warnings, records),
    unfulfilled_conditions: normalizeConditions(raw, "unfulfilled_conditions", warnings, records),
    missing_information: normalizeStrings(raw, "missing_information", warnings),
    recommendations: normalizeStrings(raw, "recommendations", warnings),
  };
  // Optional fields: kept when the solver wrote them, never invented.
  if (raw.applicable_conditions !== undefined && raw.applicable_conditions !== null) {
    result.applicable_conditions = normalizeConditions(raw, "applicable_conditions", warnings, records);
  }
  if (typeof raw.interpretation === "string" && raw.interpretation.trim()) {
    result.interpretation = raw.interpretation.trim();
  }
  return result;
}

function listField(raw: Record<string, unknown>, field: string, warnings: string[]): unknown[] {
  const value = raw[field];
  if (value === undefined || value === null) {
    warnings.push(`solver output had no "${field}"; using []`);
    return [];
  }
  if (Array.isArray(value)) return value;
  warnings.push(`solver "${field}" was not an array; wrapped it`);
  return [value];
}

function normalizeStrings(raw: Record<string, unknown>, field: string, warnings: string[]): string[] {
  const out: string[] = [];
  for (const item of listField(raw, field, warnings)) {
    if (item === null || item === undefined || item === "") continue;
    out.push(typeof item === "string" ? item : stringify(item));
  }
  return out;
}

function normalizeConditions(
  raw: Record<string, unknown>,
  field: FindingList,
  warnings: string[],
  records: ConditionRecords | undefined,
): ConditionFinding[] {
  const out: ConditionFinding[] = [];
  listField(raw, field, warnings).forEach((item, index) => {
    if (typeof item === "string" || typeof item === "number") {
      const id = String(item).trim();
      if (!id) warnings.push(`${field}[${index}] is an empty id; dropped it`);
      else if (!records) out.push({ id });
      else {
        const verdict = records.verdicts.get(id);
        if (field !== "applicable_conditions" && verdict && !agrees(verdict, field)) {
          warnings.push(
            `${field}[${index}] ${id}: the ${CONDITIONS_AI} verdict is ${verdict.status || "without a status"}; kept the id without its reason and citations`,
          );
        }
        out.push(findingFromRecords(id, field, records));
      }
      return;
    }
    if (!isRecord(item)) {
      warnings.push(`${field}[${index}] is not a condition object; dropped it`);
      return;
    }
    const id = firstString(item.id, item.condition_id, item.code, item.title);
    if (!id) {
      warnings.push(`${field}[${index}] has no id; dropped it`);
      return;
    }
    const { id: _id, condition_id: _cid, title, status, reason, citations, ...rest } = item;
    const finding: ConditionFinding = { ...rest, id };
    if (title !== undefined && title !== null) finding.title = stringify(title);
    if (status !== undefined && status !== null) finding.status = normalizeStatus(stringify(status));
    if (reason !== undefined && reason !== null) finding.reason = stringify(reason);
    if (citations !== undefined && citations !== null) finding.citations = normalizeCitations(citations);
    out.push(finding);
  });
  return out;
}

/** "Not Fulfilled" / "insufficient-evidence" → the snake_case statuses of the contract. */
function normalizeStatus(status: string): string {
  return status
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

// ---------------------------------------------------------------------------------------------------------
// The short form: a bare id and what the evidence says of it

const PRECONDITIONS = "call_preconditions_api";
const CONDITIONS_AI = "call_conditions_ai_api";
const VERDICT_STATUSES = new Set(["fulfilled", "not_fulfilled", "insufficient_evidence"]);

type FindingList = "fulfilled_conditions" | "unfulfilled_conditions" | "applicable_conditions";
type Citation = NonNullable<ConditionFinding["citations"]>[number];

interface Labels {
  title?: string;
  compartment?: string;
  priority?: string | number;
}

interface EngineVerdict extends Labels {
  status: string;
  reason?: string;
  citations: Citation[];
}

interface PredictedCondition extends Labels {
  reason?: string;
}

/** Per condition id, the first Conditions AI verdict and the first PreConditions prediction, in evidence order. */
interface ConditionRecords {
  verdicts: Map<string, EngineVerdict>;
  predicted: Map<string, PredictedCondition>;
}

function conditionRecords(evidence: Evidence[]): ConditionRecords {
  const verdicts = new Map<string, EngineVerdict>();
  const predicted = new Map<string, PredictedCondition>();
  for (const item of evidence) {
    if (item.status !== "ok" || !isRecord(item.output)) continue;
    if (item.tool === CONDITIONS_AI && Array.isArray(item.output.verdicts)) {
      for (const entry of item.output.verdicts) {
        if (!isRecord(entry)) continue;
        const id = firstString(entry.condition_id, entry.id);
        if (!id || verdicts.has(id)) continue;
        const status = normalizeStatus(firstString(entry.status) ?? "");
        const reason = firstString(entry.reason);
        verdicts.set(id, {
          ...labelsOf(entry),
          status,
          ...(reason ? { reason } : {}),
          citations: verdictCitations(entry.citations),
        });
      }
    }
    if (item.tool === PRECONDITIONS && Array.isArray(item.output.conditions)) {
      for (const entry of item.output.conditions) {
        const id = isRecord(entry) ? firstString(entry.id, entry.condition_id) : firstString(entry);
        if (!id || predicted.has(id)) continue;
        const reason = isRecord(entry) ? firstString(entry.reason) : undefined;
        predicted.set(id, { ...(isRecord(entry) ? labelsOf(entry) : {}), ...(reason ? { reason } : {}) });
      }
    }
  }
  return { verdicts, predicted };
}

/** Conditions AI's note on each read document of a kind no condition is judged on, in evidence order. */
function documentKindNotes(evidence: Evidence[]): string[] {
  const notes: string[] = [];
  for (const item of evidence) {
    if (item.tool !== CONDITIONS_AI || item.status !== "ok" || !isRecord(item.output)) continue;
    const documents = item.output.documents;
    for (const report of Array.isArray(documents) ? documents : []) {
      const note = isRecord(report) ? firstString(report.kind_note) : undefined;
      if (note && !notes.includes(note)) notes.push(note);
    }
  }
  return notes;
}

/**
 * A bare id in `list`, completed from what the solver read: the labels (the verdict's over the
 * prediction's), and the verdict's status, reason and citations when the list agrees with the
 * verdict (in applicable_conditions, the prediction's reason). A verdict of another status, or none,
 * leaves the finding with its labels only.
 */
function findingFromRecords(id: string, list: FindingList, records: ConditionRecords): ConditionFinding {
  const verdict = records.verdicts.get(id);
  const predicted = records.predicted.get(id);
  const labels = { ...definedLabels(predicted), ...definedLabels(verdict) };
  const finding: ConditionFinding = { id, ...labels };
  if (list === "applicable_conditions") {
    if (predicted?.reason) finding.reason = predicted.reason;
    return finding;
  }
  if (!verdict || !agrees(verdict, list)) return finding;
  if (verdict.status !== "fulfilled") finding.status = verdict.status;
  if (verdict.reason) finding.reason = verdict.reason;
  finding.citations = verdict.citations;
  return finding;
}

/** Whether a verdict belongs in `list`: fulfilled in fulfilled_conditions, not (with a known status) in unfulfilled_conditions. */
function agrees(verdict: EngineVerdict, list: FindingList): boolean {
  if (!VERDICT_STATUSES.has(verdict.status)) return false;
  return (verdict.status === "fulfilled") === (list === "fulfilled_conditions");
}

/**
 * The answer in its short form: each finding that its bare id reproduces exactly becomes that id,
 * and an interpretation equal to the plan's reading is left out. parseSolverOutput(…, input) of the
 * short form gives `result` back unchanged.
 */
export function shortSolverAnswer(result: RunResult, input: SolverInput): Record<string, unknown> {
  const records = conditionRecords(input.evidence);
  const shorten = (list: FindingList, findings: ConditionFinding[]) =>
    findings.map((finding) =>
      isDeepStrictEqual(findingFromRecords(finding.id, list, records), finding) ? finding.id : finding,
    );
  const { interpretation, applicable_conditions, ...rest } = result;
  return {
    ...rest,
    fulfilled_conditions: shorten("fulfilled_conditions", result.fulfilled_conditions),
    unfulfilled_conditions: shorten("unfulfilled_conditions", result.unfulfilled_conditions),
    ...(applicable_conditions
      ? { applicable_conditions: shorten("applicable_conditions", applicable_conditions) }
      : {}),
    ...(interpretation !== undefined && interpretation !== input.plan.scope?.interpretation
      ? { interpretation }
      : {}),
  };
}

function labelsOf(record: Record<string, unknown>): Labels {
  const title = firstString(record.title);
  const compartment = firstString(record.compartment);
  const { priority } = record;
  return {
    ...(title ? { title } : {}),
    ...(compartment ? { compartment } : {}),
    ...(typeof priority === "string" || typeof priority === "number" ? { priority } : {}),
  };
}

function definedLabels(labels: Labels | undefined): Labels {
  return {
    ...(labels?.title ? { title: labels.title } : {}),
    ...(labels?.compartment ? { compartment: labels.compartment } : {}),
    ...(labels?.priority !== undefined ? { priority: labels.priority } : {}),
  };
}

/** A verdict's citations as the engine wrote them: a document, and a numeric page and an excerpt when given. */
function verdictCitations(value: unknown): Citation[] {
  const out: Citation[] = [];
  for (const item of Array.isArray(value) ? value : []) {
    if (!isRecord(item)) continue;
    const document = firstString(item.document);
    if (!document) continue;
    out.push({
      document,
      ...(typeof item.page === "number" ? { page: item.page } : {}),
      ...(typeof item.excerpt === "string" ? { excerpt: item.excerpt } : {}),
      ...ocrMarks(item),
    });
  }
  return out;
}

/**
 * A citation of a page read by OCR keeps saying so, with the engine's confidence (0–100): people
 * are shown which evidence came from a scan. Anything else in `source` is dropped.
 */
export function ocrMarks(item: Record<string, unknown>): { source?: "ocr"; confidence?: number } {
  if (item.source !== "ocr") return {};
  const confidence = item.confidence;
  return typeof confidence === "number" && confidence >= 0 && confidence <= 100
    ? { source: "ocr", confidence: Math.round(confidence) }
    : { source: "ocr" };
}

function normalizeCitations(value: unknown): NonNullable<ConditionFinding["citations"]> {
  const items = Array.isArray(value) ? value : [value];
  const out: NonNullable<ConditionFinding["citations"]> = [];
  for (const item of items) {
    if (typeof item === "string" && item) {
      out.push({ document: item });
      continue;
    }
    if (!isRecord(item)) continue;
    // `source` names the document in some answers, but `source: "ocr"` says how its page was read.
    const named = item.source === "ocr" ? undefined : item.source;
    const document = firstString(item.document, item.path, named, item.s3_path);
    if (!document) continue;
    const citation: Citation = { document };
    const page = typeof item.page === "number" ? item.page : Number.parseInt(String(item.page ?? ""), 10);
    if (Number.isFinite(page)) citation.page = page;
    if (typeof item.excerpt === "string") citation.excerpt = item.excerpt;
    out.push({ ...citation, ...ocrMarks(item) });
  }
  return out;
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) {
    if (typeof value === "string" && value.trim()) return value.trim();
    if (typeof value === "number") return String(value);
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * After a question timed out: the conditions that waited for an answer say so in the result (their
 * verdicts are insufficient_evidence already: the input is still missing).
 */
export function noteUnanswered(result: RunResult, clarification: Clarification | undefined): RunResult {
  if (clarification?.status !== "timed_out") return result;
  const waiting = new Map<string, InputQuestion[]>();
  for (const question of clarification.questions) {
    for (const id of question.conditions) waiting.set(id, [...(waiting.get(id) ?? []), question]);
  }
  const note = (questions: InputQuestion[]) =>
    `asked for ${questions.map((question) => question.field).join(" and ")} at ${clarification.asked_at}; no answer came by ${clarification.deadline}`;
  const unfulfilled = result.unfulfilled_conditions.map((finding) => {
    const questions = waiting.get(finding.id.toUpperCase()) ?? waiting.get(finding.id);
    if (!questions) return finding;
    return {
      ...finding,
      reason: finding.reason ? `${finding.reason} (${note(questions)})` : note(questions),
    };
  });
  const asked = [...new Set(clarification.questions.map((question) => question.field))];
  return {
    ...result,
    unfulfilled_conditions: unfulfilled,
    missing_information: [
      ...result.missing_information,
      `no answer came to the question for ${asked.join(", ")} (asked ${clarification.asked_at}, waited until ${clarification.deadline})`,
    ],
  };
}
