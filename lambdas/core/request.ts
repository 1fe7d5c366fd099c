// The hybrid request, validated wherever a request enters (the API, a batch line, the twin's own
// starts) with the same policy, so all accept and refuse the same requests. Every offending field is
// reported at once, by its path.
import * as z from "zod";
import { isPlainObject } from "./describe.ts";
import { checkResultDestination, ResultDestinationError, type ResultPolicy } from "./destinations.ts";
import {
  type DocumentLocation,
  DocumentPathError,
  type DocumentPolicy,
  resolveDocumentPath,
  s3KeyProblem,
} from "./documents.ts";
import { lazily } from "./lazy.ts";
import {
  DOCUMENT_PATH_COPIES,
  DYNAMODB_ITEM_BYTES,
  DYNAMODB_MAX_NESTED_CONTAINERS,
  findTooDeep,
  MAX_METADATA_DEPTH,
  META_RESERVE_BYTES,
  METADATA_COPIES,
  REQUEST_STORAGE_BUDGET_BYTES,
  requestFootprint,
} from "./request-budget.ts";
import { SESSION_ID_PATTERN } from "./sessions.ts";
import type { EvaluationRequest } from "./types.ts";

export const MAX_DOCUMENTS = 50;
/**
 * Objects and arrays nest at most this deep in a request (the body itself is level 1). Checked
 * before anything walks the value recursively (schema, hashing, DynamoDB marshalling).
 */
export const MAX_JSON_DEPTH = 32;

/** The object key a document path names, for S3's key rules (the bucket is checked by the policy). */
const keyOfPath = (path: string) =>
  path.startsWith("s3://") ? path.replace(/^s3:\/\/[^/]*\/?/, "") : path.replace(/^\/+/, "");

const s3KeyRules =
  (keyOf: (value: string) => string | undefined) => (value: string, ctx: z.RefinementCtx) => {
    const key = keyOf(value);
    const problem = key === undefined ? undefined : s3KeyProblem(key);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  };

/** The request's shape, built at the first request checked (lambdas/core/lazy.ts), not at import. */
export const evaluationRequestSchema = /* @__PURE__ */ lazily(() =>
  z.strictObject({
    metadata: z.record(z.string(), z.unknown(), {
      error: (issue) =>
        issue.input === undefined ? "required: an object with the request's metadata" : "expected an object",
    }),
    instructions: z.string().max(4_000).optional(),
    s3_pdf_paths: z
      .array(
        z.string().trim().min(1, "expected a non-empty document path").superRefine(s3KeyRules(keyOfPath)),
        {
          error: (issue) =>
            issue.input === undefined ? "required: a list of document paths" : "expected an array of strings",
        },
      )
      .min(1, "expected at least one document path")
      .max(MAX_DOCUMENTS, `expected at most ${MAX_DOCUMENTS} documents`),
    output_destination: z
      .string()
      .regex(/^s3:\/\/[^/]+\/.*$/s, "expected s3://bucket/prefix/ or s3://bucket/key.json")
      .superRefine(s3KeyRules((uri) => /^s3:\/\/[^/]+\/(.*)$/s.exec(uri)?.[1]))
      .optional(),
    session_id: z
      .string()
      .regex(
        SESSION_ID_PATTERN,
        "expected letters, digits, _ or - (at most 64, starting with a letter or digit)",
      )
      .optional(),
    options: z
      .strictObject({
        max_steps: z.number().int().min(1).max(50).optional(),
        parallel: z.boolean().optional(),
        approval: z.enum(["required", "none"], { message: 'expected "required" or "none"' }).optional(),
        clarification: z.enum(["ask", "never"], { message: 'expected "ask" or "never"' }).optional(),
        plan_cache: z.boolean({ message: "expected true or false" }).optional(),
      })
      .optional(),
  }),
);

export interface RequestProblem {
  field: string;
  message: string;
}

export class InvalidRequestError extends Error {
  override name = "InvalidRequestError";
  constructor(readonly problems: RequestProblem[]) {
    super(`invalid request: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`);
  }
}

/** Well-formed, but more than a run can store (the API answers 413). */
export class RequestTooLargeError extends InvalidRequestError {
  override name = "RequestTooLargeError";
}

/**
 * Where this deployment lets a request read documents and write its result, and what the run's agent
 * accepts in the metadata: `metadataProblems` names each problem by its path (`metadata.<field>`),
 * and an empty list means the metadata is the agent's to read.
 */
export interface RequestPolicy {
  documents: DocumentPolicy;
  results: ResultPolicy;
  metadataProblems: (metadata: Record<string, unknown>) => RequestProblem[];
}

declare const validated: unique symbol;

/**
 * A request validateRequest accepted. Only validateRequest makes one, so whoever takes it (starting a
 * run) knows the request was checked where it entered, once, and does not check it again.
 */
export type ValidatedRequest = EvaluationRequest & { readonly [validated]: true };

/**
 * Validates the shape, the metadata by the agent's rules (RequestPolicy.metadataProblems), that
 * every document and the result destination are in allowed locations, and that what the run will store fits DynamoDB
 * (RequestTooLargeError when only that fails). Every problem is reported at once: a field the shape
 * refuses is not looked at further, every other field is.
 */
export function validateRequest(input: unknown, policy: RequestPolicy): ValidatedRequest {
  const tooDeep = findTooDeep(input, MAX_JSON_DEPTH);
  if (tooDeep) {
    throw new InvalidRequestError([
      {
        field: tooDeep.path.startsWith("[") || tooDeep.path === "" ? `(body)${tooDeep.path}` : tooDeep.path,
        message: `nested more than ${MAX_JSON_DEPTH} levels deep here: objects and arrays in a request nest at most ${MAX_JSON_DEPTH} levels`,
      },
    ]);
  }
  const parsed = evaluationRequestSchema().safeParse(input);
  const problems: RequestProblem[] = [];
  const refused: PropertyKey[][] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
      for (const key of keys) {
        const path = [...issue.path, ...(key === undefined ? [] : [key])];
        refused.push(path);
        problems.push({
          field: formatPath(path) || "(body)",
          message: issue.code === "unrecognized_keys" ? "unknown field" : issue.message,
        });
      }
    }
  }
  // What the shape let through is checked further, so one answer names every problem.
  const body = isPlainObject(input) ? input : {};
  const shapeRefused = (...path: PropertyKey[]) =>
    refused.some((at) => at.length <= path.length && at.every((part, index) => part === path[index]));
  const documents: DocumentLocation[] = [];
  const paths = Array.isArray(body.s3_pdf_paths) && !shapeRefused("s3_pdf_paths") ? body.s3_pdf_paths : [];
  paths.forEach((path: unknown, index: number) => {
    if (typeof path !== "string" || shapeRefused("s3_pdf_paths", index)) return;
    try {
      documents.push(resolveDocumentPath(path.trim(), policy.documents));
    } catch (error) {
      if (!(error instanceof DocumentPathError)) throw error;
      problems.push({ field: `s3_pdf_paths[${index}]`, message: error.message });
    }
  });
  if (typeof body.output_destination === "string" && !shapeRefused("output_destination")) {
    try {
      checkResultDestination(body.output_destination, policy.results, policy.documents, documents);
    } catch (error) {
      if (!(error instanceof ResultDestinationError)) throw error;
      problems.push({ field: "output_destination", message: error.message });
    }
  }
  if (isPlainObject(body.metadata)) {
    const deepMetadata = findTooDeep(body.metadata, MAX_METADATA_DEPTH, "metadata");
    if (deepMetadata) {
      problems.push({
        field: deepMetadata.path,
        message: `metadata nests ${deepMetadata.depth} levels deep here (metadata itself is level 1); at most ${MAX_METADATA_DEPTH}: the run stores a copy of metadata inside its plan, 4 levels down, and DynamoDB nests at most ${DYNAMODB_MAX_NESTED_CONTAINERS} maps and lists`,
      });
    }
    problems.push(...policy.metadataProblems(body.metadata));
  }
  if (problems.length > 0 || !parsed.success) throw new InvalidRequestError(problems);
  const request = parsed.data as EvaluationRequest;
  assertStorable(request);
  return request as ValidatedRequest;
}

const COPIES_EXPLAINED: Record<string, string> = {
  metadata: `${METADATA_COPIES} copies: the request and the plan's PreConditions step`,
  s3_pdf_paths: `up to ${DOCUMENT_PATH_COPIES} copies: the request and the plan's steps that retrieve and judge the documents`,
};

/** The run record (one DynamoDB item) keeps the request and the plan's copies of it. */
function assertStorable(request: EvaluationRequest): void {
  const footprint = requestFootprint(request as unknown as Record<string, unknown>);
  if (footprint.total <= REQUEST_STORAGE_BUDGET_BYTES) return;
  const [field, bytes] = Object.entries(footprint.byField).sort(([, a], [, b]) => b - a)[0] ?? ["(body)", 0];
  throw new RequestTooLargeError([
    {
      field,
      message:
        `${field} takes ${bytes} bytes in the run record (${COPIES_EXPLAINED[field] ?? "stored once"}); ` +
        `the request would take ${footprint.total} bytes in all, and a run record keeps at most ` +
        `${REQUEST_STORAGE_BUDGET_BYTES} bytes for its request (DynamoDB items stop at ${DYNAMODB_ITEM_BYTES} bytes; ` +
        `${META_RESERVE_BYTES} are kept for the plan, the result and errors): make ${field} smaller`,
    },
  ]);
}

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) =>
      typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
    "",
  );
}
