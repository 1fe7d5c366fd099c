// Rendering of everything except the DAG. Each function fills a container from the derived view;
// all data goes through text nodes (see dom.js).
import { PLANNER_ID, SOLVER_ID } from "./dag.js";
import {
  citationOcr,
  documentOcr,
  documentReports,
  fieldOcrConfidence,
  kindLabel,
  ocrSummary,
  ocrTag,
  ocrTagTitle,
} from "./documents.js";
import {
  formatDateTime,
  formatDuration,
  formatNumber,
  formatRelative,
  formatTime,
  h,
  prettyJson,
  replace,
} from "./dom.js";
import {
  applicableFindings,
  groupFindings,
  interpretationOf,
  judgedFindings,
  priorityLabel,
  priorityLevel,
  replanSummary,
  reviewSummary,
} from "./findings.js";
import { downloadVerdicts, summaryHash } from "./verdict-export.js";

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

const isWaiting = (status) => status === "AWAITING_INPUT" || status === "AWAITING_APPROVAL";

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

function verdictLabel(status) {
  return Object.hasOwn(VERDICT_LABEL, status) ? VERDICT_LABEL[status] : String(status).replaceAll("_", " ");
}

/** A banking assistant's run (no loan program) is named by what the customer asked for. */
function bankingIntentOf(request) {
  const m = request?.metadata ?? {};
  return !m.loan_program && typeof m.intent === "string" ? m.intent.replaceAll("_", " ") : null;
}

function programOf(request) {
  const m = request?.metadata ?? {};
  const intent = bankingIntentOf(request);
  if (intent) return `Banking assistant · ${intent}`;
  return [m.loan_program, m.classification].filter(Boolean).join(" · ") || "Loan file";
}

// ---------------------------------------------------------------------------------------------
// Runs list

export function renderRunList(el, { runs, selectedId, listAvailable, error }) {
  const note = listAvailable
    ? null
    : h(
        "p",
        { class: "muted small", dataset: { testid: "no-run-list" } },
        "No run list on this API: runs opened here are listed. Open another by its id below.",
      );
  const waiting = runs.filter((run) => isWaiting(run.status)).length;
  const waitingNote = waiting
    ? h(
        "p",
        { class: "waiting-note small", role: "status", dataset: { testid: "runs-waiting" } },
        `${waiting} ${waiting === 1 ? "run waits" : "runs wait"} for a person`,
      )
    : null;
  let body;
  if (runs.length === 0) {
    body = listAvailable ? h("p", { class: "muted small" }, error || "No runs yet. Start the sample.") : null;
  } else {
    body = h(
      "ul",
      { class: "run-list" },
      runs.map((run) =>
        h(
          "li",
          {},
          h(
            "a",
            {
              href: `#/runs/${encodeURIComponent(run.run_id)}`,
              class: `run-item${run.run_id === selectedId ? " selected" : ""}${isWaiting(run.status) ? " run-item-waiting" : ""}`,
              "aria-current": run.run_id === selectedId ? "page" : null,
              dataset: { testid: `run-item-${run.run_id}` },
            },
            h(
              "span",
              { class: "run-item-top" },
              h(
                "span",
                { class: "run-item-program" },
                bankingIntentOf(run.request)
                  ? "Banking assistant"
                  : (run.request?.metadata?.loan_program ?? "Loan file"),
              ),
              runStatusBadge(run.status, { class: `badge badge-sm run-${String(run.status).toLowerCase()}` }),
            ),
            h(
              "span",
              { class: "run-item-class" },
              bankingIntentOf(run.request) ?? run.request?.metadata?.classification ?? "",
            ),
            loanNumberOf(run)
              ? h(
                  "span",
                  { class: "run-item-loan mono", dataset: { testid: `run-loan-${run.run_id}` } },
                  `Loan ${loanNumberOf(run)}`,
                )
              : null,
            h(
              "span",
              { class: "run-item-meta" },
              h(
                "time",
                { datetime: run.created_at, title: formatDateTime(run.created_at) },
                formatRelative(run.created_at),
              ),
              h("span", { class: "mono" }, shortRunId(run.run_id)),
              run.cost
                ? h(
                    "span",
                    {
                      class: "run-item-cost",
                      title: "Estimated cost of the run (LLM, Step Functions, Lambda)",
                      dataset: { testid: `run-cost-${run.run_id}` },
                    },
                    `≈ ${formatUsd(run.cost.total)}`,
                  )
                : null,
            ),
          ),
        ),
      ),
    );
  }
  return replace(el, note, waitingNote, body);
}

/** The loan number the list shows: the API's `loan_number`, or the request's metadata for runs listed locally. */
function loanNumberOf(run) {
  const value = run.loan_number ?? run.request?.metadata?.loan_number;
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

function shortRunId(runId) {
  // run-20261121223539-01d82d25 → …01d82d25: the random suffix is what tells runs apart.
  const match = /-([0-9a-f]{6,})$/i.exec(runId);
  return match ? `…${match[1]}` : runId;
}

// ---------------------------------------------------------------------------------------------
// Run header and KPIs

export function renderRunHeader(el, view, { onCancel, cancelling }) {
  const request = view.request;
  const documents = request?.s3_pdf_paths ?? [];
  const started = Date.parse(view.created_at);
  const ended = view.terminal ? Date.parse(view.updated_at) : Number.NaN;
  const finishedSteps = view.steps.filter((st) => st.status === "completed" || st.status === "failed").length;
  const result = view.result;
  const judged = judgedFindings(result);
  const fulfilled = judged.filter((c) => c.status === "fulfilled").length;
  const unfulfilled = judged.length - fulfilled;
  const applicable = applicableFindings(result);
  const onlyApplicable = Boolean(result) && judged.length === 0 && applicable !== null;
  const usage = view.usage;

  replace(
    el,
    h(
      "div",
      { class: "run-title-row" },
      h(
        "div",
        {},
        h("p", { class: "eyebrow" }, "Run"),
        h("h2", { class: "run-title", id: "run-title" }, programOf(request)),
        h(
          "p",
          { class: "run-ids" },
          h("span", { class: "mono", dataset: { testid: "run-id" } }, view.runId),
          view.created_at ? h("span", {}, ` · started ${formatDateTime(view.created_at)}`) : null,
          Number.isFinite(ended) && Number.isFinite(started)
            ? h("span", {}, ` · took ${formatDuration(ended - started)}`)
            : null,
        ),
      ),
      h(
        "div",
        { class: "run-actions" },
        view.replans > 0
          ? h(
              "span",
              {
                class: "badge badge-replans",
                title: (view.replanEvents ?? []).map((e) => e.reason).join("\n") || null,
                dataset: { testid: "run-replans" },
              },
              `replanned ×${view.replans}`,
            )
          : null,
        runStatusBadge(view.status, {
          class: `badge badge-lg run-${view.status.toLowerCase()}`,
          dataset: { testid: "run-status" },
        }),
        view.terminal || !view.created_at
          ? null
          : h(
              "button",
              {
                type: "button",
                class: "btn btn-ghost",
                onClick: onCancel,
                disabled: cancelling,
                dataset: { testid: "cancel-run" },
              },
              cancelling ? "Cancelling…" : "Cancel run",
            ),
      ),
    ),
    request?.instructions ? h("p", { class: "instructions" }, request.instructions) : null,
    documents.length
      ? h(
          "ul",
          { class: "doc-chips", "aria-label": "Documents" },
          documents.map((d) => h("li", { class: "chip mono", title: d }, d)),
        )
      : null,
    rejectionNote(view),
    // A rejected run's `error` is the rejection note's reason again.
    view.error && view.status !== "REJECTED"
      ? h(
          "div",
          { class: "alert alert-error", role: "alert" },
          h("strong", {}, view.error.error ?? "Error"),
          view.error.cause ? h("span", {}, `: ${view.error.cause}`) : null,
        )
      : null,
    h(
      "dl",
      { class: "kpis" },
      kpi(
        "Steps",
        view.plan ? `${finishedSteps}/${view.steps.length}` : "—",
        view.plan ? `${view.plan.levels?.length ?? 0} levels` : "planning",
        "kpi-steps",
      ),
      kpi(
        "Verdicts",
        ...verdictsKpi(view, { judged, fulfilled, unfulfilled, applicable, onlyApplicable }),
        "kpi-verdicts",
      ),
      kpi(
        "Reviews",
        view.planReview || view.resultReview
          ? [view.planReview, view.resultReview].map((r) => (r ? `${r.score}` : "—")).join(" · ")
          : "—",
        view.planReview || view.resultReview
          ? `plan · result${[view.planReview, view.resultReview].some((r) => r && !r.approved) ? " · needs review" : ""}`
          : "plan · result",
        "kpi-reviews",
        [
          view.planReview ? reviewSummary("plan", view.planReview) : null,
          view.resultReview ? reviewSummary("result", view.resultReview) : null,
        ]
          .filter(Boolean)
          .join("\n") || undefined,
      ),
      kpi("LLM calls", usage ? formatNumber(usage.llm_calls) : "—", "planner + solver", "kpi-llm-calls"),
      kpi(
        "Tokens",
        usage ? formatNumber(usage.input_tokens + usage.output_tokens) : "—",
        usage ? `${formatNumber(usage.input_tokens)} in · ${formatNumber(usage.output_tokens)} out` : "",
        "token-usage",
      ),
      costKpi(view),
    ),
  );
}

/** USD with three significant digits: a run costs fractions of a cent, which "$0.00" would hide. */
export function formatUsd(amount) {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return "—";
  if (amount === 0) return "$0";
  return `$${amount.toLocaleString("en-US", amount >= 1 ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : { maximumSignificantDigits: 3 })}`;
}

/** The run's estimated cost, stored when it ended (docs/cost.md): the total, its parts, what they count. */
function costKpi(view) {
  const cost = view.cost;
  if (!cost)
    return kpi("Cost (estimate)", "—", view.terminal ? "not estimated" : "when the run ends", "kpi-cost");
  const { llm, step_functions: sfn, lambda } = cost.breakdown ?? {};
  const title = [
    `Estimated, prices as of ${cost.prices_as_of ?? "?"}; API Gateway, DynamoDB, S3 and Textract not counted.`,
    llm
      ? `LLM ${formatUsd(cost.llm)}: ${formatNumber(llm.input_tokens)} in × $${llm.input_per_million}/M + ${formatNumber(llm.output_tokens)} out × $${llm.output_per_million}/M${llm.priced_as ? ` (${llm.priced_as})` : ""}`
      : null,
    llm?.unpriced_models?.length ? `No price for ${llm.unpriced_models.join(", ")}: counted as free.` : null,
    sfn
      ? `Step Functions ${formatUsd(cost.step_functions)}: ${formatNumber(sfn.transitions)} transitions`
      : null,
    lambda
      ? `Lambda ${formatUsd(cost.lambda)}: ${formatNumber(lambda.requests)} requests, ${formatNumber(Number(lambda.gb_seconds.toFixed(3)))} GB-s`
      : null,
  ]
    .filter(Boolean)
    .join("\n");
  return kpi(
    "Cost (estimate)",
    `≈ ${formatUsd(cost.total)}`,
    `LLM ${formatUsd(cost.llm)} · Step Functions ${formatUsd(cost.step_functions)} · Lambda ${formatUsd(cost.lambda)}`,
    "kpi-cost",
    title,
  );
}

/** The Verdicts figure and its note. A result that judged nothing (a rejected plan) is not "all fulfilled". */
function verdictsKpi(view, { judged, fulfilled, unfulfilled, applicable, onlyApplicable }) {
  if (onlyApplicable) return ["—", `${applicable.length} apply · not judged`];
  if (!view.result) return ["—", view.terminal ? "no result" : "pending"];
  if (judged.length === 0) return ["—", "nothing judged"];
  return [
    `${fulfilled}/${fulfilled + unfulfilled}`,
    unfulfilled ? `${unfulfilled} need attention` : "all fulfilled",
  ];
}

/** Why a REJECTED run ended: an operator's reason, or no decision before the deadline. */
function rejectionNote(view) {
  if (view.status !== "REJECTED") return null;
  const approval = view.approval;
  const text =
    approval?.status === "timed_out"
      ? `No one approved the plan before its deadline${approval.deadline ? ` (${formatDateTime(approval.deadline)})` : ""}; no tool ran.`
      : `An operator rejected the plan${approval?.reason ? `: ${approval.reason}` : ""}. No tool ran.`;
  return h("div", { class: "alert alert-warn", dataset: { testid: "run-rejection" } }, text);
}

function kpi(label, value, note, testid, title) {
  return h(
    "div",
    { class: "kpi", dataset: { testid }, ...(title ? { title } : {}) },
    h("dt", {}, label),
    h(
      "dd",
      {},
      h("span", { class: "kpi-value" }, value),
      note ? h("span", { class: "kpi-note" }, note) : null,
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Step details (evidence)

export function renderDetails(el, view, selectedId, { onSelect }) {
  if (!selectedId) {
    return replace(
      el,
      h("p", { class: "muted" }, "Select a step in the plan to see its arguments and evidence."),
    );
  }
  if (selectedId === PLANNER_ID) return replace(el, ...plannerDetails(view));
  if (selectedId === SOLVER_ID) return replace(el, ...solverDetails(view));
  const step = view.steps.find((st) => st.id === selectedId);
  if (!step) return replace(el, h("p", { class: "muted" }, `No step ${selectedId} in this plan.`));
  const evidence = step.evidence;
  return replace(
    el,
    h(
      "div",
      { class: "details-head" },
      h("h3", {}, h("span", { class: "mono" }, step.id), " · ", h("span", { class: "mono tool" }, step.tool)),
      h("span", { class: `badge step-${step.status}`, dataset: { testid: "details-status" } }, step.status),
    ),
    step.description ? h("p", { class: "description" }, step.description) : null,
    h(
      "dl",
      { class: "facts" },
      fact("Level", String(step.level)),
      fact(
        "Depends on",
        step.depends_on.length
          ? step.depends_on.map((id) =>
              h("button", { type: "button", class: "link mono", onClick: () => onSelect(id) }, id),
            )
          : "—",
      ),
      fact("Duration", formatDuration(step.duration_ms) || (step.status === "running" ? "running…" : "—")),
      fact(
        "Started",
        evidence?.started_at
          ? formatTime(evidence.started_at)
          : step.started_at
            ? formatTime(step.started_at)
            : "—",
      ),
    ),
    step.error
      ? h(
          "div",
          { class: "alert alert-error", role: "alert", dataset: { testid: "evidence-error" } },
          h("strong", {}, "Tool error: "),
          step.error,
        )
      : null,
    evidence?.upstream_errors?.length
      ? h(
          "div",
          { class: "alert alert-warn" },
          h("strong", {}, "Upstream errors: "),
          h(
            "ul",
            {},
            evidence.upstream_errors.map((e) => h("li", {}, e)),
          ),
        )
      : null,
    evidence
      ? [
          evidence.output_ref
            ? h(
                "p",
                { class: "small" },
                "Output too large for the run record, stored at ",
                h("span", { class: "mono" }, evidence.output_ref),
              )
            : null,
          documentsRead(evidence.output),
          evidence.output !== undefined ? codeBlock("Output", evidence.output, "evidence-json", true) : null,
          codeBlock(
            evidence.args ? "Arguments (placeholders resolved)" : "Arguments",
            evidence.args ?? step.args,
            "evidence-args",
            false,
          ),
        ]
      : [
          h(
            "p",
            { class: "muted small" },
            step.status === "running"
              ? "Running: evidence appears when the step finishes."
              : "No evidence yet.",
          ),
          codeBlock("Arguments (as planned)", step.args, "evidence-args", false),
        ],
  );
}

function plannerDetails(view) {
  const plan = view.plan;
  return [
    h(
      "div",
      { class: "details-head" },
      h("h3", {}, "Planner"),
      h("span", { class: `badge step-${view.planStage}` }, view.planStage),
    ),
    h(
      "p",
      { class: "description" },
      plan
        ? `One LLM call wrote ${plan.steps.length} tool calls in ${plan.levels.length} dependency levels; the worker runs each level's steps in parallel, without the LLM.`
        : "Waiting for the planner's single LLM call.",
    ),
    view.replanEvents?.length
      ? h(
          "div",
          { class: "alert alert-warn", dataset: { testid: "planner-replans" } },
          h(
            "strong",
            {},
            `Planned again ${view.replanEvents.length === 1 ? "once" : `${view.replanEvents.length} times`} after a required step failed; the plan shown is the latest:`,
          ),
          h(
            "ul",
            {},
            view.replanEvents.map((e) => h("li", {}, describeEvent(e))),
          ),
        )
      : null,
    plan?.repairs?.length
      ? h(
          "div",
          { class: "alert alert-warn" },
          h("strong", {}, "Validation repaired the plan:"),
          h(
            "ul",
            {},
            plan.repairs.map((r) => h("li", {}, r.message)),
          ),
        )
      : null,
    plan ? codeBlock("Plan", plan, "plan-json", true) : null,
  ];
}

function solverDetails(view) {
  return [
    h(
      "div",
      { class: "details-head" },
      h("h3", {}, "Solver"),
      h("span", { class: `badge step-${view.solverStage}` }, view.solverStage),
    ),
    h(
      "p",
      { class: "description" },
      "One LLM call reads the request, the plan and all evidence, and writes a verdict per condition.",
    ),
    view.result
      ? codeBlock("Result", view.result, "result-json", true)
      : h("p", { class: "muted small" }, "No result yet."),
  ];
}

/**
 * Conditions AI's report of each document: whether it was read and, for a return or a statement,
 * each field the checks read: where it was found (page, excerpt, how, how sure) or why not.
 */
function documentsRead(output) {
  const reports = documentReports(output);
  if (reports.length === 0) return null;
  return h(
    "section",
    { class: "documents-read", dataset: { testid: "documents-read" } },
    h("h4", {}, "Documents read"),
    reports.map((report) =>
      h(
        "div",
        {
          class: "document-report",
          dataset: {
            testid: "document-report",
            document: report.document,
            ocrEngine: documentOcr(report)?.engine ?? undefined,
          },
        },
        h(
          "p",
          {},
          h("span", { class: "mono" }, report.document),
          " ",
          h("span", { class: `badge document-${report.status}` }, String(report.status ?? "unknown")),
          report.extraction?.kind
            ? h("span", { class: "muted small" }, ` ${kindLabel(report.extraction.kind)}`)
            : null,
        ),
        report.reason ? h("p", { class: "small muted" }, report.reason) : null,
        ocrLine(report),
        Array.isArray(report.extraction?.fields) && report.extraction.fields.length
          ? fieldTable(report.extraction.fields)
          : null,
      ),
    ),
  );
}

/**
 * How the pages without a text layer were read (engine, pages, time, mean confidence), so whoever
 * checks the verdicts knows which pages came from a scan.
 */
function ocrLine(report) {
  const summary = ocrSummary(report);
  if (!summary) return null;
  return h(
    "p",
    { class: "small ocr-summary", dataset: { testid: "document-ocr" } },
    `${summary.charAt(0).toUpperCase()}${summary.slice(1)}`,
  );
}

/** The "OCR 93%" badge of a citation or a field read from an OCR page; its title says what it means. */
function ocrBadge(page, confidence) {
  return h(
    "span",
    {
      class: "badge badge-sm badge-ocr",
      title: ocrTagTitle(page, confidence),
      dataset: { testid: "ocr-badge", confidence: confidence === null ? undefined : String(confidence) },
    },
    ocrTag(confidence),
  );
}

function fieldTable(fields) {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "fields" },
      h("caption", { class: "visually-hidden" }, "Fields the checks read"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Field", "Found", "Where", "How"].map((t) => h("th", { scope: "col", class: "field-cell" }, t)),
        ),
      ),
      h(
        "tbody",
        {},
        fields.map((f) => {
          // Only a found field carries a reading, and so an OCR confidence.
          const ocr = f.found === true ? fieldOcrConfidence(f) : null;
          return h(
            "tr",
            {
              dataset: {
                testid: `field-${f.field}`,
                found: String(f.found === true),
                source: f.source ?? undefined,
                ocrConfidence: ocr === null ? undefined : String(ocr),
              },
            },
            h("td", { class: "field-cell mono" }, String(f.field)),
            h(
              "td",
              { class: "field-cell" },
              f.found === true
                ? [h("span", { class: "badge verdict-fulfilled" }, "found"), f.value ? ` ${f.value}` : ""]
                : h("span", { class: "badge verdict-insufficient_evidence" }, "not found"),
            ),
            h(
              "td",
              { class: "field-cell small" },
              f.found === true
                ? [
                    f.page ? `p.${f.page} ` : "",
                    ocr === null ? null : [ocrBadge(f.page, ocr), " "],
                    f.excerpt ? h("q", {}, f.excerpt) : "",
                  ]
                : (f.note ?? ""),
            ),
            h(
              "td",
              { class: "field-cell small" },
              f.found === true
                ? `${f.source === "model" ? "model (quote verified)" : (f.source ?? "")}${typeof f.confidence === "number" ? ` · ${Math.round(f.confidence * 100)}%` : ""}${f.note ? ` · ${f.note}` : ""}`
                : "",
            ),
          );
        }),
      ),
    ),
  );
}

function fact(label, value) {
  return h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value));
}

function codeBlock(label, value, testid, open) {
  return h(
    "details",
    { class: "code", open },
    h("summary", {}, label),
    h("pre", { tabindex: 0, dataset: { testid } }, h("code", {}, prettyJson(value))),
  );
}

// ---------------------------------------------------------------------------------------------
// Result

/**
 * The verdicts card. `onOpenCitation(citation, button)`: when given (pdf.js is available), each
 * citation is a button opening its page; without it citations are plain text.
 */
export function renderResult(el, view, { onOpenCitation = null } = {}) {
  const result = view.result;
  if (!result) {
    const text = view.terminal
      ? "This run ended without a result."
      : "The verdicts appear here when the solver has finished.";
    return replace(el, h("p", { class: "muted" }, text));
  }
  const interpretation = interpretationOf(result);
  const judged = judgedFindings(result);
  const applicable = applicableFindings(result);
  let tone = judged.some((c) => c.status !== "fulfilled") ? "summary-attention" : "summary-ok";
  if (judged.length === 0 && applicable !== null) tone = "summary-info";
  // Nothing judged and nothing listed: a run that ended before any verdict (a rejected plan).
  else if (judged.length === 0) tone = view.status === "SUCCEEDED" ? "summary-info" : "summary-attention";

  return replace(
    el,
    interpretation
      ? h(
          "p",
          { class: "interpretation", dataset: { testid: "result-interpretation" } },
          h("span", { class: "interpretation-label" }, "Instructions read as"),
          interpretation,
        )
      : null,
    h("p", { class: `summary ${tone}`, dataset: { testid: "result-summary" } }, result.summary),
    // A result that only lists the applicable conditions, or judged nothing, has no verdicts to tabulate.
    judged.length ? verdictTable(judged, onOpenCitation) : null,
    applicable === null ? null : applicableTable(applicable),
    h(
      "div",
      { class: "result-lists" },
      listSection(
        "Missing information",
        result.missing_information,
        "missing-information",
        "Nothing missing.",
      ),
      listSection("Recommendations", result.recommendations, "recommendations", "No recommendations."),
    ),
    // Last, after what they export: the JSON file and the page to print.
    exportActions(view),
  );
}

/** "Download JSON" and "Printable summary" (verdict-export.js) for a run with a result. */
function exportActions(view) {
  return h(
    "div",
    { class: "verdict-export", role: "group", "aria-label": "Export the verdicts" },
    h(
      "button",
      {
        type: "button",
        class: "btn",
        onClick: () => downloadVerdicts(view),
        dataset: { testid: "download-json" },
      },
      h("span", { "aria-hidden": "true" }, "⤓ "),
      "Download JSON",
    ),
    h(
      "a",
      { class: "btn", href: summaryHash(view.runId), dataset: { testid: "printable-summary" } },
      h("span", { "aria-hidden": "true" }, "⎙ "),
      "Printable summary",
    ),
  );
}

/** One row group per compartment (most urgent first), each headed by its name and tally. */
function verdictTable(findings, onOpenCitation) {
  const { grouped, groups } = groupFindings(findings);
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "verdicts", dataset: { testid: "verdicts", grouped: String(grouped) } },
      h("caption", { class: "visually-hidden" }, "Verdict per condition"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Condition", "Status", "Reason", "Citations"].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      groups.map((group) =>
        h(
          "tbody",
          groupProps("verdict-group", group),
          grouped
            ? groupHeading(
                group,
                4,
                `${group.findings.filter((c) => c.status === "fulfilled").length} of ${group.findings.length} fulfilled`,
              )
            : null,
          group.findings.map((c) =>
            h(
              "tr",
              {
                dataset: {
                  testid: `verdict-${c.id}`,
                  status: c.status,
                  compartment: group.compartment ?? undefined,
                  priority: priorityLevel(c.priority),
                },
              },
              conditionHeader(c),
              h("td", {}, h("span", { class: `badge verdict-${c.status}` }, verdictLabel(c.status))),
              h("td", { class: "reason" }, c.reason ?? ""),
              h("td", { class: "citations" }, citationList(c.citations, onOpenCitation, c.id)),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The conditions that apply when the officer asked which do: nothing judged, so no status. */
function applicableTable(findings) {
  const { grouped, groups } = groupFindings(findings);
  return h(
    "section",
    { class: "applicable", dataset: { testid: "applicable-conditions" } },
    h("h3", {}, "Conditions that apply (not judged)"),
    findings.length === 0
      ? h("p", { class: "muted small" }, "No condition applies to this loan file.")
      : h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "verdicts applicable-table", dataset: { grouped: String(grouped) } },
            h("caption", { class: "visually-hidden" }, "Conditions that apply, not judged"),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["Condition", "Why it applies"].map((t) => h("th", { scope: "col" }, t)),
              ),
            ),
            groups.map((group) =>
              h(
                "tbody",
                groupProps("applicable-group", group),
                grouped ? groupHeading(group, 2, `${group.findings.length} apply`) : null,
                group.findings.map((c) =>
                  h(
                    "tr",
                    {
                      dataset: {
                        testid: `applicable-${c.id}`,
                        compartment: group.compartment ?? undefined,
                        priority: priorityLevel(c.priority),
                      },
                    },
                    conditionHeader(c),
                    h("td", { class: "reason" }, c.reason ?? ""),
                  ),
                ),
              ),
            ),
          ),
        ),
  );
}

function groupProps(testid, group) {
  return {
    class: "finding-group",
    dataset: {
      testid: `${testid}-${group.compartment ?? "other"}`,
      compartment: group.compartment ?? undefined,
    },
  };
}

function groupHeading(group, columns, tally) {
  return h(
    "tr",
    { class: "group-row" },
    h(
      "th",
      { scope: "rowgroup", colspan: columns },
      h("span", { class: "group-name" }, group.compartment ?? "Other"),
      h("span", { class: "group-tally" }, tally),
    ),
  );
}

function conditionHeader(c) {
  const tag = priorityLabel(c.priority);
  return h(
    "th",
    { scope: "row" },
    h(
      "span",
      { class: "cond-head" },
      h("span", { class: "mono cond-id" }, String(c.id)),
      tag
        ? h(
            "span",
            {
              class: `priority-tag priority-${priorityLevel(c.priority)}`,
              title: `Priority: ${tag}`,
              dataset: { testid: `priority-${c.id}` },
            },
            tag,
          )
        : null,
    ),
    c.title ? h("span", { class: "cond-title" }, c.title) : null,
  );
}

/**
 * A finding's citations. With `onOpen` (the PDF viewer), each one with a document is a button
 * "Open page N of <document>"; its `data-citation-key` (condition and position) lets the viewer give
 * focus back to the same citation after the view was drawn again.
 */
function citationList(citations, onOpen = null, conditionId = "") {
  if (!Array.isArray(citations) || citations.length === 0) return h("span", { class: "muted" }, "—");
  return h(
    "ul",
    {},
    citations.map((cit, index) => {
      const ocr = citationOcr(cit);
      const where = [
        h("span", { class: "mono cite-doc" }, cit.document),
        cit.page !== undefined ? h("span", { class: "cite-page" }, ` p.${cit.page}`) : null,
      ];
      const openable = typeof onOpen === "function" && typeof cit?.document === "string" && cit.document;
      const page = Number.isInteger(cit.page) ? `page ${cit.page} of ` : "";
      return h(
        "li",
        { dataset: { source: ocr ? "ocr" : undefined } },
        openable
          ? h(
              "button",
              {
                type: "button",
                class: "cite-open",
                "aria-haspopup": "dialog",
                dataset: { testid: "citation-open", citationKey: `${conditionId}#${index}` },
                onClick: (event) => onOpen(cit, event.currentTarget),
              },
              `Open ${page}`,
              h("span", { class: "mono cite-doc" }, cit.document),
            )
          : where,
        ocr ? [" ", ocrBadge(cit.page, ocr.confidence)] : null,
        cit.excerpt ? [": ", h("q", {}, cit.excerpt)] : null,
      );
    }),
  );
}

function listSection(title, items, testid, empty) {
  return h(
    "section",
    { class: "result-list", dataset: { testid } },
    h("h3", {}, title),
    items?.length
      ? h(
          "ul",
          {},
          items.map((i) => h("li", {}, typeof i === "string" ? i : JSON.stringify(i))),
        )
      : h("p", { class: "muted small" }, empty),
  );
}

// ---------------------------------------------------------------------------------------------
// Activity (progress events)

/** One line of the activity log. `afterReplan`: a plan event that follows a replan is the new plan. */
export function describeEvent(event, { afterReplan = false } = {}) {
  const suffix = event.truncated ? " (details in the run record)" : "";
  switch (event.stage) {
    case "plan": {
      const plan = event.plan;
      const name = afterReplan ? "New plan" : "Plan";
      return plan?.steps
        ? `${name}: ${plan.steps.length} steps in ${plan.levels?.length ?? "?"} levels${plan.repairs?.length ? ` (${plan.repairs.length} repaired)` : ""}`
        : `${name} written${suffix}`;
    }
    case "worker": {
      const head = `${event.step} ${event.tool} (level ${event.level})`;
      if (event.status === "started") return `${head} started`;
      if (event.status === "completed") return `${head} completed in ${formatDuration(event.duration_ms)}`;
      return `${head} failed${event.error ? `: ${event.error}` : ""}`;
    }
    case "solver":
      return event.status === "started"
        ? "Solver started"
        : `Solver completed${event.results?.summary ? `: ${event.results.summary}` : suffix}`;
    case "resume":
      return `Resumed (attempt ${event.attempt}): ${event.reason}`;
    case "replan":
      return describeReplan(event);
    case "review": {
      const summary = reviewSummary(event.target === "result" ? "result" : "plan", event);
      return summary.charAt(0).toUpperCase() + summary.slice(1);
    }
    case "question":
      return describeQuestion(event);
    case "answer": {
      const fields = Array.isArray(event.fields) ? event.fields.join(", ") : "";
      return event.status === "timed_out"
        ? `No answer before the deadline${fields ? ` for ${fields}` : ""}: going on without it`
        : `Answered${fields ? `: ${fields}` : ""}; the run continues`;
    }
    case "approval":
      return describeApproval(event);
    case "complete":
      return `Run ${event.status}${event.error ? `: ${event.error}` : ""}`;
    default:
      return `${event.stage ?? "event"}${suffix}`;
  }
}

/** "Asked for borrower_info.monthly_income (for BS_LARGE_DEPOSITS), answer by …". */
function describeQuestion(event) {
  const questions = Array.isArray(event.questions) ? event.questions : [];
  const asked = questions
    .map((q) => (q.conditions?.length ? `${q.field} (for ${q.conditions.join(", ")})` : q.field))
    .join("; ");
  const by = event.deadline ? `; answer by ${formatDateTime(event.deadline)}` : "";
  return `Asked for ${asked || "input"}${by}`;
}

function describeApproval(event) {
  const reason = event.reason ? `: ${event.reason}` : "";
  switch (event.status) {
    case "pending":
      return `Plan waits for approval${event.deadline ? ` until ${formatDateTime(event.deadline)}` : ""}`;
    case "approved":
      return `Plan approved${reason}`;
    case "edited":
      return `Plan edited by an operator${reason}; the edited plan runs`;
    case "rejected":
      return `Plan rejected${reason}`;
    case "timed_out":
      return `No approval in time${reason}`;
    default:
      return `Approval ${event.status ?? ""}${reason}`.trim();
  }
}

/** "Replanned (attempt 1): E3 call_conditions_ai_api failed: …"; the failed steps when no reason is given. */
function describeReplan(event) {
  const summary = replanSummary(event);
  return summary.charAt(0).toUpperCase() + summary.slice(1);
}

export function renderEventLog(el, events) {
  const list = el.querySelector("ol") ?? el.appendChild(h("ol", { class: "events" }));
  // Events only grow, so append the new ones; rebuild only if one arrived out of order (a replay
  // filling a hole) and the rendered prefix no longer matches.
  const rendered = list.children.length;
  const last = list.lastElementChild;
  if (rendered > events.length || (last && String(events[rendered - 1]?.seq) !== last.dataset.seq)) {
    list.replaceChildren();
  }
  const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  const firstReplan = events.find((event) => event.stage === "replan")?.seq ?? Number.POSITIVE_INFINITY;
  for (const event of events.slice(list.children.length)) {
    list.append(
      h(
        "li",
        {
          class: `event event-${event.stage} event-${event.status ?? ""}`,
          dataset: { testid: `event-${event.seq}`, seq: event.seq },
        },
        h("span", { class: "event-seq mono" }, `#${event.seq}`),
        h("time", { class: "event-time mono", datetime: event.timestamp }, formatTime(event.timestamp)),
        h("span", { class: "event-text" }, describeEvent(event, { afterReplan: event.seq > firstReplan })),
      ),
    );
  }
  if (atBottom) el.scrollTop = el.scrollHeight;
}
