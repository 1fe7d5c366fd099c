// How the planner reads the instructions: the interpreter (lambdas/core/instructions.ts) over the
// catalog's conditions that can apply to this loan's classification, so "the name" means the
// tax return's name check on a return and the account holder's on bank statements.
import { type InstructionScope, interpretInstructions } from "../core/instructions.ts";
import type { EvaluationRequest } from "../core/types.ts";
import { loadCatalog, resolveClassification } from "../tools/loan/catalog.ts";

export function scopeOf(request: EvaluationRequest): InstructionScope {
  const given = request.metadata.classification;
  const classification = typeof given === "string" ? resolveClassification(given) : undefined;
  const conditions = loadCatalog().conditions.filter(
    (condition) => classification === undefined || condition.classifications.includes(classification),
  );
  return interpretInstructions({
    instructions: request.instructions,
    documents: request.s3_pdf_paths,
    conditions,
  });
}
