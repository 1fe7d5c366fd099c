// Checks a parsed plan before anything runs and repairs what can be repaired without guessing: the step cap
// (loomflow's: truncate and say so; docs/architecture.md, "Where this project comes from") and the agent
// profile's required steps (insert, or add the dependency).
// Everything else is the planner's mistake and is reported, all issues at once, so one retry can fix them all.
import type { z } from "zod";
import { describeValue, isPlainObject } from "./describe.ts";
import { isStepId, sortStepIds, stepNumber } from "./ids.ts";
import { computeLevels, findCycle } from "./levels.ts";
import {
  exactPlaceholder,
  placeholderOccurrences,
  placeholdersIn,
  referencedStepIds,
} from "./placeholders.ts";
import { canonicalToolName } from "./tool-names.ts";
import type {
  AgentProfile,
  EvaluationRequest,
  Plan,
  PlanRepair,
  PlanStep,
  RawStep,
  ToolCatalog,
} from "./types.ts";

type ZodIssue = z.ZodError["issues"][number];

export class PlanValidationError extends Error {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(issues.join("; "));
    this.name = "PlanValidationError";
    this.issues = [...issues];
  }
}

export interface NormalizeOptions {
  tools?: ToolCatalog;
  maxSteps?: number;
  profile?: AgentProfile;
  /** Needed only when the profile has to insert a step (its args are built from the request). */
  request?: EvaluationRequest;
}

export function normalizePlan(input: readonly RawStep[], options: NormalizeOptions = {}): Plan {
  const { tools, maxSteps, profile, request } = options;
  // Tool names are read without regard to case (`LLM[...]` is the `llm` tool); the plan keeps the registered name.
  const raw =
    tools === undefined
      ? input
      : input.map((step) => adaptTextArgs(withRegisteredToolName(step, tools), tools));
  if (maxSteps !== undefined && (!Number.isInteger(maxSteps) || maxSteps < 1)) {
    throw new RangeError(`normalizePlan: maxSteps must be an integer >= 1, got ${describeValue(maxSteps)}`);
  }

  const issues: string[] = [];
  const structural = checkIds(raw);
  issues.push(...structural);
  const ids = new Set(raw.map((s) => s.id));
  let danglingRefs = false;
  for (const step of raw) {
    if (tools !== undefined) issues.push(...checkToolAndArgs(step, tools));
    const refs = checkReferences(step, ids);
    danglingRefs ||= refs.dangling;
    issues.push(...refs.issues);
  }

  let steps = raw.map(toPlanStep);
  // With bad ids or dangling references the graph is not the one the planner meant; a cycle report would mislead.
  if (structural.length === 0 && !danglingRefs) {
    const withoutSelfLoops = steps.map((s) => ({
      id: s.id,
      depends_on: s.depends_on.filter((d) => d !== s.id),
    }));
    const cycle = findCycle(withoutSelfLoops);
    if (cycle !== null) issues.push(`cycle: ${cycle.join(" -> ")} (each step depends on the next)`);
  }
  if (issues.length > 0) throw new PlanValidationError(issues);

  const repairs: PlanRepair[] = [];
  let required = new Set<string>();
  let inserted = 0;
  if (profile !== undefined) {
    const applied = applyProfile(steps, profile, request, tools);
    steps = applied.steps;
    required = applied.protectedIds;
    inserted = applied.inserted;
    repairs.push(...applied.repairs);
  }
  if (steps.length === 0) throw new PlanValidationError(["plan has no steps: expected at least one step"]);

  if (maxSteps !== undefined && steps.length > maxSteps) {
    const truncated = truncate(steps, maxSteps, required, inserted, profile?.name);
    steps = truncated.steps;
    repairs.push(truncated.repair);
  }
  return { steps, levels: computeLevels(steps), repairs };
}

// ---------------------------------------------------------------------------------------------------------
// Checks

/** The step naming its tool as registered, when the planner wrote it in another case. */
function withRegisteredToolName(step: RawStep, tools: ToolCatalog): RawStep {
  const registered = canonicalToolName(tools.keys(), step.tool);
  return registered === undefined || registered === step.tool ? step : { ...step, tool: registered };
}

/**
 * The paper's text format gives one input per step (`#E2 = retrieve_s3_document[docs/a.pdf]`
 * parses to `{input: "..."}`). For a registered tool with exactly one required argument, that input is
 * the argument, so text plans run against the same tools as JSON plans.
 */
function adaptTextArgs(step: RawStep, tools: ToolCatalog): RawStep {
  const keys = Object.keys(step.args);
  if (keys.length !== 1 || keys[0] !== "input") return step;
  const shape = (
    tools.get(step.tool)?.args as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }
  )?.shape;
  if (!shape || "input" in shape) return step;
  const required = Object.entries(shape).filter(([, field]) => !field.safeParse(undefined).success);
  if (required.length !== 1) return step;
  const [name] = required[0] as [string, unknown];
  return { ...step, args: { [name]: step.args.input } };
}

function checkIds(raw: readonly RawStep[]): string[] {
  const issues: string[] = [];
  const positions = new Map<string, number[]>();
  raw.forEach((step, index) => {
    if (!isStepId(step.id)) {
      issues.push(
        `steps[${index}] (${step.tool}): id ${JSON.stringify(step.id)} is not a step id; ` +
          `expected E followed by a step number, like "E${index + 1}"`,
      );
    }
    positions.set(step.id, [...(positions.get(step.id) ?? []), index]);
  });
  for (const [id, at] of positions) {
    if (at.length < 2) continue;
    const where = at.map((i) => `steps[${i}] (${raw[i]?.tool})`).join(", ");
    issues.push(`duplicate step id ${id}: used by ${where}; every step needs its own id`);
  }
  return issues;
}

function checkReferences(step: RawStep, ids: ReadonlySet<string>): { issues: string[]; dangling: boolean } {
  const issues: string[] = [];
  let dangling = false;
  const existing = () => sortStepIds(ids).join(", ");
  const reported = new Set<string>();
  const report = (ref: string, where: string) => {
    if (reported.has(ref)) return;
    reported.add(ref);
    if (ref === step.id) {
      issues.push(`step ${step.id} (${step.tool}): ${where} itself (cycle: ${step.id} -> ${step.id})`);
    } else if (!ids.has(ref)) {
      dangling = true;
      issues.push(
        `step ${step.id} (${step.tool}): ${where} ${ref}, which is not a step of the plan (steps: ${existing()})`,
      );
    }
  };
  for (const ref of step.depends_on ?? []) report(ref, "depends_on lists");
  for (const occurrence of placeholderOccurrences(step.args)) {
    report(occurrence.id, `${occurrence.location} references`);
  }
  return { issues, dangling };
}

function checkToolAndArgs(step: RawStep, tools: ToolCatalog): string[] {
  const spec = tools.get(step.tool);
  if (spec === undefined) {
    const known = [...tools.keys()].sort().join(", ");
    return [`step ${step.id}: unknown tool ${JSON.stringify(step.tool)}; known tools: ${known}`];
  }
  let result: ReturnType<typeof spec.args.safeParse>;
  try {
    result = spec.args.safeParse(step.args);
  } catch (error) {
    // A refinement or transform may not expect a placeholder string where it expects data.
    const reason = error instanceof Error ? error.message : String(error);
    return [`step ${step.id} (${step.tool}): args could not be checked against the tool's schema: ${reason}`];
  }
  if (result.success) return [];
  return result.error.issues
    .filter((issue) => !excusedByPlaceholder(step.args, issue))
    .map((issue) => `step ${step.id} (${step.tool}): ${formatIssuePath(issue.path)}: ${issue.message}`);
}

/**
 * Args are validated before evidence exists, so a placeholder stands for a value of unknown type:
 * a string that is exactly one placeholder may become anything (`{{E1.items}}` for an array), and a
 * string with embedded placeholders is a string whose content (length, format) is only known later.
 */
function excusedByPlaceholder(args: Record<string, unknown>, issue: ZodIssue): boolean {
  let value: unknown = args;
  for (let i = 0; ; i++) {
    if (typeof value === "string") {
      if (exactPlaceholder(value) !== undefined) return true;
      return issue.code !== "invalid_type" && placeholdersIn(value).length > 0;
    }
    if (i >= issue.path.length) return false;
    const segment = issue.path[i];
    if (Array.isArray(value) && typeof segment === "number") value = value[segment];
    else if (isPlainObject(value) && typeof segment === "string") value = value[segment];
    else return false;
  }
}

function formatIssuePath(path: readonly PropertyKey[]): string {
  return `args${path.map((s) => (typeof s === "number" ? `[${s}]` : `.${String(s)}`)).join("")}`;
}

function toPlanStep(step: RawStep): PlanStep {
  return {
    id: step.id,
    tool: step.tool,
    args: step.args,
    depends_on: sortStepIds([...(step.depends_on ?? []), ...referencedStepIds(step.args)]),
    ...(step.description !== undefined ? { description: step.description } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Repairs

interface ProfileResult {
  steps: PlanStep[];
  /** The first step of each required tool plus everything it depends on: truncation must keep them. */
  protectedIds: Set<string>;
  inserted: number;
  repairs: PlanRepair[];
}

function applyProfile(
  planned: PlanStep[],
  profile: AgentProfile,
  request: EvaluationRequest | undefined,
  tools: ToolCatalog | undefined,
): ProfileResult {
  const steps = planned.map((s) => ({ ...s, depends_on: [...s.depends_on] }));
  const repairs: PlanRepair[] = [];
  const issues: string[] = [];
  const anchors: PlanStep[] = [];
  const earlier: Record<string, string> = {};
  let nextNumber = Math.max(0, ...steps.map((s) => stepNumber(s.id))) + 1;
  let inserted = 0;

  profile.required_steps.forEach((required, index) => {
    let anchor = steps.find((s) => s.tool === required.tool);
    if (anchor === undefined) {
      if (request === undefined) {
        throw new TypeError(
          `normalizePlan: profile ${profile.name} must insert a ${required.tool} step, ` +
            "and building its args needs options.request",
        );
      }
      const args = required.build_args(request, { ...earlier });
      const id = `E${nextNumber++}`;
      anchor = {
        id,
        tool: required.tool,
        args,
        depends_on: referencedStepIds(args),
        description: required.description,
      };
      if (tools !== undefined) issues.push(...checkToolAndArgs(anchor, tools));
      issues.push(...checkReferences(anchor, new Set([...steps.map((s) => s.id), id])).issues);
      // Before the step that will need it, so the plan still reads in execution order.
      const laterTools = new Set(profile.required_steps.slice(index + 1).map((r) => r.tool));
      const before = steps.findIndex((s) => laterTools.has(s.tool));
      steps.splice(before === -1 ? steps.length : before, 0, anchor);
      inserted++;
      const after = anchor.depends_on.length > 0 ? `, after ${anchor.depends_on.join(", ")}` : "";
      repairs.push({
        kind: "inserted_required_step",
        message:
          `profile ${profile.name} requires a ${required.tool} step and the planner wrote none; ` +
          `inserted ${id} (${required.description})${after}`,
        step_ids: [id],
      });
    }

    const previous = profile.required_steps[index - 1];
    const previousAnchor = anchors[index - 1];
    if (previous !== undefined && previousAnchor !== undefined) {
      const byId = new Map(steps.map((s) => [s.id, s]));
      const previousIds = steps.filter((s) => s.tool === previous.tool).map((s) => s.id);
      for (const step of steps.filter((s) => s.tool === required.tool)) {
        const ancestors = ancestorsOf([step.id], byId);
        if (previousIds.some((id) => ancestors.has(id))) continue;
        if (ancestorsOf([previousAnchor.id], byId).has(step.id)) {
          issues.push(
            `profile ${profile.name} requires ${previous.tool} before ${required.tool}, but ${previous.tool} ` +
              `step ${previousAnchor.id} depends on ${required.tool} step ${step.id}; expected the opposite order`,
          );
          continue;
        }
        step.depends_on = sortStepIds([...step.depends_on, previousAnchor.id]);
        repairs.push({
          kind: "inserted_required_step",
          message:
            `profile ${profile.name} requires ${previous.tool} before ${required.tool}; ` +
            `dependency added: ${step.id} (${required.tool}) now depends on ${previousAnchor.id} (${previous.tool})`,
          step_ids: [step.id],
        });
      }
    }
    anchors.push(anchor);
    earlier[required.tool] = anchor.id;
  });
  if (issues.length > 0) throw new PlanValidationError(issues);

  const byId = new Map(steps.map((s) => [s.id, s]));
  const protectedIds = ancestorsOf(
    anchors.map((a) => a.id),
    byId,
  );
  for (const anchor of anchors) protectedIds.add(anchor.id);
  return { steps, protectedIds, inserted, repairs };
}

/** Every step the given steps depend on, directly or transitively (the given steps themselves excluded). */
function ancestorsOf(start: readonly string[], byId: ReadonlyMap<string, PlanStep>): Set<string> {
  const seen = new Set<string>();
  const pending = start.flatMap((id) => byId.get(id)?.depends_on ?? []);
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(byId.get(id)?.depends_on ?? []));
  }
  return seen;
}

/**
 * loomflow semantics: keep the first `cap` steps and drop the rest, plus any kept step that (transitively)
 * needs a dropped one, since it could not run. Steps the profile requires, and what they need, are kept first.
 */
function truncate(
  steps: PlanStep[],
  cap: number,
  required: ReadonlySet<string>,
  inserted: number,
  profileName: string | undefined,
): { steps: PlanStep[]; repair: PlanRepair } {
  if (required.size > cap) {
    const ids = sortStepIds(required).join(", ");
    throw new PlanValidationError([
      `max_steps is ${cap}, but profile ${profileName} needs ${required.size} steps ` +
        `(${ids}: its required steps and the steps they depend on); expected max_steps >= ${required.size}`,
    ]);
  }
  const keep = new Set(required);
  for (const step of steps) {
    if (keep.size >= cap) break;
    keep.add(step.id);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const step of steps) {
      if (keep.has(step.id) && step.depends_on.some((d) => !keep.has(d))) {
        keep.delete(step.id);
        changed = true;
      }
    }
  }
  const dropped = sortStepIds(steps.filter((s) => !keep.has(s.id)).map((s) => s.id));
  const had =
    inserted > 0
      ? `${steps.length} steps (including ${inserted} inserted required step${inserted === 1 ? "" : "s"})`
      : `${steps.length} steps`;
  return {
    steps: steps.filter((s) => keep.has(s.id)),
    repair: {
      kind: "truncated",
      message: `plan had ${had}; truncated to the cap of ${cap} (dropped ${dropped.join(", ")})`,
      step_ids: dropped,
    },
  };
}

/** The plan length a request may have: its own cap, within the system's. */
export function maxStepsFor(request: EvaluationRequest, systemMax: number): number {
  return Math.min(request.options?.max_steps ?? systemMax, systemMax);
}
