// The loan agent as the engine runs it: the loan evaluation profile, registered in
// lambdas/core/agent-profiles.ts. Plans are read by the loan planner's rules (profiles.ts); the
// engine's reviewers, questions and solver do the rest. Pure.
import type { AgentProfileModule } from "../../core/agent-profiles.ts";
import { planWithAnswers, withAnswers } from "../../core/interaction.ts";
import { LOAN_PROFILE } from "../../core/types.ts";
import { loanEvaluationProfileFor, loanPlanFromText } from "./profiles.ts";

export const loanEvaluation: AgentProfileModule = {
  name: LOAN_PROFILE,
  planFromText: loanPlanFromText,
  requiredTools: (plan) =>
    new Set(loanEvaluationProfileFor(plan.scope).required_steps.map((step) => step.tool)),
  answered: (request, plan, answers) => ({
    request: { ...request, metadata: withAnswers(request.metadata, answers) },
    plan: planWithAnswers(plan, answers),
  }),
};
