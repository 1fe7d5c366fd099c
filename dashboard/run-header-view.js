// The run view's header: what the run is, its status, and its key figures (cost, verdicts).
import { formatDateTime, formatDuration, formatNumber, h, replace } from "./dom.js";
import { applicableFindings, judgedFindings, reviewSummary } from "./findings.js";
import { formatUsd, programOf, runStatusBadge } from "./run-labels.js";

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
        view.planSource === "cache"
          ? h(
              "span",
              {
                class: "badge badge-cached-plan",
                title:
                  "The plan of an earlier request of the same shape, filled in with this run's metadata and documents and validated again: no planner call",
                dataset: { testid: "run-plan-source" },
              },
              "cached plan",
            )
          : null,
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
