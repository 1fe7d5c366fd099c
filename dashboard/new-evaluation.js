// The New evaluation page (#/new): a loan officer starts an evaluation from the browser. The form
// offers what GET /v1/catalog says (classifications, and exactly the metadata fields the chosen
// classification's conditions read), uploads each dropped PDF at once (uploads.js), checks what the API
// would refuse before sending, and shows the API's own 400 next to the field it names. The plain
// functions come first and touch no DOM (tested without a browser).
import { ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { formatBytes, isPdf, uploadDocument } from "./uploads.js";

/** The API's limits (lambdas/core/request.ts): instructions length, max_steps range, documents per request. */
export const MAX_INSTRUCTIONS = 4000;
export const MAX_STEPS = { min: 1, max: 50 };
export const MAX_DOCUMENTS = 50;

/** What the instruction reader understands (docs/instructions.md), offered as one-click examples. */
export const INSTRUCTION_EXAMPLES = [
  "Evaluate all loan conditions",
  "Only check the signature and the EIN",
  "Evaluate everything except the EIN",
  "Which conditions apply?",
  "Are these statements sufficient? What's missing?",
];

/** What the API says of a missing loan program (lambdas/agents/loan/loan-request.ts). */
const LOAN_PROGRAM_REQUIRED = "required: the loan program, e.g. Flex Supreme";

/** Fields the form always shows above the classification's own (so an input naming one is not repeated). */
const FIXED_FIELDS = ["loan_program", "classification", "loan_number", "as_of_date"];

const WORDS = { ein: "EIN", info: "", extracted: "", entities: "" };

/** A label from a dotted metadata path: `borrower_info.business_name` → "Business name", `…ein` → "EIN". */
export function fieldLabel(field) {
  const last = String(field).split(".").at(-1) ?? "";
  const words = last
    .split("_")
    .filter(Boolean)
    .map((word) => WORDS[word] ?? word);
  const text = words.filter(Boolean).join(" ");
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : String(field);
}

/** How a catalog input is typed and sent: an amount and a year as numbers, anything else as text. */
export function inputKind(input) {
  const expected = String(input?.expected ?? "");
  if (/\bamount\b/i.test(expected)) return "money";
  if (/\bfour-digit year\b/i.test(expected)) return "year";
  if (/\bYYYY-MM-DD\b/.test(expected)) return "date";
  if (/NN-NNNNNNN/.test(expected)) return "ein";
  return "text";
}

/** Writes `value` at a dotted path: setPath(m, "borrower_info.name", "Jane") → m.borrower_info.name. */
export function setPath(target, dotted, value) {
  const parts = String(dotted).split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (node[part] === null || typeof node[part] !== "object" || Array.isArray(node[part])) node[part] = {};
    node = node[part];
  }
  node[parts.at(-1)] = value;
  return target;
}

/**
 * The API's rules for metadata values (lambdas/agents/loan/loan-request.ts): an amount is digits with `$`,
 * `,` and spaces allowed and above zero; a date is YYYY-MM-DD naming a day that exists.
 */
export function amountOf(text) {
  const cleaned = String(text).replace(/[$,\s]/g, "");
  return /^\d+(?:\.\d+)?$/.test(cleaned) ? Number(cleaned) : undefined;
}

export function isCalendarDate(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(text));
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** What the API says of an as-of date that is not one (the catalog's words for the field). */
const AS_OF_DATE_EXPECTED = "a date, YYYY-MM-DD, e.g. 2025-04-15";

/** A typed value as the request carries it, or the problem with it (said as the API's `expected` says). */
function fieldValue(input, raw) {
  const text = String(raw ?? "").trim();
  if (text === "") return { value: undefined };
  switch (inputKind(input)) {
    case "money": {
      const amount = amountOf(text);
      return amount !== undefined && amount > 0
        ? { value: amount }
        : { problem: `expected ${input.expected}` };
    }
    case "year":
      return /^\d{4}$/.test(text) ? { value: Number(text) } : { problem: `expected ${input.expected}` };
    case "date":
      return isCalendarDate(text) ? { value: text } : { problem: `expected ${input.expected}` };
    case "ein":
      return /^\d{2}-?\d{7}$/.test(text) ? { value: text } : { problem: `expected ${input.expected}` };
    default:
      return { value: text };
  }
}

/**
 * The evaluation request from what the form holds, or the problems, each named like the API names
 * it (`metadata.loan_program`, `metadata.borrower_info.name`, `instructions`, `s3_pdf_paths`,
 * `options.max_steps`) so the page shows its own errors and the API's the same way.
 *
 * values: {loan_program, classification, loan_number, as_of_date, fields: {<dotted>: text},
 * instructions, parallel, max_steps, approval}; inputs: the classification's catalog inputs;
 * documents: [{status, s3_pdf_path}] in the order shown; classifications: the catalog's names.
 */
export function buildRequest(values, inputs, documents, classifications = []) {
  const errors = [];
  const metadata = {};
  const loanProgram = String(values.loan_program ?? "").trim();
  if (loanProgram) metadata.loan_program = loanProgram;
  else errors.push({ field: "metadata.loan_program", message: LOAN_PROGRAM_REQUIRED });
  const classification = String(values.classification ?? "").trim();
  if (classification) metadata.classification = classification;
  else
    errors.push({
      field: "metadata.classification",
      message: classifications.length
        ? `required: one of ${classifications.map((name) => JSON.stringify(name)).join(", ")}`
        : "required: choose the documents' classification",
    });
  const loanNumber = String(values.loan_number ?? "").trim();
  if (loanNumber) metadata.loan_number = loanNumber;
  const asOf = String(values.as_of_date ?? "").trim();
  if (asOf) {
    if (isCalendarDate(asOf)) metadata.as_of_date = asOf;
    else errors.push({ field: "metadata.as_of_date", message: `expected ${AS_OF_DATE_EXPECTED}` });
  }
  for (const input of inputs ?? []) {
    if (FIXED_FIELDS.includes(input.field)) continue;
    const { value, problem } = fieldValue(input, values.fields?.[input.field]);
    if (problem) errors.push({ field: `metadata.${input.field}`, message: problem });
    else if (value !== undefined) setPath(metadata, input.field, value);
  }

  const instructions = String(values.instructions ?? "").trim();
  if (instructions.length > MAX_INSTRUCTIONS) {
    errors.push({
      field: "instructions",
      message: `at most ${MAX_INSTRUCTIONS.toLocaleString("en-US")} characters (now ${instructions.length.toLocaleString("en-US")})`,
    });
  }

  const docs = documents ?? [];
  const paths = docs.filter((doc) => doc.status === "uploaded").map((doc) => doc.s3_pdf_path);
  if (docs.some((doc) => doc.status === "uploading")) {
    errors.push({ field: "s3_pdf_paths", message: "wait until every document is uploaded" });
  } else if (docs.some((doc) => doc.status === "failed")) {
    errors.push({ field: "s3_pdf_paths", message: "a document failed to upload: retry it or remove it" });
  } else if (paths.length === 0) {
    errors.push({ field: "s3_pdf_paths", message: "add at least one PDF document" });
  } else if (paths.length > MAX_DOCUMENTS) {
    errors.push({ field: "s3_pdf_paths", message: `at most ${MAX_DOCUMENTS} documents` });
  }

  const options = { parallel: values.parallel !== false };
  const maxSteps = String(values.max_steps ?? "").trim();
  if (maxSteps) {
    const steps = Number(maxSteps);
    if (Number.isInteger(steps) && steps >= MAX_STEPS.min && steps <= MAX_STEPS.max)
      options.max_steps = steps;
    else
      errors.push({
        field: "options.max_steps",
        message: `expected a whole number from ${MAX_STEPS.min} to ${MAX_STEPS.max}`,
      });
  }
  if (values.approval) options.approval = "required";

  if (errors.length > 0) return { request: null, errors };
  return {
    request: { metadata, ...(instructions ? { instructions } : {}), s3_pdf_paths: paths, options },
    errors: [],
  };
}

/**
 * Where an API field's error goes: a control (`{control: "<field>"}`), the n-th document of the
 * request (`{document: n}`), or the form itself (null) for a field the form has no control for.
 */
export function errorTarget(field, controls) {
  const text = String(field);
  const documentIndex = /^s3_pdf_paths\[(\d+)\]/.exec(text)?.[1];
  if (documentIndex !== undefined) return { document: Number(documentIndex) };
  // The API may name a part of a field (metadata.borrower_info.name.first): the nearest control above it.
  let candidate = text;
  while (candidate) {
    if (controls.includes(candidate)) return { control: candidate };
    const cut = Math.max(candidate.lastIndexOf("."), candidate.lastIndexOf("["));
    if (cut <= 0) break;
    candidate = candidate.slice(0, cut);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The page

const idFor = (field) => `ne-${String(field).replace(/[^A-Za-z0-9_]+/g, "-")}`;

export class NewEvaluation {
  /**
   * root: the page's container. api: the ApiClient. onStarted(started, request): a run was started
   * (202). announce(text): said by the page's live region.
   */
  constructor(root, { api, onStarted, announce = () => {} }) {
    this.root = root;
    this.api = api;
    this.onStarted = onStarted;
    this.announce = announce;
    this.catalog = null;
    this.catalogError = "";
    /** Typed values of the classification fields, kept when the classification changes back and forth. */
    this.fieldValues = new Map();
    /** [{id, file, status: "uploading"|"uploaded"|"failed", progress, phase, error, s3_pdf_path, controller, el}] */
    this.documents = [];
    /** The documents of the last request sent, in its s3_pdf_paths order (for `s3_pdf_paths[n]` errors). */
    this.sentDocuments = [];
    /** field → {input, error} */
    this.controls = new Map();
    this.nextDocumentId = 1;
    this.submitting = false;
    this.built = false;
  }

  show() {
    if (!this.built) this.#build();
    this.root.hidden = false;
    if (!this.catalog) this.#loadCatalog();
    this.el.title.focus();
  }

  hide() {
    this.root.hidden = true;
  }

  // -------------------------------------------------------------------------------- building

  #build() {
    this.built = true;
    const el = {};
    this.el = el;
    el.title = h("h2", { id: "ne-title", tabindex: "-1" }, "New evaluation");
    el.formError = h("div", {
      id: "ne-form-error",
      class: "field-error ne-form-error",
      role: "alert",
      "data-testid": "ne-form-error",
      hidden: true,
    });

    // Loan
    el.programs = h("datalist", { id: "ne-loan-programs" });
    const program = this.#textControl("metadata.loan_program", "Loan program", {
      hint: "Any program name; suggestions come from the condition catalog.",
      required: true,
      attrs: { list: "ne-loan-programs", autocomplete: "off" },
    });
    el.classification = h("select", { id: idFor("metadata.classification"), required: true }, [
      h("option", { value: "" }, "Loading the catalog…"),
    ]);
    el.classificationInfo = h("p", { class: "hint", id: "ne-classification-info", "aria-live": "polite" });
    const classification = this.#wrap("metadata.classification", "Classification", el.classification, {
      required: true,
      hintEl: el.classificationInfo,
    });
    el.classification.addEventListener("change", () => this.#renderInputs());
    const loanNumber = this.#textControl("metadata.loan_number", "Loan number", {
      hint: "Optional: lets the run be found by this number later.",
      attrs: { autocomplete: "off", spellcheck: "false" },
    });
    const asOf = this.#textControl("metadata.as_of_date", "As-of date", {
      hint: "The date the loan is evaluated on; recency rules count back from it. Empty: today.",
      attrs: { type: "date" },
    });

    // The classification's own fields
    el.inputs = h("div", { class: "ne-grid", "data-testid": "ne-inputs" });
    el.inputsNote = h(
      "p",
      { class: "hint" },
      "Choose a classification to see the fields its conditions need.",
    );

    // Instructions
    el.instructions = h("textarea", { id: idFor("instructions"), rows: "4", spellcheck: "true" });
    el.counter = h("p", { class: "hint ne-counter", id: "ne-instructions-count", "aria-live": "polite" });
    el.instructions.addEventListener("input", () => {
      this.#updateCounter();
      this.#clearError("instructions");
    });
    const examples = h(
      "div",
      { class: "ne-examples", role: "group", "aria-label": "Example instructions" },
      h("span", { class: "hint" }, "Examples:"),
      INSTRUCTION_EXAMPLES.map((text) =>
        h(
          "button",
          {
            type: "button",
            class: "btn ne-example",
            onClick: () => {
              el.instructions.value = text;
              this.#updateCounter();
              this.#clearError("instructions");
              el.instructions.focus();
            },
          },
          text,
        ),
      ),
    );
    const instructions = this.#wrap("instructions", "Instructions", el.instructions, {
      hint: "What to evaluate, in plain words. Empty: evaluate all applicable conditions.",
      extra: [el.counter, examples],
      describedBy: ["ne-instructions-count"],
    });

    // Documents
    el.fileInput = h("input", {
      type: "file",
      id: "ne-file-input",
      class: "visually-hidden",
      accept: "application/pdf,.pdf",
      multiple: true,
      tabindex: "-1",
      "aria-label": "PDF documents to upload",
      "data-testid": "ne-file-input",
    });
    el.fileInput.addEventListener("change", () => {
      this.#addFiles([...el.fileInput.files]);
      el.fileInput.value = "";
    });
    el.chooseFiles = h(
      "button",
      {
        type: "button",
        class: "btn",
        id: idFor("s3_pdf_paths"),
        "data-testid": "ne-choose-files",
        onClick: () => el.fileInput.click(),
      },
      "Choose PDF files…",
    );
    el.dropZone = h(
      "div",
      { class: "ne-drop-zone", "data-testid": "ne-drop-zone" },
      h("p", {}, h("span", { "aria-hidden": "true" }, "⇪ "), "Drop PDF files here, or"),
      el.chooseFiles,
      el.fileInput,
      h("p", { class: "hint" }, "PDF only. Each file is uploaded as soon as it is added."),
    );
    for (const type of ["dragenter", "dragover"]) {
      el.dropZone.addEventListener(type, (event) => {
        event.preventDefault();
        el.dropZone.classList.add("ne-drop-active");
      });
    }
    el.dropZone.addEventListener("dragleave", () => el.dropZone.classList.remove("ne-drop-active"));
    el.dropZone.addEventListener("drop", (event) => {
      event.preventDefault();
      el.dropZone.classList.remove("ne-drop-active");
      this.#addFiles([...(event.dataTransfer?.files ?? [])]);
    });
    el.documentList = h("ul", {
      class: "ne-documents",
      "data-testid": "ne-documents",
      "aria-label": "Documents",
    });
    const documentsError = h("div", {
      id: `${idFor("s3_pdf_paths")}-error`,
      class: "field-error",
      hidden: true,
      "data-testid": "ne-error-s3_pdf_paths",
    });
    this.controls.set("s3_pdf_paths", { input: el.chooseFiles, error: documentsError });
    el.chooseFiles.setAttribute("aria-describedby", documentsError.id);

    // Options
    el.parallel = h("input", { type: "checkbox", id: idFor("options.parallel"), checked: true });
    el.maxSteps = h("input", {
      type: "number",
      id: idFor("options.max_steps"),
      min: String(MAX_STEPS.min),
      max: String(MAX_STEPS.max),
      step: "1",
      inputmode: "numeric",
    });
    el.approval = h("input", { type: "checkbox", id: idFor("options.approval") });
    const checkbox = (input, label, hint, field) => {
      const hintId = `${input.id}-hint`;
      const error = h("div", { id: `${input.id}-error`, class: "field-error", hidden: true });
      input.setAttribute("aria-describedby", `${hintId} ${error.id}`);
      this.controls.set(field, { input, error });
      return h(
        "div",
        { class: "ne-check" },
        input,
        h("label", { for: input.id }, label),
        h("p", { class: "hint", id: hintId }, hint),
        error,
      );
    };
    const maxSteps = this.#wrap("options.max_steps", "Max steps", el.maxSteps, {
      hint: `A whole number from ${MAX_STEPS.min} to ${MAX_STEPS.max}. Empty: the service's default.`,
    });

    el.submit = h(
      "button",
      { type: "submit", class: "btn btn-primary", "data-testid": "ne-submit" },
      "Start evaluation",
    );
    el.status = h("p", { class: "hint", role: "status", "data-testid": "ne-status" });

    el.form = h(
      "form",
      {
        class: "ne-form",
        novalidate: true,
        "aria-labelledby": "ne-title",
        "data-testid": "new-evaluation-form",
      },
      el.formError,
      h(
        "fieldset",
        { class: "ne-fieldset" },
        h("legend", {}, "Loan"),
        h("div", { class: "ne-grid" }, program, classification, loanNumber, asOf),
        el.programs,
      ),
      h(
        "fieldset",
        { class: "ne-fieldset" },
        h("legend", {}, "Borrower and entity"),
        el.inputsNote,
        el.inputs,
      ),
      h("fieldset", { class: "ne-fieldset" }, h("legend", {}, "Instructions"), instructions),
      h(
        "fieldset",
        { class: "ne-fieldset" },
        h("legend", {}, "Documents"),
        el.dropZone,
        documentsError,
        el.documentList,
      ),
      h(
        "fieldset",
        { class: "ne-fieldset" },
        h("legend", {}, "Options"),
        h(
          "div",
          { class: "ne-grid" },
          checkbox(
            el.parallel,
            "Run independent steps in parallel",
            "Steps that do not depend on each other run at once.",
            "options.parallel",
          ),
          maxSteps,
          checkbox(
            el.approval,
            "Approval required",
            "The run waits for a person to approve its plan before any tool runs.",
            "options.approval",
          ),
        ),
      ),
      h("div", { class: "form-actions" }, el.submit, el.status),
    );
    el.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.#submit();
    });

    replace(
      this.root,
      h(
        "section",
        { class: "card new-evaluation", "aria-labelledby": "ne-title", "data-testid": "new-evaluation" },
        h("div", { class: "card-head" }, el.title),
        h(
          "p",
          { class: "muted" },
          "Describe the loan, add its PDF documents and start the evaluation. Fields marked required must be filled; the others help the conditions that read them.",
        ),
        el.form,
      ),
    );
    this.#updateCounter();
  }

  /** A labelled control with its hint, format hint and error slot, registered under its API field name. */
  #wrap(field, label, input, { hint, format, required = false, hintEl, extra = [], describedBy = [] } = {}) {
    const id = input.id || idFor(field);
    input.id = id;
    const hintNode = hintEl ?? (hint ? h("p", { class: "hint", id: `${id}-hint` }, hint) : null);
    if (hintNode && !hintNode.id) hintNode.id = `${id}-hint`;
    const formatNode = format
      ? h("p", { class: "hint ne-format", id: `${id}-format` }, `Format: ${format}`)
      : null;
    const error = h("div", {
      id: `${id}-error`,
      class: "field-error",
      hidden: true,
      "data-testid": `ne-error-${field}`,
    });
    input.setAttribute(
      "aria-describedby",
      [hintNode?.id, formatNode?.id, ...describedBy, error.id].filter(Boolean).join(" "),
    );
    if (required) input.setAttribute("aria-required", "true");
    input.addEventListener("input", () => this.#clearError(field));
    input.addEventListener("change", () => this.#clearError(field));
    this.controls.set(field, { input, error });
    return h(
      "div",
      { class: "ne-field" },
      h("label", { for: id }, label, required ? h("span", { class: "ne-required" }, " (required)") : null),
      input,
      hintNode,
      formatNode,
      extra,
      error,
    );
  }

  #textControl(field, label, { hint, format, required, attrs = {} } = {}) {
    const input = h("input", { type: "text", id: idFor(field), ...attrs });
    return this.#wrap(field, label, input, { hint, format, required });
  }

  // -------------------------------------------------------------------------------- the catalog

  async #loadCatalog() {
    const el = this.el;
    replace(el.classification, h("option", { value: "" }, "Loading the catalog…"));
    el.classification.disabled = true;
    try {
      this.catalog = await this.api.getCatalog();
      this.catalogError = "";
    } catch (error) {
      this.catalogError = error.message;
    }
    el.classification.disabled = false;
    if (!this.catalog) {
      replace(el.classification, h("option", { value: "" }, "Catalog unavailable"));
      replace(
        el.classificationInfo,
        h("span", { role: "alert" }, `Could not load the classifications: ${this.catalogError}. `),
        h("button", { type: "button", class: "link", onClick: () => this.#loadCatalog() }, "Try again"),
      );
      return;
    }
    replace(
      el.programs,
      (this.catalog.loan_programs ?? []).map((name) => h("option", { value: name })),
    );
    replace(
      el.classification,
      h("option", { value: "" }, "Choose a classification…"),
      this.catalog.classifications.map((entry) => h("option", { value: entry.name }, entry.name)),
    );
    this.#renderInputs();
  }

  #classificationEntry() {
    const name = this.el.classification.value;
    return this.catalog?.classifications.find((entry) => entry.name === name) ?? null;
  }

  /** The chosen classification's own fields; typed values survive switching the classification. */
  #renderInputs() {
    const el = this.el;
    for (const [field, control] of this.controls) {
      if (control.dynamic) {
        this.fieldValues.set(field, control.input.value);
        this.controls.delete(field);
      }
    }
    const entry = this.#classificationEntry();
    this.#clearError("metadata.classification");
    if (!entry) {
      replace(el.classificationInfo);
      replace(el.inputs);
      el.inputsNote.hidden = false;
      return;
    }
    const conditions = entry.conditions.map((condition) => condition.title).join("; ");
    const description = entry.description.trim();
    replace(
      el.classificationInfo,
      description && !/[.!?]$/.test(description) ? `${description}.` : description,
      entry.conditions.length ? ` Conditions: ${conditions}.` : "",
    );
    const inputs = entry.inputs.filter((input) => !FIXED_FIELDS.includes(input.field));
    el.inputsNote.hidden = inputs.length > 0;
    el.inputsNote.textContent = inputs.length
      ? ""
      : "This classification's conditions need no borrower or entity fields.";
    replace(
      el.inputs,
      inputs.map((input) => {
        const field = `metadata.${input.field}`;
        const kind = inputKind(input);
        const control = h("input", {
          type: "text",
          id: idFor(field),
          autocomplete: "off",
          inputmode: kind === "money" ? "decimal" : kind === "year" ? "numeric" : null,
          "data-field": input.field,
        });
        control.value = this.fieldValues.get(field) ?? "";
        const node = this.#wrap(field, fieldLabel(input.field), control, {
          hint: `${input.question} (Needed by ${input.conditions.join(", ")}.)`,
          format: input.expected,
        });
        this.controls.get(field).dynamic = true;
        return node;
      }),
    );
  }

  // -------------------------------------------------------------------------------- documents

  #addFiles(files) {
    const refused = files.filter((file) => !isPdf(file));
    for (const file of files.filter(isPdf)) {
      const doc = { id: this.nextDocumentId++, file, status: "uploading", progress: 0, phase: "", error: "" };
      this.documents.push(doc);
      this.el.documentList.append(this.#documentItem(doc));
      this.#upload(doc);
    }
    this.#clearError("s3_pdf_paths");
    if (refused.length > 0) {
      this.#showControlError(
        "s3_pdf_paths",
        `Not a PDF, not added: ${refused.map((file) => file.name).join(", ")}. Only PDF documents are read.`,
      );
    }
  }

  #documentItem(doc) {
    const progressId = `ne-doc-${doc.id}-progress`;
    doc.el = {};
    doc.el.progress = h("progress", { id: progressId, max: "100", value: "0" });
    doc.el.status = h("span", { class: "ne-doc-status", "data-testid": "ne-doc-status" });
    doc.el.error = h("div", { class: "field-error", id: `ne-doc-${doc.id}-error`, hidden: true });
    doc.el.retry = h(
      "button",
      { type: "button", class: "btn", hidden: true, onClick: () => this.#upload(doc) },
      "Retry",
      h("span", { class: "visually-hidden" }, ` ${doc.file.name}`),
    );
    doc.el.remove = h(
      "button",
      { type: "button", class: "btn", onClick: () => this.#removeDocument(doc) },
      "Remove",
      h("span", { class: "visually-hidden" }, ` ${doc.file.name}`),
    );
    doc.el.item = h(
      "li",
      {
        class: "ne-document",
        tabindex: "-1",
        "data-testid": "ne-document",
        "aria-describedby": doc.el.error.id,
      },
      h(
        "div",
        { class: "ne-doc-head" },
        h("span", { class: "ne-doc-name" }, doc.file.name),
        h("span", { class: "hint" }, formatBytes(doc.file.size)),
      ),
      h(
        "div",
        { class: "ne-doc-progress" },
        h("label", { for: progressId, class: "visually-hidden" }, `Upload of ${doc.file.name}`),
        doc.el.progress,
        doc.el.status,
      ),
      doc.el.error,
      h("div", { class: "ne-doc-actions" }, doc.el.retry, doc.el.remove),
    );
    this.#renderDocument(doc);
    return doc.el.item;
  }

  #renderDocument(doc) {
    const { el } = doc;
    const percent = Math.round(doc.progress * 100);
    el.progress.value = percent;
    el.progress.setAttribute("aria-valuetext", `${percent}%`);
    el.item.dataset.status = doc.status;
    const phases = { hashing: "Preparing", signing: "Preparing", uploading: "Uploading" };
    el.status.textContent =
      doc.status === "uploaded"
        ? `✓ Uploaded ${doc.file.name}`
        : doc.status === "failed"
          ? "⚠ Upload failed"
          : `${phases[doc.phase] ?? "Preparing"} ${percent}%`;
    el.retry.hidden = doc.status !== "failed";
    if (doc.status === "failed") this.#setDocumentError(doc, doc.error);
    else if (doc.status === "uploading") this.#setDocumentError(doc, "");
  }

  #setDocumentError(doc, message) {
    doc.el.error.hidden = !message;
    replace(doc.el.error, message ? h("p", {}, message) : null);
    if (message) doc.el.item.setAttribute("aria-invalid", "true");
    else doc.el.item.removeAttribute("aria-invalid");
  }

  async #upload(doc) {
    doc.controller?.abort();
    const controller = new AbortController();
    Object.assign(doc, { controller, status: "uploading", progress: 0, phase: "hashing", error: "" });
    this.#renderDocument(doc);
    try {
      const upload = await uploadDocument(this.api, doc.file, {
        signal: controller.signal,
        onPhase: (phase) => {
          doc.phase = phase;
          this.#renderDocument(doc);
        },
        onProgress: (fraction) => {
          doc.progress = fraction;
          this.#renderDocument(doc);
        },
      });
      if (controller.signal.aborted) return;
      Object.assign(doc, { status: "uploaded", progress: 1, s3_pdf_path: upload.s3_pdf_path });
      this.announce(`Uploaded ${doc.file.name}.`);
    } catch (error) {
      if (controller.signal.aborted || error?.name === "AbortError") return;
      Object.assign(doc, { status: "failed", error: uploadFailure(error) });
      this.announce(`Upload of ${doc.file.name} failed: ${doc.error}`);
    }
    this.#renderDocument(doc);
  }

  #removeDocument(doc) {
    doc.controller?.abort();
    const index = this.documents.indexOf(doc);
    this.documents.splice(index, 1);
    doc.el.item.remove();
    this.announce(`Removed ${doc.file.name}.`);
    // Keep the keyboard where it was: the next document's Remove, the previous one's, or the file button.
    const next = this.documents[index] ?? this.documents[index - 1];
    (next?.el.remove ?? this.el.chooseFiles).focus();
  }

  // -------------------------------------------------------------------------------- errors

  #clearError(field) {
    const control = this.controls.get(field);
    if (!control) return;
    control.error.hidden = true;
    control.error.replaceChildren();
    control.input.removeAttribute("aria-invalid");
  }

  #showControlError(field, message) {
    const control = this.controls.get(field);
    if (!control) return null;
    replace(control.error, h("p", {}, message));
    control.error.hidden = false;
    control.input.setAttribute("aria-invalid", "true");
    return control.input;
  }

  #clearAllErrors() {
    for (const field of this.controls.keys()) this.#clearError(field);
    this.el.formError.hidden = true;
    this.el.formError.replaceChildren();
    for (const doc of this.documents) if (doc.status !== "failed") this.#setDocumentError(doc, "");
  }

  /** Shows each problem where it belongs, moves the focus to the first one on the page. */
  #showErrors(problems, intro) {
    const focusable = [];
    const unplaced = [];
    for (const problem of problems) {
      const target = errorTarget(problem.field, [...this.controls.keys()]);
      if (target?.document !== undefined) {
        const doc = this.sentDocuments[target.document];
        if (doc && this.documents.includes(doc)) {
          this.#setDocumentError(doc, problem.message);
          focusable.push(doc.el.item);
          continue;
        }
      } else if (target?.control) {
        const input = this.#showControlError(target.control, problem.message);
        if (input) {
          focusable.push(input);
          continue;
        }
      }
      unplaced.push(problem);
    }
    if (unplaced.length > 0 || (intro && problems.length === 0)) {
      replace(
        this.el.formError,
        h("p", {}, intro ?? "The request was refused:"),
        unplaced.length
          ? h(
              "ul",
              {},
              unplaced.map((problem) => h("li", {}, `${problem.field}: ${problem.message}`)),
            )
          : null,
      );
      this.el.formError.hidden = false;
      this.el.formError.setAttribute("tabindex", "-1");
      focusable.push(this.el.formError);
    }
    const first = focusable.sort((a, b) =>
      a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
    )[0];
    first?.focus();
    const count = problems.length || 1;
    this.announce(`${count} ${count === 1 ? "problem" : "problems"} to fix before the evaluation can start.`);
  }

  // -------------------------------------------------------------------------------- submitting

  #values() {
    const el = this.el;
    const fields = {};
    for (const [field, control] of this.controls) {
      if (control.dynamic) fields[field.replace(/^metadata\./, "")] = control.input.value;
    }
    return {
      loan_program: this.controls.get("metadata.loan_program").input.value,
      classification: el.classification.value,
      loan_number: this.controls.get("metadata.loan_number").input.value,
      as_of_date: this.controls.get("metadata.as_of_date").input.value,
      fields,
      instructions: el.instructions.value,
      parallel: el.parallel.checked,
      max_steps: el.maxSteps.value,
      approval: el.approval.checked,
    };
  }

  #updateCounter() {
    const length = this.el.instructions.value.trim().length;
    const over = length > MAX_INSTRUCTIONS;
    this.el.counter.textContent = `${length.toLocaleString("en-US")} of ${MAX_INSTRUCTIONS.toLocaleString("en-US")} characters${over ? " (too long)" : ""}`;
    this.el.counter.classList.toggle("ne-over", over);
  }

  /** The request as it would be sent now, or the problems that keep it from being sent. */
  currentRequest() {
    const entry = this.#classificationEntry();
    const names = (this.catalog?.classifications ?? []).map((classification) => classification.name);
    return buildRequest(this.#values(), entry?.inputs ?? [], this.documents, names);
  }

  async #submit() {
    if (this.submitting) return;
    this.#clearAllErrors();
    const { request, errors } = this.currentRequest();
    if (!request) {
      this.#showErrors(errors);
      return;
    }
    this.sentDocuments = this.documents.filter((doc) => doc.status === "uploaded");
    this.submitting = true;
    const submit = this.el.submit;
    submit.disabled = true;
    submit.setAttribute("aria-busy", "true");
    submit.textContent = "Starting…";
    this.el.status.textContent = "";
    try {
      const started = await this.api.evaluate(request);
      this.el.status.textContent = `Started run ${started.run_id}.`;
      this.announce(`Evaluation started: run ${started.run_id}.`);
      this.#reset();
      this.onStarted(started, request);
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0) {
        this.#showErrors(error.fields, `The API refused the request (${error.status} ${error.code}):`);
      } else {
        this.#showErrors([], `Could not start the evaluation: ${error.message}`);
      }
    } finally {
      this.submitting = false;
      submit.disabled = false;
      submit.removeAttribute("aria-busy");
      submit.textContent = "Start evaluation";
    }
  }

  /** After a start: an empty form for the next loan file (the catalog stays). */
  #reset() {
    for (const doc of this.documents) doc.controller?.abort();
    this.documents = [];
    this.sentDocuments = [];
    this.el.documentList.replaceChildren();
    this.el.form.reset();
    this.el.parallel.checked = true;
    this.#renderInputs();
    this.fieldValues.clear();
    this.#updateCounter();
    this.#clearAllErrors();
  }
}

/** Why an upload failed, in words: the API's 400 names fields of the upload request. */
function uploadFailure(error) {
  if (error instanceof ApiError) {
    if (error.status === 501) return "uploads are not available on this API yet (501)";
    const fields = error.fields.map((field) => `${field.field} ${field.message}`);
    return fields.length ? fields.join("; ") : error.message;
  }
  return error?.message ?? String(error);
}
