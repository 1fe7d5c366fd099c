// Replanning without repeating work: the planner writes a whole new plan after a required step
// failed, and this maps it onto the previous one. A new step that asks exactly what a finished step
// (evidence `ok`) asked — same tool, same args once references are renamed — takes that step's id,
// so the worker finds its evidence and does not call the tool again; every other step gets an id
// the run has never used, so no failed evidence is mistaken for it.
import { sortStepIds, stepNumber } from "./ids.ts";
import { computeLevels } from "./levels.ts";
import { renameStepRefs } from "./placeholders.ts";
import type { Plan, PlanStep } from "./types.ts";

export interface ReconciledPlan {
  plan: Plan;
  /** Ids of the new plan's steps that reuse finished evidence. */
  reused: string[];
}

export function reconcilePlan(previous: Plan, finished: ReadonlySet<string>, next: Plan): ReconciledPlan {
  const rename = new Map<string, string>();
  const taken = new Set<string>();
  let highest = Math.max(0, ...previous.steps.map((step) => stepNumber(step.id)));
  const reused: string[] = [];
  const steps: PlanStep[] = [];
  const byId = new Map(next.steps.map((step) => [step.id, step]));
  // Levels order the steps so every reference is renamed before the step that makes it is compared.
  for (const id of next.levels.flat()) {
    const step = byId.get(id);
    if (!step) continue;
    const args = renameStepRefs(step.args, rename);
    const dependsOn = sortStepIds(step.depends_on.map((dep) => rename.get(dep) ?? dep));
    const same = previous.steps.find(
      (old) =>
        finished.has(old.id) &&
        !taken.has(old.id) &&
        old.tool === step.tool &&
        canonical(old.args) === canonical(args) &&
        canonical(sortStepIds(old.depends_on)) === canonical(dependsOn),
    );
    const finalId = same ? same.id : `E${++highest}`;
    if (same) {
      taken.add(same.id);
      reused.push(finalId);
    }
    rename.set(step.id, finalId);
    steps.push({ ...step, id: finalId, args, depends_on: dependsOn });
  }
  steps.sort((a, b) => stepNumber(a.id) - stepNumber(b.id));
  return {
    plan: {
      ...next,
      steps,
      levels: computeLevels(steps),
      repairs: next.repairs.map((repair) => ({
        ...repair,
        step_ids: repair.step_ids.map((id) => rename.get(id) ?? id),
      })),
    },
    reused,
  };
}

/** JSON with object keys sorted: equal for equal values whatever order their keys were written in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
