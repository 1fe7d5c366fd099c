// The run's result: the verdicts by condition group, their citations, and the export actions.
import { citationOcr } from "./documents.js";
import { h, replace } from "./dom.js";
import {
  applicableFindings,
  groupFindings,
  interpretationOf,
  judgedFindings,
  priorityLabel,
  priorityLevel,
} from "./findings.js";
import { verdictLabel } from "./run-labels.js";
import { ocrBadge } from "./step-details-view.js";
import { downloadVerdicts, summaryHash } from "./verdict-export.js";

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
        ocr?.confirmed
          ? [
              " ",
              h("span", { class: "muted small", dataset: { testid: "citation-confirmed" } }, ocr.confirmed),
            ]
          : null,
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
