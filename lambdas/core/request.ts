// The hybrid request of DESIGN.md §4.1, validated wherever a request enters (API, CLI). Every
// offending field is reported at once, by its path.
import { z } from "zod";
import { type DocumentPolicy, resolveDocumentPath } from "./documents.ts";
import type { EvaluationRequest } from "./types.ts";

export const MAX_DOCUMENTS = 50;

export const EvaluationRequestSchema = z.strictObject({
  metadata: z.record(z.string(), z.unknown(), {
    error: (issue) =>
      issue.input === undefined ? "required: an object with the loan metadata" : "expected an object",
  }),
  instructions: z.string().max(4_000).optional(),
  s3_pdf_paths: z
    .array(z.string().trim().min(1, "expected a non-empty document path"), {
      error: (issue) =>
        issue.input === undefined ? "required: a list of document paths" : "expected an array of strings",
    })
    .min(1, "expected at least one document path")
    .max(MAX_DOCUMENTS, `expected at most ${MAX_DOCUMENTS} documents`),
  output_destination: z
    .string()
    .regex(/^s3:\/\/[^/]+\/.*$/, "expected s3://bucket/prefix/ or s3://bucket/key.json")
    .optional(),
  options: z
    .strictObject({
      max_steps: z.number().int().min(1).max(50).optional(),
      parallel: z.boolean().optional(),
    })
    .optional(),
});

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

/** Validates shape and, when a policy is given, that every document is in an allowed location. */
export function validateRequest(input: unknown, policy?: DocumentPolicy): EvaluationRequest {
  const parsed = EvaluationRequestSchema.safeParse(input);
  const problems: RequestProblem[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const keys = issue.code === "unrecognized_keys" ? issue.keys : [undefined];
      for (const key of keys) {
        const path = [...issue.path, ...(key === undefined ? [] : [key])];
        problems.push({
          field: formatPath(path) || "(body)",
          message: issue.code === "unrecognized_keys" ? "unknown field" : issue.message,
        });
      }
    }
  } else if (policy) {
    parsed.data.s3_pdf_paths.forEach((path, index) => {
      try {
        resolveDocumentPath(path, policy);
      } catch (error) {
        problems.push({ field: `s3_pdf_paths[${index}]`, message: (error as Error).message });
      }
    });
  }
  if (problems.length > 0 || !parsed.success) throw new InvalidRequestError(problems);
  return parsed.data as EvaluationRequest;
}

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) =>
      typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
    "",
  );
}
