// The tool registry: name → zod args schema, description, timeout, implementation. The schemas
// feed plan validation and the planner's tool descriptions (lambdas/core), so a tool is described
// in exactly one place.
import type { z } from "zod";
import { DEFAULT_PROFILE } from "../contracts/agents.ts";
import { mergeQuestions } from "../core/interaction.ts";
import { toolNameKey } from "../core/tool-names.ts";
import type { Evidence, InputQuestion, Plan, ProfileName, ToolCatalog, ToolSpec } from "../core/types.ts";

export interface ToolContext {
  run_id: string;
  step_id: string;
  /** Aborted when the tool's timeout elapses; implementations pass it to their I/O. */
  signal: AbortSignal;
  /** Tools that call an LLM report its usage so the run's `usage` counts every call. */
  recordLlmUsage(usage: { input_tokens: number; output_tokens: number; models?: string[] }): void;
  /**
   * The step's args as planned (placeholders unresolved) and the evidence they referenced: a tool
   * that prompts a model delimits the evidence it was given instead of trusting substituted text.
   */
  planned_args?: Record<string, unknown>;
  upstream?: ReadonlyMap<string, Evidence>;
  /** The run's authenticated customer (banking runs): tools act on their holdings only. */
  customer_id?: string;
}

export interface ToolDefinition<Args extends Record<string, unknown> = Record<string, unknown>>
  extends ToolSpec {
  args: z.ZodType<Args>;
  timeout_ms: number;
  /**
   * The tool acts (moves money, opens an account): on its timeout the worker aborts it and waits for
   * it to settle (to say what it did, fencing off what it had not done) instead of recording the
   * timeout, which could not tell whether the act happened.
   */
  settles_on_abort?: boolean;
  run(args: Args, context: ToolContext): Promise<unknown>;
  /**
   * What of this tool's output the solver reads, when less than all of it: the full output stays in
   * the evidence store; the solver prompt should not pay for what another step already digested.
   */
  solver_view?(output: unknown): unknown;
  /**
   * What the caller must still supply for this step to do its whole job (e.g. metadata a condition
   * needs), judged from the planned args before anything runs: the run asks for it and waits.
   */
  questions?(args: Args): InputQuestion[];
}

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();
  /**
   * Every tool by its name in lower case: plans may name a tool in any case (lambdas/core/tool-names.ts),
   * so two names that differ only in case cannot both be registered.
   */
  private readonly byKey = new Map<string, ToolDefinition>();
  /** Each profile's own tools: a plan of one profile can name none of another's. */
  private readonly catalogs = new Map<ProfileName, Map<string, ToolDefinition>>();

  /** `definitions`: the loan profile's tools; `others`: the other profiles' tools. */
  constructor(definitions: ToolDefinition[], others: Partial<Record<ProfileName, ToolDefinition[]>> = {}) {
    const profiles: Array<[ProfileName, ToolDefinition[]]> = [
      [DEFAULT_PROFILE, definitions],
      ...(Object.entries(others) as Array<[ProfileName, ToolDefinition[]]>),
    ];
    for (const [profile, list] of profiles) {
      const own = new Map<string, ToolDefinition>();
      for (const definition of list) {
        if (this.tools.has(definition.name)) throw new Error(`tool "${definition.name}" is registered twice`);
        const clash = this.byKey.get(toolNameKey(definition.name));
        if (clash) {
          throw new Error(
            `tool "${definition.name}" differs from the registered "${clash.name}" only in case; plans name tools without regard to case`,
          );
        }
        this.tools.set(definition.name, definition);
        this.byKey.set(toolNameKey(definition.name), definition);
        own.set(definition.name, definition);
      }
      this.catalogs.set(profile, own);
    }
  }

  /** The tool a plan names, in any case (`LLM` is `llm`); its `name` is the registered spelling. */
  get(name: string): ToolDefinition {
    const tool = this.find(name);
    if (!tool) throw new Error(`unknown tool "${name}"; known tools: ${this.names().join(", ")}`);
    return tool;
  }

  private find(name: string): ToolDefinition | undefined {
    return this.tools.get(name) ?? this.byKey.get(toolNameKey(name));
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The tools a profile's planner may use (the loan profile's by default). */
  catalog(profile: ProfileName = DEFAULT_PROFILE): ToolCatalog {
    return this.catalogs.get(profile) ?? new Map();
  }

  /**
   * What the plan's steps still need from the caller (ToolDefinition.questions), merged by field. A
   * step whose args do not parse, or whose tool cannot tell, asks nothing: running it reports the problem.
   */
  questionsFor(plan: Pick<Plan, "steps">): InputQuestion[] {
    const found: InputQuestion[] = [];
    for (const step of plan.steps) {
      const tool = this.find(step.tool);
      if (!tool?.questions) continue;
      const args = tool.args.safeParse(step.args);
      if (!args.success) continue;
      try {
        found.push(...tool.questions(args.data));
      } catch {
        // e.g. an unknown classification: the step's own run names it.
      }
    }
    return mergeQuestions(found);
  }

  /** Evidence as the solver should see it (see ToolDefinition.solver_view). */
  forSolver(evidence: Evidence): Evidence {
    const view = this.find(evidence.tool)?.solver_view;
    return view && evidence.status === "ok" && evidence.output !== undefined
      ? { ...evidence, output: view(evidence.output) }
      : evidence;
  }
}

export function defineTool<Args extends Record<string, unknown>>(
  definition: ToolDefinition<Args>,
): ToolDefinition {
  return definition as unknown as ToolDefinition;
}
