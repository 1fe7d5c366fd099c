// The selected step's details: the planner's plan, a worker's tool call and what it read, the solver.
import { PLANNER_ID, SOLVER_ID } from "./dag.js";
import {
  documentOcr,
  documentReports,
  fieldOcrConfidence,
  kindLabel,
  ocrSummary,
  ocrTag,
  ocrTagTitle,
} from "./documents.js";
import { formatDuration, formatTime, h, prettyJson, replace } from "./dom.js";
import { describeEvent } from "./event-log-view.js";

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
export function ocrBadge(page, confidence) {
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
