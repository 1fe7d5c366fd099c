// The loan agent as the engine runs it: the loan evaluation profile, registered in
// lambdas/core/agent-profiles.ts. Plans are read by the loan planner's rules (profiles.ts); the
// engine's reviewers (with the loan rules of review.ts), questions and solver do the rest. Pure.

import { DEFAULT_PROFILE } from "../../contracts/agents.ts";
import type { AgentProfileModule } from "../../core/agent-profiles.ts";
import { planWithAnswers, withAnswers } from "../../core/interaction.ts";
import { describeScope, type InstructionScope, loanScope } from "./instructions/interpret.ts";
import { loanEvaluationProfileFor, loanPlanFromText } from "./profiles.ts";
import {
  ANSWER_WORDS,
  DEFAULT_INSTRUCTIONS,
  DEFAULT_PLANNER_PROMPT,
  DEFAULT_SOLVER_PROMPT,
  PLANNER_SYSTEM_PROMPT,
  SOLVER_EVIDENCE_BUDGETS,
  SOLVER_SYSTEM_PROMPT,
} from "./prompts.ts";
import { loanPlanReviewRules, loanResultIssues } from "./review.ts";
import { renderPlanReviewPrompt, renderResultReviewPrompt } from "./review-prompts.ts";
import { noteUnanswered, parseSolverOutput } from "./solver-answer.ts";

export const loanEvaluation: AgentProfileModule = {
  // The runs whose record names no agent are the loan agent's.
  name: DEFAULT_PROFILE,
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
  plannerPrompt: { system: PLANNER_SYSTEM_PROMPT, template: DEFAULT_PLANNER_PROMPT, overridable: true },
  defaultInstructions: DEFAULT_INSTRUCTIONS,
  answerWords: ANSWER_WORDS,
  solver: {
    system: SOLVER_SYSTEM_PROMPT,
    template: DEFAULT_SOLVER_PROMPT,
    overridable: true,
    evidenceBudgets: SOLVER_EVIDENCE_BUDGETS,
    readAnswer: (text, { plan, evidence, clarification }) => {
      const parsed = parseSolverOutput(text, { plan, evidence });
      return { result: noteUnanswered(parsed.result, clarification), warnings: parsed.warnings };
    },
  },
  reviewerPrompts: { plan: renderPlanReviewPrompt, result: renderResultReviewPrompt },
  // A loan plan's reading is always the interpreter's scope (lambdas/planner/scope.ts).
  describeReading: (reading) => describeScope(reading as InstructionScope),
};
