// The panel of a run that waits for a person: its caller's answer to the run's question
// (AWAITING_INPUT) or an operator's decision on its plan (AWAITING_APPROVAL). The panel is built once
// per wait and left alone while progress events redraw the rest of the page, so what the person types
// and where the keyboard focus is survive live updates. What the forms send, and which control an API
// error belongs to, are plain functions above the panel (tested without a browser).
import { formatDateTime, formatTimeLeft, h, replace } from "./dom.js";

const MAX_REASON_CHARS = 2000; // the API's limit on `reason`

// ---------------------------------------------------------------------------------------------
// What the forms send

/**
 * The body's `answers` from the typed values: blank ones are left out (a question may stay
 * unanswered), but at least one answer is needed. `errors` are `[{field, message}]` named like the
 * API's (`answers.<field>`), so the page shows its own and the API's the same way.
 */
export function answersFrom(questions, values) {
  const answers = {};
  for (const question of questions) {
    const value = String(values[question.field] ?? "").trim();
    if (value) answers[question.field] = value;
  }
  if (Object.keys(answers).length > 0) return { answers, errors: [] };
  const first = questions[0];
  if (!first) return { answers: null, errors: [{ field: "answers", message: "this run asks nothing" }] };
  return {
    answers: null,
    errors: [{ field: `answers.${first.field}`, message: `enter an answer: ${first.expected}` }],
  };
}

/** The plan's steps as the operator edits them, in the shape `decision: "edit"` takes back. */
export function editablePlan(plan) {
  const steps = (plan?.steps ?? []).map((step) => ({
    id: step.id,
    tool: step.tool,
    args: step.args ?? {},
    depends_on: step.depends_on ?? [],
    ...(step.description ? { description: step.description } : {}),
  }));
  return JSON.stringify(steps, null, 2);
}

/**
 * The edited plan as the API takes it: the JSON the operator wrote, or, when it is not JSON, the
 * text itself (the API parses the planner's text format, `#E1 = tool[...]`). Text that starts like
 * JSON but does not parse is a typo the page can name itself.
 */
export function editedPlanFrom(text) {
  const trimmed = String(text ?? "").trim();
  if (!trimmed) {
    return {
      plan: null,
      error: "enter the plan's steps (a JSON array) or a plan in the planner's text format",
    };
  }
  if (!/^[[{]/.test(trimmed)) return { plan: trimmed, error: null };
  try {
    return { plan: JSON.parse(trimmed), error: null };
  } catch (error) {
    return { plan: null, error: `not valid JSON: ${error.message}` };
  }
}

/** A rejection needs a reason (the API refuses one without). */
export function rejectionFrom(reason) {
  const trimmed = String(reason ?? "").trim();
  if (!trimmed)
    return { reason: null, error: "a reason is required to reject: say what is wrong with the plan" };
  if (trimmed.length > MAX_REASON_CHARS) {
    return { reason: null, error: `at most ${MAX_REASON_CHARS.toLocaleString("en-US")} characters` };
  }
  return { reason: trimmed, error: null };
}

/**
 * An API error as lines to show: each named field's message (without the field repeated in front),
 * prefixed with the field unless it is the control's own (`own`), or the error's message when it
 * names no field (409 not waiting, 500, the API unreachable).
 */
export function errorLines(error, own = () => false) {
  const fields = Array.isArray(error?.fields) ? error.fields : [];
  if (fields.length === 0) return [String(error?.message ?? error)];
  return fields.map(({ field, message }) => {
    const text = String(message ?? "").startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
    return own(field) ? text : `${field}: ${text}`;
  });
}

/** Which asked field an error names (`answers.<field>`), or null for the form as a whole. */
export function answerFieldOf(errorField, questions) {
  const field = String(errorField).replace(/^answers\./, "");
  return errorField.startsWith("answers.") && questions.some((q) => q.field === field) ? field : null;
}

// ---------------------------------------------------------------------------------------------
// The panel

export class WaitingPanel {
  /**
   * @param {HTMLElement} el the panel's section (hidden while the run waits for nobody)
   * @param {object} actions
   * @param {(answers: object) => Promise<void>} actions.onAnswer POST …/input; rejects with an ApiError
   * @param {(decision: object) => Promise<void>} actions.onDecide POST …/approval; rejects with an ApiError
   */
  constructor(el, { onAnswer, onDecide }) {
    this.el = el;
    this.onAnswer = onAnswer;
    this.onDecide = onDecide;
    this.key = null;
    this.busy = false;
    /** Refreshed on every update: the time left, the plan summary, the edit box while untouched. */
    this.live = null;
  }

  update(view, now = Date.now()) {
    const questions = view.clarification?.questions ?? [];
    let key = null;
    if (view.waiting === "input") key = `${view.runId}|input|${questions.map((q) => q.field).join(",")}`;
    else if (view.waiting === "approval") key = `${view.runId}|approval`;
    if (key !== null && view.customerRun) key = `${key}|customer`;
    if (key !== this.key) {
      this.key = key;
      this.busy = false;
      this.live = null;
      if (key === null) {
        replace(this.el);
        this.el.hidden = true;
        return;
      }
      if (view.customerRun) {
        // The operator routes refuse a customer's chat request: nothing to offer but what it waits for.
        this.#buildCustomerWait(view);
        this.el.hidden = false;
        return;
      }
      if (view.waiting === "input") this.#buildInput(questions);
      else this.#buildApproval(view);
      this.el.hidden = false;
    }
    this.#refresh(view, now);
  }

  #refresh(view, now) {
    const live = this.live;
    if (!live) return;
    const deadline = view.waiting === "input" ? view.clarification?.deadline : view.approval?.deadline;
    live.deadline.replaceChildren(...deadlineText(deadline, now));
    if (live.planSummary) live.planSummary.textContent = planSummary(view);
    if (live.planText) {
      // The pending plan may arrive after the panel (a plan too large for its event): prefill it,
      // unless the operator has started editing.
      const text = editablePlan(view.plan);
      if (live.planText.value === live.prefill && text !== live.prefill) {
        live.planText.value = text;
        live.prefill = text;
      }
    }
  }

  // ----------------------------------------------------------------------------- input

  #buildInput(questions) {
    const controls = new Map();
    const formError = errorSlot("answer-form-error", "answer-form-error");
    const submit = h(
      "button",
      { type: "submit", class: "btn btn-primary", dataset: { testid: "submit-answer" } },
      "Submit answer",
    );
    const fieldsets = questions.map((question, index) => {
      const id = `answer-${index}`;
      const error = errorSlot(`${id}-error`, `answer-error-${question.field}`);
      const input = h("input", {
        id,
        name: question.field,
        type: "text",
        class: "answer-input",
        autocomplete: "off",
        spellcheck: "false",
        "aria-describedby": `${id}-expected ${id}-error`,
        dataset: { testid: `answer-${question.field}` },
      });
      controls.set(question.field, { input, error });
      return h(
        "fieldset",
        { class: "question", dataset: { testid: `question-${question.field}`, field: question.field } },
        h("legend", {}, question.question),
        h(
          "dl",
          { class: "question-facts" },
          fact("Why it is asked", question.why),
          fact(
            "Conditions that need it",
            h(
              "ul",
              { class: "doc-chips", "aria-label": "Conditions that need it" },
              (question.conditions ?? []).map((id) => h("li", { class: "chip mono" }, id)),
            ),
          ),
        ),
        h(
          "label",
          { for: id, class: "answer-label" },
          "Your answer for ",
          h("span", { class: "mono" }, question.field),
        ),
        input,
        h("p", { class: "hint", id: `${id}-expected` }, `Expected: ${question.expected}`),
        error,
      );
    });
    const deadline = h("span", {});
    const form = h(
      "form",
      {
        class: "answer-form",
        novalidate: true,
        "aria-label": "Answer the run's question",
        dataset: { testid: "answer-form" },
        onSubmit: (event) => {
          event.preventDefault();
          this.#submitAnswers(questions, controls, formError, submit);
        },
      },
      fieldsets,
      formError,
      h("div", { class: "form-actions" }, submit),
    );
    replace(
      this.el,
      panelHead("Needs your answer", "Waiting for input", "run-awaiting_input", "waiting-input"),
      h(
        "p",
        { class: "waiting-intro" },
        "The run stopped before reading any document: the conditions below need information the request did not carry. ",
        deadline,
      ),
      form,
    );
    this.live = { deadline };
  }

  async #submitAnswers(questions, controls, formError, submit) {
    if (this.busy) return;
    const key = this.key;
    for (const { input, error } of controls.values()) clearError(input, error);
    clearError(null, formError);
    const values = Object.fromEntries([...controls].map(([field, c]) => [field, c.input.value]));
    const { answers, errors } = answersFrom(questions, values);
    if (!answers) {
      showAnswerErrors(errors, questions, controls, formError);
      return;
    }
    const inputs = [...controls.values()].map((c) => c.input);
    this.#busy(true, [submit, ...inputs], submit, "Sending…");
    try {
      await this.onAnswer(answers);
    } catch (error) {
      if (this.key === key) showAnswerErrors(error, questions, controls, formError);
    } finally {
      if (this.key === key) this.#busy(false, [submit, ...inputs], submit, "Submit answer");
    }
  }

  // ----------------------------------------------------------------------------- a customer's request

  #buildCustomerWait(view) {
    const input = view.waiting === "input";
    const deadline = h("span", {});
    replace(
      this.el,
      panelHead(
        input ? "Waits for the customer" : "Waits for the customer's confirmation",
        input ? "Waiting for input" : "Waiting for approval",
        input ? "run-awaiting_input" : "run-awaiting_approval",
        "waiting-customer",
      ),
      h(
        "p",
        { class: "waiting-intro", dataset: { testid: "customer-wait" } },
        input
          ? "This is a customer's chat request: only that customer answers its question, in the chat. "
          : "This is a customer's chat request: only that customer confirms it, by answering yes in the chat. ",
        deadline,
      ),
    );
    this.live = { deadline };
  }

  // ----------------------------------------------------------------------------- approval

  #buildApproval(view) {
    const approveError = errorSlot("approve-error", "approve-error");
    const approve = h(
      "button",
      {
        type: "button",
        class: "btn btn-primary",
        "aria-describedby": "approve-error",
        dataset: { testid: "approve-plan" },
      },
      "Approve plan",
    );

    // Reject: a reason is required.
    const reason = h("textarea", {
      id: "reject-reason",
      class: "reason-input",
      rows: 3,
      maxlength: MAX_REASON_CHARS,
      required: true,
      "aria-required": "true",
      "aria-describedby": "reject-reason-error",
      dataset: { testid: "reject-reason" },
    });
    const rejectError = errorSlot("reject-reason-error", "reject-error");
    const confirmReject = h(
      "button",
      { type: "submit", class: "btn btn-danger", dataset: { testid: "confirm-reject" } },
      "Reject plan",
    );
    const rejectForm = h(
      "form",
      {
        id: "reject-form",
        class: "decision-form",
        novalidate: true,
        hidden: true,
        "aria-label": "Reject the plan",
        dataset: { testid: "reject-form" },
      },
      h("label", { for: "reject-reason" }, "Why do you reject the plan? (required)"),
      reason,
      rejectError,
      h(
        "div",
        { class: "form-actions" },
        confirmReject,
        h("button", { type: "button", class: "btn", onClick: () => this.#toggle(null) }, "Cancel"),
      ),
    );

    // Edit: the steps as JSON, prefilled with the pending plan.
    const prefill = editablePlan(view.plan);
    const planText = h(
      "textarea",
      {
        id: "edit-plan-text",
        class: "plan-input mono",
        rows: 16,
        spellcheck: "false",
        "aria-describedby": "edit-plan-hint edit-plan-error",
        dataset: { testid: "edit-plan-text" },
      },
      prefill,
    );
    const editError = errorSlot("edit-plan-error", "edit-error");
    const editReason = h("input", {
      id: "edit-reason",
      type: "text",
      class: "reason-input",
      maxlength: MAX_REASON_CHARS,
      autocomplete: "off",
      dataset: { testid: "edit-reason" },
    });
    const submitEdit = h(
      "button",
      { type: "submit", class: "btn btn-primary", dataset: { testid: "submit-edit" } },
      "Run the edited plan",
    );
    const editForm = h(
      "form",
      {
        id: "edit-form",
        class: "decision-form",
        novalidate: true,
        hidden: true,
        "aria-label": "Edit the plan",
        dataset: { testid: "edit-form" },
      },
      h("label", { for: "edit-plan-text" }, "Plan steps (JSON: id, tool, args, depends_on, description)"),
      planText,
      h(
        "p",
        { class: "hint", id: "edit-plan-hint" },
        "The edited plan is parsed, validated and reviewed like the planner's; a plan that does not pass leaves the run waiting. The planner's text format (#E1 = tool[…]) is accepted too.",
      ),
      editError,
      h("label", { for: "edit-reason" }, "Reason for the change (optional)"),
      editReason,
      h(
        "div",
        { class: "form-actions" },
        submitEdit,
        h("button", { type: "button", class: "btn", onClick: () => this.#toggle(null) }, "Cancel"),
      ),
    );

    const rejectToggle = h(
      "button",
      {
        type: "button",
        class: "btn",
        "aria-expanded": "false",
        "aria-controls": "reject-form",
        dataset: { testid: "reject-plan" },
      },
      "Reject…",
    );
    const editToggle = h(
      "button",
      {
        type: "button",
        class: "btn",
        "aria-expanded": "false",
        "aria-controls": "edit-form",
        dataset: { testid: "edit-plan" },
      },
      "Edit plan…",
    );
    const buttons = [approve, rejectToggle, editToggle, confirmReject, submitEdit];
    const forms = { reject: { toggle: rejectToggle, form: rejectForm, focus: reason } };
    forms.edit = { toggle: editToggle, form: editForm, focus: planText };
    this.forms = forms;

    const decide = async (decision, slot, control, own) => {
      if (this.busy) return;
      const key = this.key;
      for (const [input, error] of [
        [null, approveError],
        [reason, rejectError],
        [planText, editError],
      ])
        clearError(input, error);
      const label = control.textContent;
      this.#busy(true, buttons, control, "Sending…");
      try {
        await this.onDecide(decision);
      } catch (error) {
        if (this.key === key) showError(slot.input, slot.error, errorLines(error, own));
      } finally {
        if (this.key === key) this.#busy(false, buttons, control, label);
      }
    };

    approve.addEventListener("click", () =>
      decide({ decision: "approve" }, { input: null, error: approveError }, approve, () => false),
    );
    rejectToggle.addEventListener("click", () => this.#toggle("reject"));
    editToggle.addEventListener("click", () => this.#toggle("edit"));
    rejectForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const { reason: text, error } = rejectionFrom(reason.value);
      if (error) {
        showError(reason, rejectError, [error]);
        reason.focus();
        return;
      }
      decide(
        { decision: "reject", reason: text },
        { input: reason, error: rejectError },
        confirmReject,
        (field) => field === "reason",
      );
    });
    editForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const { plan, error } = editedPlanFrom(planText.value);
      if (error) {
        showError(planText, editError, [error]);
        planText.focus();
        return;
      }
      const why = editReason.value.trim();
      decide(
        { decision: "edit", plan, ...(why ? { reason: why } : {}) },
        { input: planText, error: editError },
        submitEdit,
        (field) => field === "plan",
      );
    });

    const deadline = h("span", {});
    const summary = h("span", {});
    replace(
      this.el,
      panelHead(
        "Plan waits for your approval",
        "Waiting for approval",
        "run-awaiting_approval",
        "waiting-approval",
      ),
      h("p", { class: "waiting-intro" }, "No tool runs until you decide. ", summary, " ", deadline),
      h(
        "div",
        { class: "decision-actions", role: "group", "aria-label": "Decision on the plan" },
        approve,
        rejectToggle,
        editToggle,
      ),
      approveError,
      rejectForm,
      editForm,
    );
    this.live = { deadline, planSummary: summary, planText, prefill };
  }

  /**
   * Opens one of the reject and edit forms (or closes them: `null`, or the open one's toggle again).
   * The focus follows: into the form opened, or back to the toggle of the form closed.
   */
  #toggle(which) {
    let focusTarget = null;
    for (const [name, { toggle, form, focus }] of Object.entries(this.forms ?? {})) {
      const wasOpen = !form.hidden;
      const open = name === which && !wasOpen;
      form.hidden = !open;
      toggle.setAttribute("aria-expanded", String(open));
      if (open) focusTarget = focus;
      else if (wasOpen && !focusTarget) focusTarget = toggle;
    }
    focusTarget?.focus();
  }

  #busy(busy, controls, control, label) {
    this.busy = busy;
    for (const c of controls) c.disabled = busy;
    control.textContent = label;
    if (busy) control.setAttribute("aria-busy", "true");
    else control.removeAttribute("aria-busy");
  }
}

// ---------------------------------------------------------------------------------------------
// Pieces

function panelHead(title, status, statusClass, testid) {
  return h(
    "div",
    { class: "card-head", dataset: { testid } },
    h("h2", { id: "waiting-heading" }, title),
    h("span", { class: `badge ${statusClass}` }, status),
  );
}

function deadlineText(deadline, now) {
  if (!deadline) return [];
  const left = formatTimeLeft(deadline, now);
  return [
    "Deadline: ",
    h("time", { datetime: deadline, dataset: { testid: "waiting-deadline" } }, formatDateTime(deadline)),
    left ? ` (${left})` : "",
    ".",
  ];
}

function planSummary(view) {
  const plan = view.plan;
  if (!plan?.steps) return "The plan is drawn below once it has loaded.";
  const levels = plan.levels?.length ?? 0;
  const review = view.planReview ? `; its review scored ${view.planReview.score}/10` : "";
  return `The plan below has ${plan.steps.length} steps in ${levels} levels${review}.`;
}

function fact(label, value) {
  return h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value));
}

function errorSlot(id, testid) {
  return h("div", { class: "field-error", id, hidden: true, dataset: { testid } });
}

function showError(input, slot, lines) {
  slot.replaceChildren(
    ...(lines.length === 1
      ? [h("p", {}, lines[0])]
      : [
          h(
            "ul",
            {},
            lines.map((line) => h("li", {}, line)),
          ),
        ]),
  );
  slot.hidden = false;
  // Announced when it appears; the control says it is invalid and points at it (aria-describedby).
  slot.setAttribute("role", "alert");
  if (input) input.setAttribute("aria-invalid", "true");
}

function clearError(input, slot) {
  slot.replaceChildren();
  slot.hidden = true;
  slot.removeAttribute("role");
  input?.removeAttribute("aria-invalid");
}

/** Puts each error next to the question it names; the rest under the form. Focuses the first. */
function showAnswerErrors(errorOrList, questions, controls, formError) {
  const list = Array.isArray(errorOrList)
    ? errorOrList
    : Array.isArray(errorOrList?.fields) && errorOrList.fields.length > 0
      ? errorOrList.fields
      : null;
  if (!list) {
    showError(null, formError, errorLines(errorOrList));
    return;
  }
  const byField = new Map();
  const general = [];
  for (const item of list) {
    const field = answerFieldOf(item.field, questions);
    const [line] = errorLines({ fields: [item] }, () => field !== null);
    if (field === null) general.push(line);
    else byField.set(field, [...(byField.get(field) ?? []), line]);
  }
  let first = null;
  for (const [field, lines] of byField) {
    const control = controls.get(field);
    showError(control.input, control.error, lines);
    first ??= control.input;
  }
  if (general.length) showError(null, formError, general);
  first?.focus();
}
