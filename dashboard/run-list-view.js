// The runs list beside the run view.
import { formatDateTime, formatRelative, h, replace } from "./dom.js";
import {
  bankingIntentOf,
  formatUsd,
  isWaiting,
  loanNumberOf,
  runStatusBadge,
  shortRunId,
} from "./run-labels.js";

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
