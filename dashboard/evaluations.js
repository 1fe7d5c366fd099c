// The Evaluations page (#/evaluations): the summaries `rewoo eval --json` writes, opened from a file the
// user picks. The API keeps no evaluation reports, so the page stores the summaries opened in this
// browser (localStorage, the last REMEMBERED_MAX) and lists them; one shows its totals, the thresholds'
// outcome, accuracy by condition and by document kind, and every mismatch with a link to its run.
// What is derived from a summary are plain functions at the top (tested without a browser).
import { formatDateTime, h, replace } from "./dom.js";

const STORAGE_KEY = "rewoo.evaluations";
export const REMEMBERED_MAX = 10;
const VERDICTS = ["fulfilled", "not_fulfilled", "insufficient_evidence"];
const GOT = [...VERDICTS, "missing", "run_failed"];

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isCount = (value) => Number.isInteger(value) && value >= 0;

/** 0.8333 → "83.3%"; anything else "—". */
export function percentText(value) {
  return typeof value === "number" && Number.isFinite(value)
    ? `${(Math.round(value * 1000) / 10).toFixed(1)}%`
    : "—";
}

function checkTallies(record, name, problems) {
  if (!isObject(record)) {
    problems.push(`${name}: expected an object {<id>: {total, right, …}}`);
    return;
  }
  for (const [id, tally] of Object.entries(record)) {
    if (!isObject(tally) || !isCount(tally.total) || !isCount(tally.right))
      problems.push(`${name}.${id}: expected {total, right} whole numbers`);
  }
}

/**
 * A `rewoo eval --json` summary from the text of a file, or the first problems that make it not one
 * (each naming its field), so a wrong file is refused instead of drawn half.
 */
export function parseEvalSummary(text) {
  let value;
  try {
    value = JSON.parse(String(text ?? ""));
  } catch (error) {
    return { error: `not JSON: ${error.message}` };
  }
  if (!isObject(value)) return { error: "expected the JSON object `rewoo eval --json` prints" };
  const problems = [];
  for (const field of ["total", "right", "false_fulfilled"]) {
    if (!isCount(value[field])) problems.push(`${field}: expected a whole number ≥ 0`);
  }
  if (typeof value.accuracy !== "number" || value.accuracy < 0 || value.accuracy > 1)
    problems.push("accuracy: expected a number from 0 to 1");
  for (const field of ["source", "batch_id", "created_at"]) {
    if (typeof value[field] !== "string" || value[field] === "") problems.push(`${field}: expected a string`);
  }
  checkTallies(value.by_condition, "by_condition", problems);
  checkTallies(value.by_document_kind, "by_document_kind", problems);
  if (!Array.isArray(value.mismatches)) problems.push("mismatches: expected a list");
  else {
    value.mismatches.forEach((mismatch, index) => {
      if (
        !isObject(mismatch) ||
        !["file", "condition", "expected", "got"].every((field) => typeof mismatch[field] === "string")
      )
        problems.push(`mismatches.${index}: expected {file, condition, expected, got, …}`);
    });
  }
  if (problems.length) return { error: problems.slice(0, 5).join("; ") };
  return { summary: value };
}

/** Rows of a tally record (by condition, by document kind), by id. */
export function tallyRows(record) {
  return Object.entries(record ?? {})
    .map(([id, tally]) => ({
      id,
      total: tally.total,
      right: tally.right,
      accuracy: tally.total ? tally.right / tally.total : 0,
      false_fulfilled: isCount(tally.false_fulfilled) ? tally.false_fulfilled : 0,
      confusion: isObject(tally.confusion) ? tally.confusion : {},
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** "fulfilled → not_fulfilled 1 · …": the off-diagonal of a condition's confusion, the wrong verdicts in words. */
export function confusionText(confusion) {
  const parts = [];
  for (const expected of VERDICTS) {
    for (const got of GOT) {
      const n = confusion?.[expected]?.[got];
      if (got !== expected && isCount(n) && n > 0) parts.push(`${expected} → ${got} ${n}`);
    }
  }
  return parts.join(" · ");
}

/** The list of stored evaluations with `summary` first (one per batch: opened again, it replaces itself). */
export function rememberEvaluation(list, summary, fileName, openedAt = new Date().toISOString()) {
  const entry = { key: summary.batch_id, file_name: String(fileName ?? ""), opened_at: openedAt, summary };
  return [entry, ...list.filter((other) => other.key !== entry.key)].slice(0, REMEMBERED_MAX);
}

/** The stored list; an entry whose summary is not one any more (a hand edit, another version) is dropped. */
export function readStoredEvaluations(storage) {
  let parsed;
  try {
    parsed = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed
    .filter(
      (entry) =>
        isObject(entry) &&
        typeof entry.key === "string" &&
        "summary" in parseEvalSummary(JSON.stringify(entry.summary)) &&
        entry.summary.batch_id === entry.key,
    )
    .slice(0, REMEMBERED_MAX);
}

/** Whether the list could be stored (a full quota or private browsing: it stays for this page only). */
function writeStored(storage, list) {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}

/** `#/evaluations` → null, `#/evaluations/<batch id>` → the id; undefined elsewhere. */
export function evaluationRouteFrom(hash) {
  const match = /^#\/evaluations(?:\/(.+))?$/.exec(String(hash ?? ""));
  if (!match) return undefined;
  return match[1] ? decodeURIComponent(match[1]) : null;
}

const verdictBadge = (verdict) =>
  h("span", { class: `badge badge-sm verdict-${VERDICTS.includes(verdict) ? verdict : "none"}` }, verdict);

export class EvaluationsView {
  /** `root`: the page's element; `storage`: localStorage (or null); `announce(text)`: the page's announcer. */
  constructor(root, { storage, announce }) {
    this.root = root;
    this.storage = storage;
    this.announce = announce ?? (() => {});
    this.stored = readStoredEvaluations(storage);
    this.selected = null;
    this.#build();
  }

  /** Shows the page: the stored list, and the evaluation of batch `key` when given. */
  show(key) {
    this.root.hidden = false;
    this.selected = key;
    this.#render();
  }

  hide() {
    this.root.hidden = true;
  }

  #build() {
    this.input = h("input", {
      type: "file",
      id: "evaluation-file",
      accept: ".json,application/json",
      "aria-describedby": "evaluation-file-help evaluation-file-error",
      dataset: { testid: "evaluation-file" },
      onchange: () => this.#open(this.input.files?.[0]),
    });
    this.error = h("div", { id: "evaluation-file-error", class: "field-error", role: "alert", hidden: true });
    this.list = h("div", { dataset: { testid: "evaluation-list" } });
    this.detail = h("section", {
      class: "card",
      "aria-labelledby": "evaluation-title",
      dataset: { testid: "evaluation-detail" },
      hidden: true,
    });
    replace(
      this.root,
      h(
        "section",
        { class: "card", "aria-labelledby": "evaluations-heading" },
        h("div", { class: "card-head" }, h("h2", { id: "evaluations-heading" }, "Evaluations")),
        h(
          "p",
          { class: "small muted", id: "evaluation-file-help" },
          "Open a summary written by ",
          h("code", {}, "rewoo eval <folder> --json > summary.json"),
          ". The API does not store evaluations: the summaries opened here are kept in this browser only.",
        ),
        h("label", { for: "evaluation-file" }, "Open a summary"),
        this.input,
        this.error,
        h("h3", { class: "small muted" }, "Opened in this browser"),
        this.list,
      ),
      this.detail,
    );
  }

  async #open(file) {
    if (!file) return;
    const parsed = parseEvalSummary(await file.text());
    this.input.value = "";
    if (parsed.error) {
      replace(this.error, h("p", {}, `${file.name} is not a rewoo eval summary: ${parsed.error}`));
      this.error.hidden = false;
      this.input.setAttribute("aria-invalid", "true");
      return;
    }
    this.error.hidden = true;
    this.input.removeAttribute("aria-invalid");
    this.stored = rememberEvaluation(this.stored, parsed.summary, file.name);
    if (!writeStored(this.storage, this.stored)) {
      this.announce("The browser's storage is full or off: the evaluation is shown but not kept.");
    }
    const hash = `#/evaluations/${encodeURIComponent(parsed.summary.batch_id)}`;
    if (window.location.hash === hash) this.show(parsed.summary.batch_id);
    else window.location.hash = hash;
  }

  #remove(key) {
    this.stored = this.stored.filter((entry) => entry.key !== key);
    writeStored(this.storage, this.stored);
    if (this.selected === key) window.location.hash = "#/evaluations";
    else this.#render();
    this.announce("Evaluation removed from this browser.");
  }

  #render() {
    replace(
      this.list,
      this.stored.length === 0
        ? h("p", { class: "muted small" }, "No evaluation opened in this browser yet.")
        : h(
            "ul",
            { class: "batch-list" },
            this.stored.map((entry) => {
              const { summary } = entry;
              const selected = entry.key === this.selected;
              return h(
                "li",
                { class: "evaluation-item" },
                h(
                  "a",
                  {
                    href: `#/evaluations/${encodeURIComponent(entry.key)}`,
                    class: `run-item${selected ? " selected" : ""}`,
                    "aria-current": selected ? "page" : null,
                    dataset: { testid: `evaluation-item-${entry.key}` },
                  },
                  h(
                    "span",
                    { class: "run-item-top" },
                    h("span", { class: "run-item-program" }, summary.source),
                    outcomeBadge(summary, "badge badge-sm"),
                  ),
                  h(
                    "span",
                    { class: "run-item-meta" },
                    h("span", {}, `${percentText(summary.accuracy)} right`),
                    h("span", {}, formatDateTime(summary.created_at)),
                    h("span", { class: "mono" }, entry.file_name),
                  ),
                ),
                h(
                  "button",
                  { type: "button", class: "btn", onclick: () => this.#remove(entry.key) },
                  "Remove",
                  h("span", { class: "visually-hidden" }, ` ${entry.file_name}`),
                ),
              );
            }),
          ),
    );
    const entry = this.stored.find((candidate) => candidate.key === this.selected);
    this.detail.hidden = !entry;
    if (entry) renderEvaluation(this.detail, entry.summary);
    else if (this.selected) {
      this.detail.hidden = false;
      replace(
        this.detail,
        h(
          "p",
          { class: "alert alert-error", role: "alert" },
          `No evaluation of ${this.selected} is stored in this browser: open its summary file.`,
        ),
      );
    }
  }
}

function outcomeBadge(summary, className) {
  const passed = summary.passed === true;
  const known = typeof summary.passed === "boolean";
  return h(
    "span",
    {
      class: `${className} ${passed ? "run-succeeded" : known ? "run-failed" : ""}`,
      dataset: { testid: "evaluation-outcome" },
    },
    known ? (passed ? "Passed" : "Failed") : "No thresholds",
  );
}

function kpi(label, value, note) {
  return h(
    "div",
    { class: "kpi" },
    h("dt", {}, label),
    h(
      "dd",
      {},
      h("span", { class: "kpi-value" }, value),
      note ? h("span", { class: "kpi-note" }, note) : null,
    ),
  );
}

function table(caption, head, rows, testid) {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "verdicts", dataset: { testid } },
      h("caption", { class: "visually-hidden" }, caption),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          head.map((title) => h("th", { scope: "col" }, title)),
        ),
      ),
      h("tbody", {}, rows),
    ),
  );
}

function tallyTable(caption, keyTitle, record, testid) {
  return table(
    caption,
    [keyTitle, "Labelled", "Right", "Accuracy", "False fulfilled", "Wrong verdicts"],
    tallyRows(record).map((row) =>
      h(
        "tr",
        { dataset: { id: row.id } },
        h("th", { scope: "row" }, h("span", { class: "mono" }, row.id)),
        h("td", {}, String(row.total)),
        h("td", {}, String(row.right)),
        h("td", {}, percentText(row.accuracy)),
        h("td", {}, String(row.false_fulfilled)),
        h("td", { class: "small" }, confusionText(row.confusion) || "—"),
      ),
    ),
    testid,
  );
}

/** One evaluation: outcome, totals, by condition, by document kind, mismatches (each run linked). */
export function renderEvaluation(el, summary) {
  const thresholds = isObject(summary.thresholds) ? summary.thresholds : {};
  const failed = Array.isArray(summary.failed_thresholds) ? summary.failed_thresholds : [];
  replace(
    el,
    h(
      "div",
      { class: "card-head" },
      h("h2", { id: "evaluation-title", class: "run-title" }, `Evaluation of ${summary.source}`),
      outcomeBadge(summary, "badge badge-lg"),
    ),
    h(
      "p",
      { class: "run-ids" },
      "batch ",
      h("span", { class: "mono" }, summary.batch_id),
      ` · ${formatDateTime(summary.created_at)}`,
      summary.api ? ` · runs behind ${summary.api}` : " · runs in the local twin",
      isCount(thresholds.max_false_fulfilled)
        ? ` · --max-false-fulfilled ${thresholds.max_false_fulfilled}`
        : "",
      typeof thresholds.min_accuracy === "number" ? ` · --min-accuracy ${thresholds.min_accuracy}` : "",
    ),
    failed.length
      ? h(
          "div",
          { class: "alert alert-error", role: "status" },
          "Thresholds not met:",
          h(
            "ul",
            {},
            failed.map((text) => h("li", {}, String(text))),
          ),
        )
      : null,
    h(
      "dl",
      { class: "kpis", dataset: { testid: "evaluation-totals" } },
      kpi(
        "Accuracy",
        percentText(summary.accuracy),
        `${summary.right} of ${summary.total} labelled verdicts right`,
      ),
      kpi("False fulfilled", String(summary.false_fulfilled), "fulfilled where the label says otherwise"),
      kpi(
        "Mismatches",
        String(summary.mismatches.length),
        isCount(summary.files) ? `in ${summary.files} loan files` : null,
      ),
    ),
    h("h3", {}, "By condition"),
    tallyTable("Accuracy by condition", "Condition", summary.by_condition, "evaluation-conditions"),
    h("h3", {}, "By document kind"),
    tallyTable("Accuracy by document kind", "Document kind", summary.by_document_kind, "evaluation-kinds"),
    h("h3", {}, `Mismatches (${summary.mismatches.length})`),
    summary.mismatches.length === 0
      ? h("p", { class: "muted" }, "None: every labelled verdict is right.")
      : table(
          "Mismatches",
          ["File", "Condition", "Expected", "Got", "Reason", "Run"],
          summary.mismatches.map((mismatch) =>
            h(
              "tr",
              {},
              h("td", {}, mismatch.file),
              h("th", { scope: "row" }, h("span", { class: "mono" }, mismatch.condition)),
              h("td", {}, verdictBadge(mismatch.expected)),
              h("td", {}, verdictBadge(mismatch.got)),
              h("td", { class: "reason" }, typeof mismatch.reason === "string" ? mismatch.reason : ""),
              h(
                "td",
                {},
                typeof mismatch.run_id === "string"
                  ? h(
                      "a",
                      { href: `#/runs/${encodeURIComponent(mismatch.run_id)}`, class: "mono" },
                      mismatch.run_id,
                    )
                  : "—",
              ),
            ),
          ),
          "evaluation-mismatches",
        ),
    isObject(summary.compare) ? compareSection(summary.compare) : null,
  );
}

function compareSection(compare) {
  const list = (changes) => (Array.isArray(changes) ? changes.filter(isObject) : []);
  const rows = (changes) =>
    list(changes).map((change) =>
      h(
        "li",
        {},
        `${change.file} ${change.condition}: ${change.before} → ${change.after} (expected ${change.expected})`,
      ),
    );
  const accuracy = isObject(compare.accuracy) ? compare.accuracy : {};
  return h(
    "section",
    { dataset: { testid: "evaluation-compare" } },
    h("h3", {}, "Changes since the previous evaluation"),
    h("p", {}, `Accuracy ${percentText(accuracy.before)} → ${percentText(accuracy.after)}.`),
    h("h4", {}, `Regressions: right → wrong (${list(compare.regressions).length})`),
    h("ul", {}, rows(compare.regressions)),
    h("h4", {}, `Fixes: wrong → right (${list(compare.fixes).length})`),
    h("ul", {}, rows(compare.fixes)),
  );
}
