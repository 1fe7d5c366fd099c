// What the New evaluation page sends: the request built from the form's values, checked as the API
// would check it (lambdas/core/request.ts), and the field an API error names mapped to its control.
// Plain functions that touch no DOM (tested without a browser).
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
export const FIXED_FIELDS = ["loan_program", "classification", "loan_number", "as_of_date"];

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
