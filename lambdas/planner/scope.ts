// How the planner reads the instructions: the interpreter (lambdas/agents/loan/instructions/interpret.ts) over the
// catalog's conditions that can apply to this loan's classification, so "the name" means the
// tax return's name check on a return and the account holder's on bank statements. The catalog's
// other conditions are passed as out of reach: "the signature" of a bank-statement loan is named as
// not possible here, not read as something else or passed over.

import { loadCatalog, resolveClassification } from "../agents/loan/catalog.ts";
import { type InstructionScope, interpretInstructions } from "../agents/loan/instructions/interpret.ts";
import type { EvaluationRequest, InstructionReading, ProfileName } from "../core/types.ts";

export function scopeOf(request: EvaluationRequest): InstructionScope {
  const given = request.metadata.classification;
  const classification = typeof given === "string" ? resolveClassification(given) : undefined;
  const applies = (condition: { classifications: readonly string[] }) =>
    classification === undefined || condition.classifications.includes(classification);
  const catalog = loadCatalog().conditions;
  return interpretInstructions({
    instructions: request.instructions,
    documents: request.s3_pdf_paths,
    conditions: catalog.filter(applies),
    elsewhere: catalog.filter((condition) => !applies(condition)),
  });
}

/** How a loan request's instructions are read; other agents' requests have no such reading. */
export function plannerScope(
  request: EvaluationRequest,
  profile: ProfileName | undefined,
): InstructionReading | undefined {
  return profile === undefined ? scopeOf(request) : undefined;
}
