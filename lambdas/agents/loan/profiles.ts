// Agent profiles: steps a plan must contain whatever the planner wrote (the loan-agent plan's PreConditions →
// Conditions AI: docs/architecture.md, "Where this project comes from").

import { parsePlanText } from "../../core/parse.ts";
import type {
  AgentProfile,
  EvaluationRequest,
  InstructionReading,
  Plan,
  RequiredStep,
  ToolCatalog,
} from "../../core/types.ts";
import { normalizePlan } from "../../core/validate.ts";
import { type InstructionScope, loanScope } from "./instructions/interpret.ts";

const PRECONDITIONS = "call_preconditions_api";
const CONDITIONS_AI = "call_conditions_ai_api";

const JUDGING_QUESTIONS = new Set(["evaluate", "sufficiency", "large_deposits"]);

/**
 * Whether the scope asks for verdicts. "Which conditions apply" does not, nor does a question about
 * history or similar loans alone; without a scope (no interpreter ran) everything is judged.
 */
export function judgesConditions(scope: InstructionScope | undefined): boolean {
  return !scope || scope.questions.some((question) => JUDGING_QUESTIONS.has(question));
}

/** PreConditions' args for a scope: the metadata, and the conditions the instructions named or excluded. */
export function preconditionsArgs(
  request: EvaluationRequest,
  scope: InstructionScope | undefined,
): Record<string, unknown> {
  return {
    metadata: request.metadata,
    ...(scope?.include_conditions?.length ? { conditions: [...scope.include_conditions] } : {}),
    ...(scope?.exclude_conditions.length ? { exclude: [...scope.exclude_conditions] } : {}),
  };
}

/** The documents a scope judges: those the instructions pointed at, or all of the request's. */
export function scopedDocuments(request: EvaluationRequest, scope: InstructionScope | undefined): string[] {
  return [...(scope?.documents ?? request.s3_pdf_paths)];
}

/**
 * The loan profile for what the instructions asked: PreConditions always (it says which conditions
 * apply), Conditions AI after it unless only the applicable conditions were asked for, since it can
 * only evaluate conditions that PreConditions has predicted.
 */
export function loanEvaluationProfileFor(scope?: InstructionScope): AgentProfile {
  const steps: RequiredStep[] = [
    {
      tool: PRECONDITIONS,
      description: "Predict the loan conditions that apply to this loan from its metadata",
      build_args: (request) => preconditionsArgs(request, scope),
    },
  ];
  if (judgesConditions(scope)) {
    steps.push({
      tool: CONDITIONS_AI,
      description: "Evaluate the predicted conditions against the borrower's documents",
      build_args: (request, earlier) => {
        const preconditions = earlier[PRECONDITIONS];
        if (preconditions === undefined) {
          throw new Error(
            `loanEvaluationProfile: ${CONDITIONS_AI} needs the id of the ${PRECONDITIONS} step in \`earlier\``,
          );
        }
        return { conditions: `{{${preconditions}.conditions}}`, documents: scopedDocuments(request, scope) };
      },
    });
  }
  return { name: "loan_evaluation", required_steps: steps };
}

/** Every condition judged against every document: the profile without instructions to narrow it. */
export const loanEvaluationProfile: AgentProfile = loanEvaluationProfileFor(undefined);

/**
 * A plan as a planner writes it (any format the parser reads) → the validated plan of a loan request,
 * with the steps its scope requires, carrying that scope. The planner's output and an operator's
 * edit go through exactly this. Throws PlanParseError / PlanValidationError.
 */
export function loanPlanFromText(
  text: string,
  options: {
    tools: ToolCatalog;
    maxSteps: number;
    request: EvaluationRequest;
    scope: InstructionReading | undefined;
  },
): Plan {
  const scope = loanScope(options.scope);
  const plan = normalizePlan(parsePlanText(text), {
    tools: options.tools,
    maxSteps: options.maxSteps,
    profile: loanEvaluationProfileFor(scope),
    request: options.request,
  });
  return options.scope ? { ...plan, scope: options.scope } : plan;
}
