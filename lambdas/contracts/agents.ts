// The agent a run belongs to when its record names none: runs stored before there were agents, and
// every loan evaluation (the run store writes a profile for the other agents only). The agents
// themselves are registered in lambdas/agents/registry.ts.

/** The name of the agent of a run whose record has no `profile`. */
export const DEFAULT_PROFILE = "loan_evaluation";
