// The New evaluation page (#/new): a loan officer starts an evaluation from the browser. The form
// offers what GET /v1/catalog says (classifications, and exactly the metadata fields the chosen
// classification's conditions read), uploads each dropped PDF at once (evaluation-documents.js), checks
// what the API would refuse before sending (evaluation-request.js), and shows the API's own 400 next
// to the field it names.
import { ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { documentItem, setDocumentError, uploadInto } from "./evaluation-documents.js";
import {
  buildRequest,
  errorTarget,
  FIXED_FIELDS,
  fieldLabel,
  INSTRUCTION_EXAMPLES,
  inputKind,
  MAX_INSTRUCTIONS,
  MAX_STEPS,
} from "./evaluation-request.js";
import { isPdf } from "./uploads.js";

// The page's plain functions, exported from here too (the tests and the page read them from one module).
export {
  amountOf,
  buildRequest,
  errorTarget,
  FIXED_FIELDS,
  fieldLabel,
  INSTRUCTION_EXAMPLES,
  inputKind,
  isCalendarDate,
  MAX_DOCUMENTS,
  MAX_INSTRUCTIONS,
  MAX_STEPS,
  setPath,
} from "./evaluation-request.js";

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
      this.#loanFieldset(el),
      this.#entityFieldset(el),
      this.#instructionsFieldset(el),
      this.#documentsFieldset(el),
      this.#optionsFieldset(el),
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

  /** The loan: program, classification (which decides the fields below), loan number, as-of date. */
  #loanFieldset(el) {
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

    return h(
      "fieldset",
      { class: "ne-fieldset" },
      h("legend", {}, "Loan"),
      h("div", { class: "ne-grid" }, program, classification, loanNumber, asOf),
      el.programs,
    );
  }

  /** The fields the chosen classification's conditions read (#renderInputs fills them). */
  #entityFieldset(el) {
    el.inputs = h("div", { class: "ne-grid", "data-testid": "ne-inputs" });
    el.inputsNote = h(
      "p",
      { class: "hint" },
      "Choose a classification to see the fields its conditions need.",
    );

    return h(
      "fieldset",
      { class: "ne-fieldset" },
      h("legend", {}, "Borrower and entity"),
      el.inputsNote,
      el.inputs,
    );
  }

  /** The instructions, with their length counter and examples. */
  #instructionsFieldset(el) {
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

    return h("fieldset", { class: "ne-fieldset" }, h("legend", {}, "Instructions"), instructions);
  }

  /** The documents: a file button and a drop zone, each PDF uploaded at once. */
  #documentsFieldset(el) {
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

    return h(
      "fieldset",
      { class: "ne-fieldset" },
      h("legend", {}, "Documents"),
      el.dropZone,
      documentsError,
      el.documentList,
    );
  }

  /** The options: parallel steps, max steps, approval. */
  #optionsFieldset(el) {
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

    return h(
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
    );
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
      this.el.documentList.append(
        documentItem(doc, { onRetry: () => this.#upload(doc), onRemove: () => this.#removeDocument(doc) }),
      );
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

  #upload(doc) {
    return uploadInto(doc, this.api, this.announce);
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
    for (const doc of this.documents) if (doc.status !== "failed") setDocumentError(doc, "");
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
          setDocumentError(doc, problem.message);
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
