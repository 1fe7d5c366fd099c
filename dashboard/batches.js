// The Batches view: a portfolio batch's progress (lines processed, counts by line status as a bar
// with the numbers in words) and one row per line (its number in the batch's file, the file or the
// request's documents, run, status, verdicts, error), refreshed while the batch runs. The API has no list of batches, so the page offers any batch by its id and remembers
// the batches opened in this browser (localStorage). What is derived from the API's answers are plain
// functions at the top (tested without a browser); the view below builds its card once per batch and
// updates it in place, so the keyboard focus and the filter survive refreshes.
import { formatDateTime, formatNumber, h, replace } from "./dom.js";

export const BATCH_ID_PATTERN = /^batch-[\w-]{1,100}$/;
export const REFRESH_MS = 2000;
const STORAGE_KEY = "rewoo.batches";
const REMEMBERED_MAX = 20;
/** Rows drawn at most; the rest are in the results file the page links to. */
const ROWS_MAX = 2000;

const BATCH_STATUS_LABEL = {
  RUNNING: "Running",
  SUCCEEDED: "Finished",
  FAILED: "Failed",
  ABORTED: "Stopped",
};

const LINE_STATUS_LABEL = {
  SUCCEEDED: "Succeeded",
  NEEDS_REVIEW: "Needs review",
  REJECTED: "Rejected",
  FAILED: "Failed",
  INTERRUPTED: "Interrupted",
  CANCELLED: "Cancelled",
  INVALID: "Invalid",
  STOPPED: "Stopped",
  NOT_RUN: "Not run",
  RUNNING: "Running",
  PENDING: "Pending",
};

/** The order of statuses in the bar and the legend: the good outcome first, then what needs a look. */
const LINE_STATUS_ORDER = Object.keys(LINE_STATUS_LABEL);

export function batchStatusLabel(status) {
  return Object.hasOwn(BATCH_STATUS_LABEL, status) ? BATCH_STATUS_LABEL[status] : String(status);
}

export function lineStatusLabel(status) {
  return Object.hasOwn(LINE_STATUS_LABEL, status) ? LINE_STATUS_LABEL[status] : String(status);
}

/**
 * The results answer (JSON Lines) as `[{line, file?, documents?, status, run_id?, verdicts?, error?}]`.
 * A line that is not such an object is skipped and counted in `unreadable`, so one bad line never
 * blanks the table; a field of an unexpected type counts as absent.
 */
export function parseBatchResults(text) {
  const lines = [];
  let unreadable = 0;
  for (const raw of String(text ?? "").split("\n")) {
    if (raw.trim() === "") continue;
    let parsed;
    try {
      parsed = JSON.parse(raw);
    } catch {
      unreadable++;
      continue;
    }
    if (
      parsed === null ||
      typeof parsed !== "object" ||
      !Number.isInteger(parsed.line) ||
      typeof parsed.status !== "string"
    ) {
      unreadable++;
      continue;
    }
    const documents = Array.isArray(parsed.documents)
      ? parsed.documents.filter((name) => typeof name === "string")
      : [];
    const verdicts = verdictCountsOf(parsed.verdicts);
    lines.push({
      line: parsed.line,
      ...(typeof parsed.file === "string" && parsed.file ? { file: parsed.file } : {}),
      ...(documents.length ? { documents } : {}),
      status: parsed.status,
      ...(typeof parsed.run_id === "string" ? { run_id: parsed.run_id } : {}),
      ...(verdicts ? { verdicts } : {}),
      ...(parsed.error && typeof parsed.error === "object" ? { error: parsed.error } : {}),
    });
  }
  return { lines: lines.sort((a, b) => a.line - b.line), unreadable };
}

function verdictCountsOf(value) {
  if (!value || typeof value !== "object") return null;
  const kinds = ["fulfilled", "not_fulfilled", "insufficient_evidence"];
  if (!kinds.every((kind) => Number.isInteger(value[kind]) && value[kind] >= 0)) return null;
  return Object.fromEntries(kinds.map((kind) => [kind, value[kind]]));
}

/** What tells a line's loan: the file it came from, else the documents its request names ("" when neither is known yet). */
export function lineSourceText(line) {
  if (line.file) return line.file;
  return (line.documents ?? []).join(", ");
}

/** "4 fulfilled · 1 not fulfilled · 0 insufficient evidence", or "" for a line without a result. */
export function verdictsText(verdicts) {
  if (!verdicts) return "";
  return `${verdicts.fulfilled} fulfilled · ${verdicts.not_fulfilled} not fulfilled · ${verdicts.insufficient_evidence} insufficient evidence`;
}

/**
 * What the bar shows: processed of total (percent, floored so 100 % means done) and one segment per
 * status with lines, in reading order, each with its share of the total.
 */
export function batchProgress(batch) {
  const total = Number.isInteger(batch?.total) && batch.total > 0 ? batch.total : 0;
  const counts = batch?.counts && typeof batch.counts === "object" ? batch.counts : {};
  const processed = Number.isInteger(batch?.processed) ? batch.processed : 0;
  const rank = (status) => {
    const index = LINE_STATUS_ORDER.indexOf(status);
    return index === -1 ? LINE_STATUS_ORDER.length : index;
  };
  const segments = Object.entries(counts)
    .filter(([, count]) => Number.isInteger(count) && count > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([status, count]) => ({ status, count, share: total ? count / total : 0 }));
  const percent = total ? Math.floor((processed / total) * 100) : 0;
  return { processed, total, percent, segments };
}

/** "57 of 200 lines processed (28 %)": the bar in words. */
export function progressText(progress) {
  return `${formatNumber(progress.processed)} of ${formatNumber(progress.total)} lines processed (${progress.percent} %)`;
}

/** A line's error in one line: each field it names with what was expected, else its message. */
export function describeLineError(error) {
  if (!error || typeof error !== "object") return "";
  const fields = Array.isArray(error.fields)
    ? error.fields.filter((f) => f && typeof f.field === "string" && !f.field.startsWith("("))
    : [];
  if (fields.length) return fields.map((f) => `${f.field}: ${f.message}`).join("; ");
  return String(error.message ?? error.code ?? "");
}

/** Lines that need a person's look: anything but SUCCEEDED once finished (and nothing still to come). */
export function needsAttention(line) {
  return !["SUCCEEDED", "RUNNING", "PENDING"].includes(line.status);
}

/**
 * The remembered batches with `batch` first (newest opened first, at most 20, one entry per id). Only
 * what the list shows is kept: id, name, status, counts and when it was opened.
 */
export function rememberBatch(list, batch, openedAt = new Date().toISOString()) {
  if (!batch || !BATCH_ID_PATTERN.test(String(batch.batch_id))) return list;
  const previous = list.find((entry) => entry.batch_id === batch.batch_id);
  const entry = {
    batch_id: batch.batch_id,
    ...(typeof batch.name === "string" ? { name: batch.name } : {}),
    ...(typeof batch.status === "string" ? { status: batch.status } : {}),
    ...(Number.isInteger(batch.total) ? { total: batch.total } : {}),
    ...(Number.isInteger(batch.processed) ? { processed: batch.processed } : {}),
    opened_at: previous?.opened_at ?? openedAt,
  };
  const rest = list.filter((other) => other.batch_id !== batch.batch_id);
  return [entry, ...rest].slice(0, REMEMBERED_MAX);
}

/** The remembered list from storage; anything unreadable (another version, a hand edit) is dropped. */
export function readRemembered(storage) {
  let parsed;
  try {
    parsed = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter((entry) => entry && typeof entry === "object" && BATCH_ID_PATTERN.test(String(entry.batch_id)))
    .slice(0, REMEMBERED_MAX);
}

function writeRemembered(storage, list) {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(list));
  } catch {
    // Private browsing or a full quota: the list is only a convenience.
  }
}

export function batchStatusBadge(status, props = {}) {
  return h(
    "span",
    {
      class: `badge batch-${String(status).toLowerCase()}`,
      ...props,
      dataset: { status, ...(props.dataset ?? {}) },
    },
    batchStatusLabel(status),
  );
}

function lineStatusBadge(status) {
  return h(
    "span",
    { class: `badge badge-sm line-${String(status).toLowerCase()}`, dataset: { status } },
    lineStatusLabel(status),
  );
}

// ---------------------------------------------------------------------------------------------
// The view

export class BatchesView {
  /**
   * `elements`: {root, openForm, openInput, openError, list, detail}; `api`: the REST client;
   * `storage`: localStorage (or null); `onNotify(message, kind)`: page notices.
   */
  constructor(elements, { api, storage, onNotify }) {
    this.el = elements;
    this.api = api;
    this.storage = storage;
    this.notify = onNotify;
    this.remembered = readRemembered(storage);
    this.current = null;
    this.timer = null;
    this.onlyAttention = false;
    this.el.openForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#openFromForm();
    });
  }

  /** Shows the view: the list, and the batch `batchId` when given (null: none selected). */
  show(batchId) {
    this.el.root.hidden = false;
    if (batchId && !BATCH_ID_PATTERN.test(batchId)) {
      this.#formError(`"${batchId}" is not a batch id: expected batch-<letters, digits, - or _>`);
      batchId = null;
    }
    if (this.current?.batchId !== batchId) this.#select(batchId);
    this.#renderList();
  }

  hide() {
    this.el.root.hidden = true;
    this.#select(null);
  }

  #openFromForm() {
    const id = this.el.openInput.value.trim();
    if (!BATCH_ID_PATTERN.test(id)) {
      this.#formError(
        id ? `"${id}" is not a batch id: expected batch-<letters, digits, - or _>` : "enter a batch id",
      );
      this.el.openInput.focus();
      return;
    }
    this.#formError("");
    const hash = `#/batches/${encodeURIComponent(id)}`;
    if (window.location.hash === hash) this.#refresh();
    else window.location.hash = hash;
  }

  #formError(message) {
    replace(this.el.openError, message ? h("p", {}, message) : null);
    this.el.openError.hidden = !message;
    if (message) this.el.openInput.setAttribute("aria-invalid", "true");
    else this.el.openInput.removeAttribute("aria-invalid");
  }

  #select(batchId) {
    clearTimeout(this.timer);
    this.timer = null;
    if (!batchId) {
      this.current = null;
      this.el.detail.hidden = true;
      replace(this.el.detail);
      return;
    }
    this.current = { batchId, batch: null, lines: null, rows: new Map(), shownProcessed: -1, parts: null };
    this.el.detail.hidden = false;
    replace(this.el.detail, h("p", { class: "muted" }, `Loading ${batchId}…`));
    this.#refresh();
  }

  async #refresh() {
    const current = this.current;
    if (!current) return;
    clearTimeout(this.timer);
    try {
      const batch = await this.api.getBatch(current.batchId);
      if (current !== this.current) return;
      current.batch = batch;
      // The results move only when a line finishes (or the batch ends): read them then.
      if (
        batch.processed !== current.shownProcessed ||
        batch.status !== "RUNNING" ||
        current.lines === null
      ) {
        const { lines, unreadable } = parseBatchResults(await this.api.getBatchResults(current.batchId));
        if (current !== this.current) return;
        current.lines = lines;
        current.unreadable = unreadable;
        current.shownProcessed = batch.processed;
      }
      this.remembered = rememberBatch(this.remembered, batch);
      writeRemembered(this.storage, this.remembered);
      this.#render();
      this.#renderList();
    } catch (error) {
      if (current !== this.current) return;
      if (error?.status === 404 || error?.status === 400) {
        replace(
          this.el.detail,
          h(
            "p",
            { class: "alert alert-error", role: "alert", dataset: { testid: "batch-error" } },
            error.status === 404 ? `No batch ${current.batchId} on this API.` : error.message,
          ),
        );
        return;
      }
      // Unreachable or failing for now: keep what is shown and try again.
      this.notify?.(`Could not refresh the batch: ${error.message}`, "error");
    }
    if (current === this.current && (current.batch === null || current.batch.status === "RUNNING")) {
      this.timer = setTimeout(() => this.#refresh(), REFRESH_MS);
    }
  }

  #renderList() {
    const items = this.remembered;
    replace(
      this.el.list,
      items.length === 0
        ? h("p", { class: "muted small" }, "No batch opened in this browser yet. Open one by its id.")
        : h(
            "ul",
            { class: "batch-list" },
            items.map((entry) =>
              h(
                "li",
                {},
                h(
                  "a",
                  {
                    href: `#/batches/${encodeURIComponent(entry.batch_id)}`,
                    class: `run-item${entry.batch_id === this.current?.batchId ? " selected" : ""}`,
                    "aria-current": entry.batch_id === this.current?.batchId ? "page" : null,
                    dataset: { testid: `batch-item-${entry.batch_id}` },
                  },
                  h(
                    "span",
                    { class: "run-item-top" },
                    h("span", { class: "run-item-program" }, entry.name ?? "Batch"),
                    entry.status
                      ? batchStatusBadge(entry.status, {
                          class: `badge badge-sm batch-${entry.status.toLowerCase()}`,
                        })
                      : null,
                  ),
                  h(
                    "span",
                    { class: "run-item-meta" },
                    h("span", { class: "mono" }, entry.batch_id),
                    Number.isInteger(entry.total)
                      ? h("span", {}, `${entry.processed ?? 0}/${entry.total} lines`)
                      : null,
                  ),
                ),
              ),
            ),
          ),
    );
  }

  #render() {
    const current = this.current;
    const batch = current.batch;
    if (!current.parts) current.parts = this.#buildCard();
    const parts = current.parts;
    const progress = batchProgress(batch);

    replace(parts.title, batch.name || "Portfolio batch");
    replace(
      parts.ids,
      h("span", { class: "mono", dataset: { testid: "batch-id" } }, batch.batch_id),
      batch.created_at ? ` · started ${formatDateTime(batch.created_at)}` : "",
      batch.finished_at ? ` · ended ${formatDateTime(batch.finished_at)}` : "",
      ` · at most ${batch.max_concurrency} lines at once`,
    );
    replace(
      parts.status,
      batchStatusBadge(batch.status, {
        class: `badge badge-lg batch-${String(batch.status).toLowerCase()}`,
        dataset: { testid: "batch-status" },
      }),
    );

    const bar = parts.bar;
    bar.setAttribute("aria-valuemax", String(progress.total));
    bar.setAttribute("aria-valuenow", String(progress.processed));
    bar.setAttribute("aria-valuetext", progressText(progress));
    replace(
      bar,
      progress.segments.map((segment) =>
        h("span", {
          class: `segment line-${segment.status.toLowerCase()}`,
          style: `width: ${(segment.share * 100).toFixed(3)}%`,
          title: `${lineStatusLabel(segment.status)}: ${segment.count}`,
        }),
      ),
    );
    replace(parts.progressText, progressText(progress));
    replace(
      parts.counts,
      progress.segments.length === 0
        ? h("li", { class: "muted" }, "No line has finished yet.")
        : progress.segments.map((segment) =>
            h(
              "li",
              {
                dataset: {
                  testid: `batch-count-${segment.status}`,
                  status: segment.status,
                  count: String(segment.count),
                },
              },
              h("span", { class: `swatch line-${segment.status.toLowerCase()}`, "aria-hidden": "true" }),
              `${lineStatusLabel(segment.status)} `,
              h("strong", {}, formatNumber(segment.count)),
            ),
          ),
    );
    replace(
      parts.refresh,
      batch.status === "RUNNING"
        ? `Refreshing every ${REFRESH_MS / 1000} s while the batch runs.`
        : `The batch has ended: ${batchStatusLabel(batch.status).toLowerCase()}.`,
    );
    replace(
      parts.error,
      batch.error
        ? h("p", { class: "alert alert-error" }, `${batch.error.error}: ${batch.error.cause}`)
        : null,
    );
    if (batch.results?.url) parts.download.setAttribute("href", batch.results.url);
    this.#renderRows();
  }

  /** The card's fixed parts, built once per batch. */
  #buildCard() {
    const title = h("h2", { class: "run-title", id: "batch-title" });
    const ids = h("p", { class: "run-ids" });
    const status = h("div", { class: "run-actions", role: "status", "aria-live": "polite" });
    const bar = h("div", {
      class: "batch-bar",
      role: "progressbar",
      "aria-labelledby": "batch-progress-text",
      "aria-valuemin": "0",
      dataset: { testid: "batch-progress" },
    });
    const progressTextEl = h("p", {
      class: "batch-progress-text",
      id: "batch-progress-text",
      dataset: { testid: "batch-progress-text" },
    });
    const counts = h("ul", {
      class: "batch-counts",
      "aria-label": "Lines by status",
      dataset: { testid: "batch-counts" },
    });
    const refresh = h("p", { class: "hint", dataset: { testid: "batch-refresh" } });
    const error = h("div", {});
    const filter = h("input", {
      type: "checkbox",
      id: "batch-only-attention",
      onChange: (event) => {
        this.onlyAttention = event.target.checked;
        this.#renderRows();
      },
    });
    filter.checked = this.onlyAttention;
    const download = h(
      "a",
      { class: "link", href: "#", download: "", dataset: { testid: "batch-download" } },
      "Download the results (JSON Lines)",
    );
    const tbody = h("tbody", {});
    const note = h("p", { class: "hint", dataset: { testid: "batch-rows-note" } });
    replace(
      this.el.detail,
      h(
        "div",
        { class: "run-title-row" },
        h("div", {}, h("p", { class: "eyebrow" }, "Batch"), title, ids),
        status,
      ),
      h("div", { class: "batch-progress" }, progressTextEl, bar, counts, refresh),
      error,
      h(
        "div",
        { class: "card-head" },
        h("h3", { id: "batch-lines-heading" }, "Lines"),
        h(
          "div",
          { class: "batch-tools" },
          h(
            "label",
            { class: "small", for: "batch-only-attention" },
            filter,
            " Only lines that did not succeed",
          ),
          download,
        ),
      ),
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          {
            class: "verdicts batch-lines",
            "aria-labelledby": "batch-lines-heading",
            dataset: { testid: "batch-lines" },
          },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Line"),
              h("th", { scope: "col" }, "File or documents"),
              h("th", { scope: "col" }, "Run"),
              h("th", { scope: "col" }, "Status"),
              h("th", { scope: "col" }, "Verdicts"),
              h("th", { scope: "col" }, "Error"),
            ),
          ),
          tbody,
        ),
      ),
      note,
    );
    return {
      title,
      ids,
      status,
      bar,
      progressText: progressTextEl,
      counts,
      refresh,
      error,
      download,
      tbody,
      note,
    };
  }

  /** Rows are kept per line and changed only when their line changed, so focus on a link survives. */
  #renderRows() {
    const current = this.current;
    if (!current?.parts || !current.lines) return;
    const { tbody, note } = current.parts;
    const shown = (this.onlyAttention ? current.lines.filter(needsAttention) : current.lines).slice(
      0,
      ROWS_MAX,
    );
    const wanted = [];
    for (const line of shown) {
      const key = `${line.line}`;
      const signature = JSON.stringify(line);
      let row = current.rows.get(key);
      if (!row || row.signature !== signature) {
        row = { signature, el: lineRow(line) };
        current.rows.set(key, row);
      }
      wanted.push(row.el);
    }
    // Reorder only when the rows shown changed: re-appending a focused row would drop its focus.
    const children = [...tbody.children];
    if (children.length !== wanted.length || children.some((child, index) => child !== wanted[index])) {
      tbody.replaceChildren(...wanted);
    }
    const total = this.onlyAttention ? current.lines.filter(needsAttention).length : current.lines.length;
    const notes = [];
    if (total > shown.length)
      notes.push(`Showing the first ${shown.length} of ${total} lines; download the results for all.`);
    if (this.onlyAttention && total === 0) notes.push("Every line so far succeeded (or is still to come).");
    if (current.unreadable) notes.push(`${current.unreadable} result lines could not be read.`);
    replace(note, notes.join(" "));
  }
}

function lineRow(line) {
  return h(
    "tr",
    { dataset: { testid: `batch-line-${line.line}`, status: line.status } },
    h("td", { class: "mono" }, String(line.line)),
    h(
      "td",
      { class: "batch-line-source", dataset: { testid: "batch-line-source" } },
      lineSourceText(line) || h("span", { class: "muted" }, "not started"),
    ),
    h(
      "td",
      {},
      line.run_id
        ? h(
            "a",
            {
              href: `#/runs/${encodeURIComponent(line.run_id)}`,
              class: "mono",
              dataset: { testid: "batch-line-run" },
            },
            line.run_id,
          )
        : h("span", { class: "muted" }, "no run"),
    ),
    h("td", {}, lineStatusBadge(line.status)),
    h(
      "td",
      { class: "batch-line-verdicts", dataset: { testid: "batch-line-verdicts" } },
      verdictsText(line.verdicts),
    ),
    h("td", { class: "batch-line-error" }, describeLineError(line.error)),
  );
}
