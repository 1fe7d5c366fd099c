// Agent profiles: steps a plan must contain whatever the planner wrote (the original loan-agent plan's loan evaluation flow).
import type { AgentProfile } from "./types.ts";

/** Conditions AI can only evaluate conditions that PreConditions has predicted, so it always runs second. */
export const loanEvaluationProfile: AgentProfile = {
  name: "loan_evaluation",
  required_steps: [
    {
      tool: "call_preconditions_api",
      description: "Predict the loan conditions that apply to this loan from its metadata",
      build_args: (request) => ({ metadata: request.metadata }),
    },
    {
      tool: "call_conditions_ai_api",
      description: "Evaluate the predicted conditions against the borrower's documents",
      build_args: (request, earlier) => {
        const preconditions = earlier.call_preconditions_api;
        if (preconditions === undefined) {
          throw new Error(
            "loanEvaluationProfile: call_conditions_ai_api needs the id of the call_preconditions_api step in `earlier`",
          );
        }
        return { conditions: `{{${preconditions}.conditions}}`, documents: request.s3_pdf_paths };
      },
    },
  ],
};
