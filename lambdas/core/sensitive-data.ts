// What this project treats as personal or confidential data, in one place: the log redaction
// (lambdas/runtime/logger.ts) and every error message that quotes a document, a lender's response
// or an LLM's output (through redaction.ts) read these lists. Requests and documents carry people's
// names, SSNs, EINs and account details; logs and error evidence are read by people and systems that
// must not see them. Add a field or a pattern here and both logs and error previews pick it up.

/** What a marker says was removed: `[REDACTED:<kind>]`. */
export type SensitiveKind =
  | "borrower_info"
  | "ssn"
  | "tin"
  | "ein"
  | "account_number"
  | "routing_number"
  | "dob"
  | "address"
  | "phone"
  | "email"
  | "name"
  | "document_text"
  | "response_body"
  | "credential"
  /** A Buffer or typed array (PDF bytes, most likely): never printed, whatever its field. */
  | "bytes";

/**
 * Fields whose whole value is replaced wherever they appear in a logged object, at any depth.
 * A field matches when its name ends with these words, in any case or separator style:
 * `ssn` also covers `co_borrower_ssn` and `borrowerSsn`; `email` does not cover `email_verified`.
 */
export const SENSITIVE_FIELDS: ReadonlyArray<readonly [field: string, kind: SensitiveKind]> = [
  // The request's borrower block holds names, income, contact details: it is dropped whole.
  ["borrower_info", "borrower_info"],
  ["borrower", "borrower_info"],
  ["guarantor", "borrower_info"],
  ["ssn", "ssn"],
  ["social_security_number", "ssn"],
  ["tin", "tin"],
  ["itin", "tin"],
  ["taxpayer_id", "tin"],
  ["tax_id", "tin"],
  ["ein", "ein"],
  ["fein", "ein"],
  ["employer_identification_number", "ein"],
  ["account_number", "account_number"],
  ["account_no", "account_number"],
  ["acct_number", "account_number"],
  ["iban", "account_number"],
  ["routing_number", "routing_number"],
  ["aba", "routing_number"],
  ["dob", "dob"],
  ["date_of_birth", "dob"],
  ["birth_date", "dob"],
  ["birthdate", "dob"],
  ["address", "address"],
  ["street", "address"],
  ["phone", "phone"],
  ["phone_number", "phone"],
  ["telephone", "phone"],
  ["mobile", "phone"],
  ["email", "email"],
  // Person and company names that mean the same thing anywhere (a bare `name` only inside metadata).
  ["borrower_name", "name"],
  ["business_name", "name"],
  ["legal_name", "name"],
  ["first_name", "name"],
  ["middle_name", "name"],
  ["last_name", "name"],
  ["full_name", "name"],
  ["holder_name", "name"],
  ["account_holder", "name"],
  ["officer_name", "name"],
  ["signer_name", "name"],
  // Document content: extracted text, pages, citation excerpts, previews, LLM prompts over them.
  ["text", "document_text"],
  ["page_text", "document_text"],
  ["pages", "document_text"],
  ["excerpt", "document_text"],
  ["preview", "document_text"],
  ["content", "document_text"],
  ["prompt", "document_text"],
  // Raw bodies: an HTTP response of the lender's services, an API request (it carries the metadata).
  ["body", "response_body"],
  ["raw", "response_body"],
  ["raw_response", "response_body"],
  // Never useful in a log line.
  ["token", "credential"],
  ["secret", "credential"],
  ["password", "credential"],
  ["authorization", "credential"],
  ["api_key", "credential"],
  ["cookie", "credential"],
];

/**
 * Objects under these fields are the request's metadata (also as a tool's `args.metadata`):
 * there a field that ends with one of METADATA_NAME_FIELDS names a person or a company.
 */
export const METADATA_FIELDS: ReadonlyArray<string> = ["metadata"];
export const METADATA_NAME_FIELDS: ReadonlyArray<string> = ["name", "names", "holder", "officer", "signer"];

/**
 * Patterns replaced inside any string (log messages, values, error messages and stacks, error
 * previews). Tried in this order at each position, so a labelled 9-digit SSN is reported as an SSN,
 * not as a routing number. Sources only (combined into one expression, case-insensitive); groups
 * must be non-capturing.
 */
export const SENSITIVE_PATTERNS: ReadonlyArray<readonly [kind: SensitiveKind, source: string]> = [
  ["email", String.raw`[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}`],
  // Dashed forms may be glued to a label by text extraction ("SSN123-45-6789"): only digits and
  // dashes around them rule a match out.
  ["ssn", String.raw`(?<![\d-])(?:\d{3}-\d{2}-\d{4}|\d{3} \d{2} \d{4})(?![\d-])`],
  // Nine digits after a label: 123456789 is an SSN, TIN or EIN depending on what precedes it.
  [
    "ssn",
    String.raw`(?<=\b(?:ssn|ss#|social security(?: number| no\.?)?)\s*(?:#|no\.?|number)?\s*[:#=]?\s*)\d{9}(?!\d)`,
  ],
  [
    "tin",
    String.raw`(?<=\b(?:i?tin|taxpayer id(?:entification number)?)\s*(?:#|no\.?|number)?\s*[:#=]?\s*)\d{9}(?!\d)`,
  ],
  [
    "ein",
    String.raw`(?<=\b(?:f?ein|employer identification number)\s*(?:#|no\.?|number)?\s*[:#=]?\s*)\d{9}(?!\d)`,
  ],
  ["ein", String.raw`(?<![\d-])\d{2}-\d{7}(?![\d-])`],
  // Bare digit runs: 9 digits is the length of an ABA routing number, 8 or 10+ of an account
  // number. Digits inside identifiers (run-20250415093000-…, UUIDs, decimals) and the account id
  // of an AWS ARN are left alone.
  ["routing_number", String.raw`(?<![\w.-])(?<!\barn:[\w-]+:[\w-]+:[\w-]*:)\d{9}(?![\w-]|\.\d)`],
  ["account_number", String.raw`(?<![\w.-])(?<!\barn:[\w-]+:[\w-]+:[\w-]*:)(?:\d{10,}|\d{8})(?![\w-]|\.\d)`],
];

/** Longest string a log line keeps; the rest is cut and the cut is said (documents run to megabytes). */
export const MAX_LOGGED_STRING_CHARS = 2_000;
/** Longest reason an error quotes from a response body, a document or an LLM's output. */
export const MAX_QUOTED_REASON_CHARS = 200;
