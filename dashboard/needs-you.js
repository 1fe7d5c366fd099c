// "Needs you": the runs waiting for a person or ready to be resumed, counted in the header and
// listed on a page of their own, refreshed while the dashboard is open.
import { ApiError } from "./api.js";
import { formatDateTime, formatRelative, h, replace } from "./dom.js";
import { loanNumberOf, runListQuery, statusWithIcon, stringOrEmpty } from "./run-finder.js";
import { NEEDS_YOU_STATUSES, RESUMABLE_STATUSES } from "./run-status.js";

const NEEDS_YOU_DAYS = 30;

const NEEDS_YOU_PAGE = 100;

/** Enough for any desk; a portfolio with more would page the finder instead. */
const NEEDS_YOU_MAX_PAGES = 10;

export const NEEDS_YOU_REFRESH_MS = 15_000;

/** Why a run needs a person, and what they do about it, in words. */
export function needsYouReason(run) {
  switch (run.status) {
    case "AWAITING_INPUT":
      return {
        kind: "input",
        why: "It asked a question the documents do not answer and waits for your answer.",
        action: "Answer questions",
      };
    case "AWAITING_APPROVAL":
      return {
        kind: "approval",
        why: "Its plan waits for your approval before any tool runs.",
        action: "Review the plan",
      };
    case "FAILED":
      return {
        kind: "resume",
        why: "It failed before it finished; resuming continues from where it stopped, without repeating finished steps.",
        action: "Resume",
      };
    case "INTERRUPTED":
      return {
        kind: "resume",
        why: "It was interrupted (its workflow stopped); resuming continues from where it stopped.",
        action: "Resume",
      };
    default:
      return null;
  }
}

/** A run needs a person when it waits, or when it ended badly and can be resumed. */
export function needsYou(run) {
  if (!NEEDS_YOU_STATUSES.includes(run.status)) return false;
  // Older APIs do not say `resumable`: then every FAILED/INTERRUPTED run is offered (a 409 says why not).
  if (RESUMABLE_STATUSES.includes(run.status)) return run.resumable !== false;
  return true;
}

export class NeedsYou {
  /**
   * @param {{link: HTMLElement, summary: HTMLElement, root: HTMLElement}} els  sidebar link, its words, the page
   * @param {{api: import("./api.js").ApiClient, announce: (text: string) => void, openRun: (runId: string) => void}} deps
   */
  constructor({ link, summary, root }, { api, announce, openRun }) {
    this.link = link;
    this.summary = summary;
    this.root = root;
    this.api = api;
    this.announce = announce;
    this.openRun = openRun;
    this.runs = [];
    this.loaded = false;
    this.error = "";
    /** Refusals per run (a 409 on Resume), kept across refreshes until the run changes. */
    this.refusals = new Map();
    this.busy = new Set();
    this.signature = null;
    this.refreshing = null;
    this.timer = null;
  }

  start() {
    this.refresh();
    this.timer = setInterval(() => {
      if (document.visibilityState !== "hidden") this.refresh();
    }, NEEDS_YOU_REFRESH_MS);
  }

  showPage() {
    this.root.hidden = false;
    this.signature = null; // draw at once
    this.#renderPage();
    this.refresh();
  }

  hidePage() {
    this.root.hidden = true;
    // A refusal of a run no longer listed has been read; one of a listed run stays with its entry.
    const listed = new Set(this.runs.map((run) => run.run_id));
    for (const runId of [...this.refusals.keys()]) if (!listed.has(runId)) this.refusals.delete(runId);
  }

  /** Reads every page of the last 30 days' runs that need a person (one refresh at a time). */
  refresh() {
    this.refreshing ??= this.#read().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  async #read() {
    const from = new Date(Date.now() - NEEDS_YOU_DAYS * 86_400_000).toISOString().slice(0, 10);
    const found = [];
    try {
      let cursor;
      for (let page = 0; page < NEEDS_YOU_MAX_PAGES; page++) {
        const answer = await this.api.findRuns(
          runListQuery({ status: NEEDS_YOU_STATUSES, from, limit: NEEDS_YOU_PAGE }, cursor),
        );
        found.push(...(answer?.runs ?? []));
        cursor = answer?.next_cursor;
        if (!cursor) break;
      }
      this.error = "";
    } catch (error) {
      this.error =
        error instanceof ApiError && error.status === 0
          ? "The API is not reachable; retrying…"
          : `Could not read the runs that need you: ${error.message}`;
      this.#render();
      return;
    }
    // The API filters by status; the page checks again so a run that moved on is never offered.
    const seen = new Set();
    this.runs = found.filter((run) => {
      if (seen.has(run.run_id) || !needsYou(run)) return false;
      seen.add(run.run_id);
      return true;
    });
    this.loaded = true;
    this.#render();
  }

  #render() {
    const count = this.runs.length;
    const kinds = { input: 0, approval: 0, resume: 0 };
    for (const run of this.runs) kinds[needsYouReason(run).kind]++;
    const parts = [
      kinds.input && `${kinds.input} to answer`,
      kinds.approval && `${kinds.approval} to approve`,
      kinds.resume && `${kinds.resume} to resume`,
    ].filter(Boolean);
    const countEl = this.link.querySelector("[data-testid=needs-you-count]");
    if (countEl) countEl.textContent = this.loaded ? String(count) : "…";
    this.link.setAttribute(
      "aria-label",
      this.loaded ? `Needs you: ${count} ${count === 1 ? "run" : "runs"}` : "Needs you",
    );
    this.link.classList.toggle("needs-you-some", count > 0);
    this.summary.textContent =
      this.error || (this.loaded ? parts.join(" · ") || "Nothing waits for you." : "");
    this.#renderPage();
  }

  #renderPage() {
    if (this.root.hidden) return;
    // Redrawn only when something changed, so the focus stays on a button across the 15 s refreshes.
    const signature = JSON.stringify([
      this.loaded,
      this.error,
      this.runs.map((r) => [r.run_id, r.status, r.resumable, r.updated_at]),
      [...this.refusals],
      [...this.busy],
    ]);
    if (signature === this.signature) return;
    this.signature = signature;
    const list = !this.loaded
      ? h("p", { class: "muted", role: "status" }, this.error || "Reading the runs that need you…")
      : this.runs.length === 0
        ? h(
            "p",
            { class: "finder-empty", dataset: { testid: "needs-you-empty" } },
            `Nothing needs you: no run of the last ${NEEDS_YOU_DAYS} days waits for an answer or an approval, or failed and can be resumed.`,
          )
        : h(
            "ul",
            { class: "needs-you-list", dataset: { testid: "needs-you-list" } },
            this.runs.map((run) => this.#entry(run)),
          );
    replace(
      this.root,
      h(
        "section",
        { class: "card finder", "aria-labelledby": "needs-you-heading" },
        h(
          "div",
          { class: "card-head" },
          h("h2", { id: "needs-you-heading" }, "Needs you"),
          h(
            "button",
            {
              type: "button",
              class: "btn",
              dataset: { testid: "needs-you-refresh" },
              onClick: () => this.refresh().then(() => this.announce(this.#countSaid())),
            },
            "↻ Refresh",
          ),
        ),
        h(
          "p",
          { class: "small muted" },
          `Runs of the last ${NEEDS_YOU_DAYS} days that wait for an answer or an approval, and failed or interrupted runs that can be resumed. Re-read every ${NEEDS_YOU_REFRESH_MS / 1000} s.`,
        ),
        this.loaded && this.error ? h("p", { class: "field-error", role: "alert" }, this.error) : null,
        this.#orphanRefusals(),
        list,
      ),
    );
  }

  /** A refused Resume of a run that is no longer listed (it moved on meanwhile): said above the list. */
  #orphanRefusals() {
    const listed = new Set(this.runs.map((run) => run.run_id));
    const orphans = [...this.refusals].filter(([runId]) => !listed.has(runId));
    if (orphans.length === 0) return null;
    return h(
      "div",
      { class: "field-error", role: "alert", dataset: { testid: "needs-you-refusal" } },
      orphans.map(([runId, why]) => h("p", {}, `${runId}: ${why}`)),
    );
  }

  #countSaid() {
    const count = this.runs.length;
    return count ? `${count} ${count === 1 ? "run needs" : "runs need"} you.` : "Nothing needs you.";
  }

  #entry(run) {
    const reason = needsYouReason(run);
    const metadata = run.request?.metadata ?? {};
    const title =
      [stringOrEmpty(metadata.loan_program), stringOrEmpty(metadata.classification)]
        .filter(Boolean)
        .join(" · ") || "Loan file";
    const loanNumber = loanNumberOf(run);
    const refusal = this.refusals.get(run.run_id);
    const errorId = `needs-you-error-${run.run_id}`;
    const href = `#/runs/${encodeURIComponent(run.run_id)}`;
    const action =
      reason.kind === "resume"
        ? h(
            "button",
            {
              type: "button",
              class: "btn btn-primary",
              disabled: this.busy.has(run.run_id),
              "aria-busy": this.busy.has(run.run_id) ? "true" : null,
              "aria-describedby": refusal ? errorId : null,
              dataset: { testid: `needs-you-resume-${run.run_id}` },
              onClick: () => this.#resume(run.run_id),
            },
            this.busy.has(run.run_id) ? "Resuming…" : `↻ ${reason.action}`,
          )
        : h(
            "a",
            { class: "btn btn-primary", href, dataset: { testid: `needs-you-action-${run.run_id}` } },
            reason.action,
          );
    return h(
      "li",
      {
        class: `needs-you-entry needs-you-${reason.kind}`,
        dataset: { testid: `needs-you-${run.run_id}`, kind: reason.kind, status: run.status },
      },
      h(
        "div",
        { class: "needs-you-main" },
        h(
          "p",
          { class: "needs-you-title" },
          statusWithIcon(run.status),
          " ",
          h("a", { href, class: "link" }, title),
          loanNumber ? h("span", { class: "mono needs-you-loan" }, ` · loan ${loanNumber}`) : null,
        ),
        h("p", { class: "needs-you-why", dataset: { testid: "needs-you-why" } }, reason.why),
        h(
          "p",
          { class: "small muted" },
          h("span", { class: "mono" }, run.run_id),
          " · started ",
          h(
            "time",
            { datetime: run.created_at, title: formatDateTime(run.created_at) },
            formatRelative(run.created_at),
          ),
        ),
        refusal
          ? h(
              "div",
              { id: errorId, class: "field-error", role: "alert", dataset: { testid: "needs-you-refusal" } },
              h("p", {}, refusal),
            )
          : null,
      ),
      h("div", { class: "needs-you-actions" }, action),
    );
  }

  async #resume(runId) {
    this.busy.add(runId);
    this.refusals.delete(runId);
    this.#renderPage();
    try {
      await this.api.resume(runId);
      this.announce(`Run ${runId} resumed: it continues from where it stopped.`);
      this.busy.delete(runId);
      this.refresh();
      this.openRun(runId);
    } catch (error) {
      this.busy.delete(runId);
      const why =
        error instanceof ApiError && error.status === 409
          ? `It cannot be resumed: ${error.body?.error?.message ?? error.message}`
          : `Could not resume: ${error.message}`;
      this.refusals.set(runId, why);
      this.announce(why);
      this.signature = null;
      await this.refresh();
      this.#renderPage();
      // Focus stays on the entry's button, which the refusal now describes.
      this.root.querySelector(`[data-testid="needs-you-resume-${CSS.escape(runId)}"]`)?.focus();
    }
  }
}
