// A run's verdicts taken away from the dashboard: a JSON file (what the run was asked, what it found,
// with every citation, and what it cost) and a printable summary page (#/runs/<id>/summary) an officer
// can print or save as PDF for the loan file. Both read the same run record the run view shows.
import { citationOcr } from "./documents.js";
import { formatDateTime, h, replace } from "./dom.js";
import {
  applicableFindings,
  groupFindings,
  interpretationOf,
  judgedFindings,
  priorityLabel,
  priorityLevel,
} from "./findings.js";

const VERDICT_WORDS = {
  fulfilled: "Fulfilled",
  not_fulfilled: "Not fulfilled",
  insufficient_evidence: "Insufficient evidence",
};

/**
 * What "Download JSON" saves: the run's id, what it was asked (metadata, instructions, documents),
 * its status and result (findings with their citations), its usage and cost. `run` is the run view
 * (run-state.js) or a run record; both carry these fields under the names used here.
 */
export function verdictExport(run, exportedAt = new Date()) {
  const request = run.request ?? {};
  return {
    run_id: run.runId ?? run.run_id,
    exported_at: exportedAt.toISOString(),
    status: run.status,
    created_at: run.created_at,
    updated_at: run.updated_at,
    request: {
      metadata: request.metadata ?? null,
      instructions: request.instructions ?? null,
      s3_pdf_paths: request.s3_pdf_paths ?? [],
    },
    result: run.result ?? null,
    usage: run.usage ?? null,
    cost: run.cost ?? null,
  };
}

export function exportFileName(runId) {
  // Run ids are safe file names already; anything else is replaced so the download is never refused.
  return `${String(runId).replace(/[^\w.-]+/g, "_")}-verdicts.json`;
}

/** Saves the export as `<run_id>-verdicts.json` through a Blob link (no server round trip). */
export function downloadVerdicts(run) {
  const data = verdictExport(run);
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: exportFileName(data.run_id), hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download by now; the URL can go once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function summaryHash(runId) {
  return `#/runs/${encodeURIComponent(runId)}/summary`;
}

/** `#/runs/<id>/summary` → the id, else null. */
export function summaryRunIdFromHash(hash) {
  const match = /^#\/runs\/(.+)\/summary$/.exec(hash);
  return match ? decodeURIComponent(match[1]) : null;
}

/**
 * The printable summary of run record `record` in `el`: loan metadata, the date, verdicts grouped by
 * compartment (most urgent first) with priority, reason, remedy and citations, all as text.
 */
export function renderSummary(el, record, { now = new Date() } = {}) {
  const metadata = record.request?.metadata ?? {};
  const result = record.result;
  const judged = judgedFindings(result);
  const applicable = applicableFindings(result);
  const interpretation = interpretationOf(result);
  return replace(
    el,
    h(
      "div",
      { class: "summary-actions no-print" },
      h(
        "a",
        {
          class: "btn",
          href: `#/runs/${encodeURIComponent(record.run_id)}`,
          dataset: { testid: "summary-back" },
        },
        h("span", { "aria-hidden": "true" }, "← "),
        "Back to the run",
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-primary",
          onClick: () => window.print(),
          dataset: { testid: "summary-print" },
        },
        "Print",
      ),
    ),
    h("h2", { id: "summary-title" }, "Loan conditions summary"),
    h(
      "dl",
      { class: "summary-facts", dataset: { testid: "summary-facts" } },
      fact("Run", record.run_id),
      fact("Status", record.status),
      fact("Loan number", metadata.loan_number),
      fact("Loan program", metadata.loan_program),
      fact("Classification", metadata.classification),
      fact("Borrower", metadata.borrower_info?.name),
      fact("Business", metadata.borrower_info?.business_name),
      fact("As of", metadata.as_of_date),
      fact("Documents", (record.request?.s3_pdf_paths ?? []).join(", ")),
      fact("Run started", formatDateTime(record.created_at)),
      fact("Printed", formatDateTime(now.toISOString())),
    ),
    result
      ? [
          interpretation
            ? h("p", { class: "summary-interpretation" }, `Instructions read as: ${interpretation}`)
            : null,
          h(
            "p",
            { class: "summary-result", dataset: { testid: "summary-result" } },
            String(result.summary ?? ""),
          ),
          judged.length ? findingSections(judged, true, result.recommendations) : null,
          applicable?.length
            ? [h("h3", {}, "Conditions that apply (not judged)"), findingSections(applicable, false, [])]
            : null,
          textList("Missing information", result.missing_information),
          textList("Recommendations", result.recommendations),
        ]
      : h("p", {}, "This run has no result yet."),
  );
}

function findingSections(findings, judged, recommendations) {
  const { groups } = groupFindings(findings);
  return groups.map((group) =>
    h(
      "section",
      {
        class: "summary-group",
        dataset: { testid: "summary-group", compartment: group.compartment ?? undefined },
      },
      h("h3", {}, group.compartment ?? "Other conditions"),
      h(
        "ol",
        { class: "summary-findings" },
        group.findings.map((c) => {
          const tag = priorityLabel(c.priority);
          return h(
            "li",
            {
              class: "summary-finding",
              dataset: {
                testid: "summary-condition",
                condition: String(c.id),
                priority: priorityLevel(c.priority),
              },
            },
            h(
              "p",
              { class: "summary-finding-head" },
              h("strong", { class: "mono" }, String(c.id)),
              c.title ? ` ${c.title}` : "",
              tag ? ` · priority ${tag}` : "",
              judged
                ? h("span", { class: "summary-verdict" }, ` · ${VERDICT_WORDS[c.status] ?? c.status}`)
                : null,
            ),
            c.reason
              ? h(
                  "p",
                  {},
                  h("span", { class: "summary-label" }, judged ? "Reason: " : "Why it applies: "),
                  c.reason,
                )
              : null,
            remediesOf(c, recommendations).map((remedy) =>
              h("p", {}, h("span", { class: "summary-label" }, "Remedy: "), remedy),
            ),
            citationsText(c.citations),
          );
        }),
      ),
    ),
  );
}

/**
 * A finding's remedies: its own `remedies`/`remedy` when the solver put them on it, else the
 * recommendations the solver wrote as "<condition id>: <what to do>".
 */
function remediesOf(finding, recommendations) {
  const own = [finding.remedies, finding.remedy].flat().filter((r) => typeof r === "string" && r.trim());
  if (own.length) return own.map((r) => r.trim());
  const prefix = `${finding.id}: `;
  return (Array.isArray(recommendations) ? recommendations : [])
    .filter((r) => typeof r === "string" && r.startsWith(prefix))
    .map((r) => r.slice(prefix.length));
}

function citationsText(citations) {
  if (!Array.isArray(citations) || citations.length === 0) return null;
  return h(
    "ul",
    { class: "summary-citations" },
    citations.map((cit) => {
      const ocr = citationOcr(cit);
      return h(
        "li",
        {},
        `${cit.document}`,
        Number.isInteger(cit.page) ? `, page ${cit.page}` : "",
        ocr
          ? ` (read by OCR${Number.isFinite(ocr.confidence) ? `, ${Math.round(ocr.confidence)}% confidence` : ""}${ocr.confirmed ? `; ${ocr.confirmed}` : ""})`
          : "",
        cit.excerpt ? [": ", h("q", {}, cit.excerpt)] : "",
      );
    }),
  );
}

function textList(title, items) {
  if (!Array.isArray(items) || items.length === 0) return null;
  return [
    h("h3", {}, title),
    h(
      "ul",
      {},
      items.map((i) => h("li", {}, typeof i === "string" ? i : JSON.stringify(i))),
    ),
  ];
}

function fact(label, value) {
  if (value === undefined || value === null || value === "") return null;
  return [h("dt", {}, label), h("dd", {}, String(value))];
}
