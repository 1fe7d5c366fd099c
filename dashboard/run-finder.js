// Find runs (#/find?…) and "Needs you" (#/needs-you, and its count in the sidebar).
//
// The finder's filters live in the address (#/find?q=&status=&program=&classification=&from=&to=&limit=)
// so a search can be shared as a link and Back returns to the previous one; the cursors of the pages
// walked through are kept in memory for "Previous". Both read GET /v1/runs (RunList: runs newest
// first, `next_cursor` until the last page). Everything from the API is set as text (dom.js).
import { ApiError } from "./api.js";
import { formatDateTime, h, replace } from "./dom.js";
import { UNFINISHED_STATUSES, WAITING_STATUSES } from "./run-status.js";
import { formatUsd, runStatusLabel } from "./views.js";

/** The statuses an officer picks from, grouped by what they mean for them; each has an icon besides its word. */
export const STATUS_GROUPS = [
  {
    id: "waiting",
    label: "Waiting for a person",
    icon: "‖",
    statuses: WAITING_STATUSES,
  },
  {
    id: "running",
    label: "Running",
    icon: "▶",
    statuses: UNFINISHED_STATUSES.filter((status) => !WAITING_STATUSES.includes(status)),
  },
  { id: "well", label: "Ended well", icon: "✓", statuses: ["SUCCEEDED"] },
  {
    id: "badly",
    label: "Ended badly",
    icon: "✕",
    statuses: ["FAILED", "INTERRUPTED", "CANCELLED", "REJECTED", "NEEDS_REVIEW"],
  },
];

const KNOWN_STATUSES = new Set(STATUS_GROUPS.flatMap((group) => group.statuses));

const DEFAULT_LIMIT = 20;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The icon of a status's group ("?" for one this page does not know), always shown beside its word. */
export function statusIcon(status) {
  return STATUS_GROUPS.find((group) => group.statuses.includes(status))?.icon ?? "?";
}

/** Status as an icon and words (the words are what a screen reader reads; the icon is decoration). */
export function statusWithIcon(status) {
  return h(
    "span",
    { class: `finder-status finder-status-${String(status).toLowerCase()}`, dataset: { status } },
    h("span", { class: "finder-status-icon", "aria-hidden": "true" }, statusIcon(status)),
    " ",
    runStatusLabel(status),
  );
}

// ---------------------------------------------------------------------------------------------
// Filters ↔ address ↔ API query

/**
 * The filters of `#/find?…`, or undefined when the address is not the finder's.
 * `{q, status: [..], program, classification, from, to, limit}`, absent ones as "" / [].
 */
export function finderFiltersFrom(hash) {
  const match = /^#\/find(?:\?(.*))?$/.exec(hash);
  if (!match) return undefined;
  const params = new URLSearchParams(match[1] ?? "");
  const text = (name) => (params.get(name) ?? "").trim();
  const limit = Number(text("limit"));
  return {
    q: text("q"),
    status: text("status")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    program: text("program"),
    classification: text("classification"),
    from: text("from"),
    to: text("to"),
    limit: Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_LIMIT,
  };
}

/** The address of a search: only the filters that are set, in a stable order. */
export function finderHash(filters) {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.status?.length) params.set("status", filters.status.join(","));
  if (filters.program) params.set("program", filters.program);
  if (filters.classification) params.set("classification", filters.classification);
  if (filters.from) params.set("from", filters.from);
  if (filters.to) params.set("to", filters.to);
  if (filters.limit && filters.limit !== DEFAULT_LIMIT) params.set("limit", String(filters.limit));
  const query = params.toString();
  return query ? `#/find?${query}` : "#/find";
}

/** The query of GET /v1/runs in the API's own names (docs/api.openapi.yaml). */
export function runListQuery(filters, cursor) {
  const query = {};
  if (filters.status?.length) query.status = filters.status.join(",");
  if (filters.program) query.loan_program = filters.program;
  if (filters.classification) query.classification = filters.classification;
  if (filters.from) query.from = filters.from;
  if (filters.to) query.to = filters.to;
  if (filters.q) query.q = filters.q;
  query.limit = String(filters.limit ?? DEFAULT_LIMIT);
  if (cursor) query.cursor = cursor;
  return query;
}

/** What the page checks before asking, with the API's field names (so errors land in one place). */
export function validateFilters(filters) {
  const errors = [];
  for (const name of ["from", "to"]) {
    if (filters[name] && !DATE.test(filters[name]))
      errors.push({ field: name, message: "expected a date, YYYY-MM-DD" });
  }
  if (
    filters.from &&
    filters.to &&
    DATE.test(filters.from) &&
    DATE.test(filters.to) &&
    filters.from > filters.to
  )
    // Named like the API names it: the day the range starts from is the one to move.
    errors.push({ field: "from", message: `must be on or before the "to" date (${filters.to})` });
  for (const status of filters.status ?? []) {
    if (!KNOWN_STATUSES.has(status)) errors.push({ field: "status", message: `unknown status ${status}` });
  }
  return errors;
}

/** "No runs match …": the filters in words, so an officer sees what to loosen. */
export function describeFilters(filters) {
  const parts = [];
  if (filters.q) parts.push(`“${filters.q}”`);
  if (filters.status?.length) parts.push(`status ${filters.status.map(runStatusLabel).join(" or ")}`);
  if (filters.program) parts.push(`program “${filters.program}”`);
  if (filters.classification) parts.push(`classification “${filters.classification}”`);
  let created = "";
  if (filters.from && filters.to) created = `created ${filters.from} to ${filters.to}`;
  else if (filters.from) created = `created since ${filters.from}`;
  else if (filters.to) created = `created until ${filters.to}`;
  if (parts.length === 0) return created ? `No runs ${created}.` : "No runs yet.";
  return `No runs match ${parts.join(", ")} in ${created ? `the runs ${created}` : "the recent runs"}.`;
}

export const loanNumberOf = (run) => run.loan_number ?? stringOrEmpty(run.request?.metadata?.loan_number);

export const stringOrEmpty = (value) =>
  typeof value === "string" || typeof value === "number" ? String(value) : "";

// ---------------------------------------------------------------------------------------------
// The finder page

/** Where each of the API's 400 fields is shown (the API names its query parameters). */
const FIELD_OF_PARAM = {
  q: "q",
  status: "status",
  loan_program: "program",
  classification: "classification",
  from: "from",
  to: "to",
  limit: "limit",
  cursor: "form",
};

export class RunFinder {
  /**
   * @param {HTMLElement} root  the container of the page (hidden while another page shows)
   * @param {{api: import("./api.js").ApiClient, announce: (text: string) => void}} deps
   */
  constructor(root, { api, announce }) {
    this.root = root;
    this.api = api;
    this.announce = announce;
    this.filters = null;
    this.filtersKey = "";
    /** Cursors of the pages walked through: [undefined (page 1), cursor of page 2, …]. */
    this.cursors = [undefined];
    this.nextCursor = undefined;
    this.request = 0;
    this.catalogAsked = false;
    this.#build();
  }

  #build() {
    const field = (name) => `finder-${name}`;
    const errorOf = (name) =>
      h("div", {
        id: `${field(name)}-error`,
        class: "field-error",
        dataset: { testid: `finder-error-${name}` },
        hidden: true,
      });
    this.errors = Object.fromEntries(
      ["q", "status", "program", "classification", "from", "to", "limit", "form"].map((name) => [
        name,
        errorOf(name),
      ]),
    );
    this.inputs = {
      q: h("input", {
        id: field("q"),
        name: "q",
        type: "search",
        class: "mono",
        placeholder: "run-… or a loan number",
        autocomplete: "off",
        spellcheck: "false",
        "aria-describedby": `${field("q")}-error`,
        dataset: { testid: "finder-q" },
      }),
      program: h("input", {
        id: field("program"),
        name: "program",
        list: field("programs"),
        autocomplete: "off",
        placeholder: "Any program",
        "aria-describedby": `${field("program")}-error`,
        dataset: { testid: "finder-program" },
      }),
      classification: this.#classificationInput(null),
      from: h("input", {
        id: field("from"),
        name: "from",
        type: "date",
        "aria-describedby": `${field("from")}-error`,
        dataset: { testid: "finder-from" },
      }),
      to: h("input", {
        id: field("to"),
        name: "to",
        type: "date",
        "aria-describedby": `${field("to")}-error`,
        dataset: { testid: "finder-to" },
      }),
    };
    this.programs = h("datalist", { id: field("programs") });
    this.statusBoxes = new Map();
    const groups = STATUS_GROUPS.map((group) =>
      h(
        "fieldset",
        { class: "finder-status-group" },
        h(
          "legend",
          {},
          h("span", { "aria-hidden": "true", class: "finder-status-icon" }, group.icon),
          ` ${group.label}`,
        ),
        group.statuses.map((status) => {
          const box = h("input", {
            type: "checkbox",
            name: "status",
            value: status,
            id: field(`status-${status}`),
            dataset: { testid: `finder-status-${status}` },
          });
          this.statusBoxes.set(status, box);
          return h("label", { class: "finder-check", for: box.id }, box, ` ${runStatusLabel(status)}`);
        }),
      ),
    );
    this.form = h(
      "form",
      {
        class: "finder-form",
        dataset: { testid: "finder-form" },
        novalidate: true,
        "aria-describedby": `${field("form")}-error`,
        onSubmit: (event) => {
          event.preventDefault();
          this.#submit();
        },
      },
      h(
        "div",
        { class: "finder-field finder-field-wide" },
        h("label", { for: field("q") }, "Run id or loan number"),
        this.inputs.q,
        this.errors.q,
      ),
      h(
        "fieldset",
        { class: "finder-statuses", "aria-describedby": `${field("status")}-error` },
        h("legend", {}, "Status (none ticked: any)"),
        h("div", { class: "finder-status-groups" }, groups),
        this.errors.status,
      ),
      h(
        "div",
        { class: "finder-row" },
        h(
          "div",
          { class: "finder-field" },
          h("label", { for: field("program") }, "Loan program"),
          this.inputs.program,
          this.programs,
          this.errors.program,
        ),
        h(
          "div",
          { class: "finder-field" },
          h("label", { for: field("classification") }, "Classification"),
          this.inputs.classification,
          this.errors.classification,
        ),
        h(
          "div",
          { class: "finder-field" },
          h("label", { for: field("from") }, "Created from"),
          this.inputs.from,
          this.errors.from,
        ),
        h(
          "div",
          { class: "finder-field" },
          h("label", { for: field("to") }, "Created to (inclusive)"),
          this.inputs.to,
          this.errors.to,
        ),
      ),
      h(
        "div",
        { class: "finder-actions" },
        h(
          "button",
          { type: "submit", class: "btn btn-primary", dataset: { testid: "finder-submit" } },
          "Find runs",
        ),
        h("a", { class: "btn", href: "#/find", dataset: { testid: "finder-clear" } }, "Clear filters"),
      ),
      this.errors.limit,
      this.errors.form,
    );
    this.status = h("p", {
      class: "finder-status-line small muted",
      role: "status",
      dataset: { testid: "finder-status" },
    });
    this.results = h("div", { class: "finder-results", dataset: { testid: "finder-results" } });
    this.pager = h("nav", { class: "finder-pager", "aria-label": "Pages of runs", hidden: true });
    replace(
      this.root,
      h(
        "section",
        { class: "card finder", "aria-labelledby": "finder-heading" },
        h("div", { class: "card-head" }, h("h2", { id: "finder-heading" }, "Find runs")),
        this.form,
      ),
      h(
        "section",
        { class: "card finder", "aria-labelledby": "finder-results-heading" },
        h(
          "div",
          { class: "card-head" },
          h("h2", { id: "finder-results-heading" }, "Runs found"),
          this.status,
        ),
        this.results,
        this.pager,
      ),
    );
  }

  /** A select when the catalog names the classifications, else free text (the API accepts any). */
  #classificationInput(names) {
    const common = {
      id: "finder-classification",
      name: "classification",
      "aria-describedby": "finder-classification-error",
      dataset: { testid: "finder-classification" },
    };
    if (!names) return h("input", { ...common, autocomplete: "off", placeholder: "Any classification" });
    return h(
      "select",
      common,
      h("option", { value: "" }, "Any classification"),
      names.map((name) => h("option", { value: name }, name)),
    );
  }

  async #loadCatalog() {
    if (this.catalogAsked) return;
    this.catalogAsked = true;
    let catalog = null;
    try {
      catalog = await this.api.catalogIfBuilt();
    } catch {
      catalog = null; // the free text inputs stay
    }
    if (!catalog) return;
    replace(
      this.programs,
      (catalog.loan_programs ?? []).map((program) => h("option", { value: program })),
    );
    const names = (catalog.classifications ?? []).map((c) => c.name).filter((n) => typeof n === "string");
    if (names.length === 0) return;
    const value = this.inputs.classification.value;
    const select = this.#classificationInput(value && !names.includes(value) ? [...names, value] : names);
    select.value = value;
    this.inputs.classification.replaceWith(select);
    this.inputs.classification = select;
  }

  show(filters) {
    this.root.hidden = false;
    this.#loadCatalog();
    this.#fill(filters);
    const key = finderHash(filters);
    if (key !== this.filtersKey) {
      this.filtersKey = key;
      this.cursors = [undefined];
    }
    this.filters = filters;
    this.#fetch();
  }

  hide() {
    this.root.hidden = true;
    this.request++; // an answer still on its way is dropped
  }

  #fill(filters) {
    this.inputs.q.value = filters.q;
    this.inputs.program.value = filters.program;
    this.inputs.classification.value = filters.classification;
    this.inputs.from.value = filters.from;
    this.inputs.to.value = filters.to;
    for (const [status, box] of this.statusBoxes) box.checked = filters.status.includes(status);
  }

  #read() {
    return {
      q: this.inputs.q.value.trim(),
      status: [...this.statusBoxes].filter(([, box]) => box.checked).map(([status]) => status),
      program: this.inputs.program.value.trim(),
      classification: this.inputs.classification.value.trim(),
      from: this.inputs.from.value,
      to: this.inputs.to.value,
      limit: this.filters?.limit ?? DEFAULT_LIMIT,
    };
  }

  #submit() {
    const filters = this.#read();
    const errors = validateFilters(filters);
    this.#showErrors(errors);
    if (errors.length) {
      this.announce(`The search was not sent: ${errors.map((e) => e.message).join("; ")}`);
      return;
    }
    const hash = finderHash(filters);
    // The same search again (Enter twice, or to refresh): no hashchange, so ask here.
    if (window.location.hash === hash) this.show(filters);
    else window.location.hash = hash;
  }

  #showErrors(errors) {
    for (const el of Object.values(this.errors)) {
      el.hidden = true;
      el.replaceChildren();
    }
    for (const input of Object.values(this.inputs)) input.removeAttribute("aria-invalid");
    for (const { field, message } of errors) {
      const name = FIELD_OF_PARAM[field] ?? "form";
      const el = this.errors[name];
      el.hidden = false;
      el.append(h("p", {}, name === "form" ? `${field}: ${message}` : message));
      this.inputs[name]?.setAttribute("aria-invalid", "true");
    }
  }

  async #fetch() {
    const request = ++this.request;
    const cursor = this.cursors.at(-1);
    this.results.setAttribute("aria-busy", "true");
    this.status.textContent = "Finding runs…";
    this.announce("Finding runs…");
    let answer;
    try {
      answer = await this.api.findRuns(runListQuery(this.filters, cursor));
    } catch (error) {
      if (request !== this.request) return;
      this.results.removeAttribute("aria-busy");
      if (error instanceof ApiError && error.status === 400 && error.fields.length) {
        this.#showErrors(error.fields);
        this.status.textContent = "The API refused the search: see the filter it names.";
      } else {
        this.#showErrors([{ field: "form", message: error.message }]);
        this.status.textContent = "The search failed.";
      }
      replace(this.results);
      this.pager.hidden = true;
      this.announce(this.status.textContent);
      return;
    }
    if (request !== this.request) return;
    this.#showErrors([]);
    this.results.removeAttribute("aria-busy");
    const runs = Array.isArray(answer?.runs) ? answer.runs : [];
    this.nextCursor = typeof answer?.next_cursor === "string" ? answer.next_cursor : undefined;
    const page = this.cursors.length;
    const said =
      runs.length === 0
        ? describeFilters(this.filters)
        : `${runs.length} ${runs.length === 1 ? "run" : "runs"} on page ${page}${this.nextCursor ? ", more on the next" : ""}.`;
    this.status.textContent = said;
    this.announce(said);
    // Without dates the API looks at its recent days only (a search by run id or loan number further back).
    const hint =
      runs.length === 0 && !this.filters.from && !this.filters.q
        ? h(
            "p",
            { class: "small muted" },
            "Without a “Created from” date only the last few days are searched; set one to look further back.",
          )
        : null;
    replace(
      this.results,
      runs.length === 0
        ? h("p", { class: "finder-empty", dataset: { testid: "finder-empty" } }, said)
        : this.#table(runs),
      hint,
    );
    this.#pager(page);
  }

  #table(runs) {
    return h(
      "table",
      { class: "finder-table", dataset: { testid: "finder-table" } },
      h("caption", { class: "visually-hidden" }, "Runs matching the filters, newest first"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Run", "Loan number", "Program", "Classification", "Status", "Created", "Cost"].map((title) =>
            h("th", { scope: "col" }, title),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        runs.map((run) => {
          const metadata = run.request?.metadata ?? {};
          return h(
            "tr",
            { dataset: { testid: "finder-row", runId: run.run_id, status: run.status } },
            h(
              "th",
              { scope: "row" },
              h(
                "a",
                {
                  href: `#/runs/${encodeURIComponent(run.run_id)}`,
                  class: "link mono",
                  dataset: { testid: `finder-run-${run.run_id}` },
                },
                run.run_id,
              ),
            ),
            h("td", { class: "mono", dataset: { testid: "finder-loan-number" } }, loanNumberOf(run) || "—"),
            h("td", {}, stringOrEmpty(metadata.loan_program) || "—"),
            h("td", {}, stringOrEmpty(metadata.classification) || "—"),
            h("td", {}, statusWithIcon(run.status)),
            h(
              "td",
              {},
              h(
                "time",
                { datetime: run.created_at, title: formatDateTime(run.created_at) },
                formatDateTime(run.created_at),
              ),
            ),
            h(
              "td",
              { class: "finder-cost" },
              run.cost ? `≈ ${formatUsd(run.cost.total)}` : h("span", { class: "muted" }, "not ended"),
            ),
          );
        }),
      ),
    );
  }

  #pager(page) {
    const previous = page > 1;
    const next = Boolean(this.nextCursor);
    this.pager.hidden = !previous && !next;
    replace(
      this.pager,
      h(
        "button",
        {
          type: "button",
          class: "btn",
          disabled: !previous,
          dataset: { testid: "finder-previous" },
          onClick: () => {
            this.cursors.pop();
            this.#fetch();
          },
        },
        "← Previous page",
      ),
      h("span", { class: "small muted", dataset: { testid: "finder-page" } }, `Page ${page}`),
      h(
        "button",
        {
          type: "button",
          class: "btn",
          disabled: !next,
          dataset: { testid: "finder-next" },
          onClick: () => {
            this.cursors.push(this.nextCursor);
            this.#fetch();
          },
        },
        "Next page →",
      ),
    );
  }
}
