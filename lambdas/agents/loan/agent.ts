// The loan agent as the engine runs it: the loan evaluation profile, registered in
// lambdas/core/agent-profiles.ts. Plans are read by the loan planner's rules (profiles.ts); the
// engine's reviewers (with the loan rules of review.ts), questions and solver do the rest. Pure.
import type { AgentProfileModule } from "../../core/agent-profiles.ts";
import { planWithAnswers, withAnswers } from "../../core/interaction.ts";
import { LOAN_PROFILE } from "../../core/types.ts";
import { describeScope, type InstructionScope, loanScope } from "./instructions/interpret.ts";
import { loanEvaluationProfileFor, loanPlanFromText } from "./profiles.ts";
import { loanPlanReviewRules, loanResultIssues } from "./review.ts";

export const loanEvaluation: AgentProfileModule = {
  name: LOAN_PROFILE,
  planFromText: loanPlanFromText,
  requiredTools: (plan) =>
    new Set(loanEvaluationProfileFor(loanScope(plan.scope)).required_steps.map((step) => step.tool)),
  answered: (request, plan, answers) => ({
    request: { ...request, metadata: withAnswers(request.metadata, answers) },
    plan: planWithAnswers(plan, answers),
  }),
  reviewRules: {
    plan: (plan, request) => loanPlanReviewRules(request, loanScope(plan.scope)),
    result: (result, evidence, reading) => loanResultIssues(result, evidence, loanScope(reading)),
  },
  // A loan plan's reading is always the interpreter's scope (lambdas/planner/scope.ts).
  describeReading: (reading) => describeScope(reading as InstructionScope),
};
