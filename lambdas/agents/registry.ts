// The agents the engine runs, registered in one place: one line per agent in BUILT_IN, each agent's
// module in its own folder beside this file (docs/agents.md). The engine's handlers find a run's
// agent here by the run's `profile`. Pure.
import { DEFAULT_PROFILE } from "../contracts/agents.ts";
import type { AgentProfileModule } from "../core/agent-profiles.ts";
import type { EvaluationRequest, InputQuestion, Plan, ProfileName } from "../core/types.ts";
import type { ToolDefinition } from "../tools/registry.ts";
import { bankingAssistant } from "./banking/agent.ts";
import { loanEvaluation } from "./loan/agent.ts";

const BUILT_IN: readonly AgentProfileModule[] = [loanEvaluation, bankingAssistant];

/**
 * An agent added while the process runs (the tests' own agents): its profile, and the definitions of
 * its tools, which the tool registry lists under its name. The built-in agents' tools are described
 * with their runners in lambdas/runtime/services.ts.
 */
export interface AgentRegistration {
  profile: AgentProfileModule;
  tools: ToolDefinition[];
}

const agents = new Map<ProfileName, AgentProfileModule>(BUILT_IN.map((agent) => [agent.name, agent]));
const addedTools = new Map<ProfileName, ToolDefinition[]>();

/** Every registered agent's name, the built-in ones first. */
export function profileNames(): ProfileName[] {
  return [...agents.keys()];
}

/**
 * Registers an agent in this process, before its first run: its runs then plan, wait, act and
 * answer as it says. A name already registered is refused (one name, one agent).
 */
export function registerAgent(registration: AgentRegistration): void {
  const { name } = registration.profile;
  if (agents.has(name)) throw new Error(`an agent named "${name}" is already registered`);
  agents.set(name, registration.profile);
  addedTools.set(name, registration.tools);
}

/** The tools of the agents registered while the process runs, by agent. */
export function registeredAgentTools(): Record<ProfileName, ToolDefinition[]> {
  return Object.fromEntries(addedTools);
}

/** The module of a run's profile (runs without one are DEFAULT_PROFILE's). */
export function profileModule(name: ProfileName | undefined): AgentProfileModule {
  const profile = name ?? DEFAULT_PROFILE;
  const agent = agents.get(profile);
  if (!agent) {
    throw new Error(
      `profile "${profile}" names no registered agent; registered: ${profileNames().join(", ")}`,
    );
  }
  return agent;
}

/** What a run must ask before its tools run: its profile's questions, or what its plan's tools ask. */
export function runQuestions(
  run: { request: EvaluationRequest; profile?: ProfileName | undefined },
  plan: Plan,
  tools: { questionsFor(plan: Plan): InputQuestion[] },
): InputQuestion[] {
  const { questions } = profileModule(run.profile);
  return questions ? questions(run.request) : tools.questionsFor(plan);
}
