// The worker runs a plan level by level: steps of one level are independent and run in parallel.
import { compareStepIds } from "./ids.ts";

type Node = { id: string; depends_on: readonly string[] };

/** Topological levels (Kahn): level k holds the steps whose dependencies all sit in levels < k. */
export function computeLevels(steps: readonly Node[]): string[][] {
  const ids = new Set(steps.map((s) => s.id));
  const remaining = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const step of steps) {
    const deps = new Set(step.depends_on);
    for (const dep of deps) {
      if (!ids.has(dep)) {
        throw new Error(`computeLevels: ${step.id} depends on ${dep}, which is not a step of the plan`);
      }
      dependents.set(dep, [...(dependents.get(dep) ?? []), step.id]);
    }
    remaining.set(step.id, deps.size);
  }

  const levels: string[][] = [];
  let current = [...remaining].filter(([, n]) => n === 0).map(([id]) => id);
  let placed = 0;
  while (current.length > 0) {
    current.sort(compareStepIds);
    levels.push(current);
    placed += current.length;
    const next: string[] = [];
    for (const id of current) {
      for (const dependent of dependents.get(id) ?? []) {
        const left = (remaining.get(dependent) ?? 0) - 1;
        remaining.set(dependent, left);
        if (left === 0) next.push(dependent);
      }
    }
    current = next;
  }
  if (placed < remaining.size) {
    const cycle = findCycle(steps);
    throw new Error(`computeLevels: the plan has a cycle: ${(cycle ?? []).join(" -> ")}`);
  }
  return levels;
}

/**
 * A dependency cycle as a closed path, e.g. ["E1", "E2", "E1"] for "E1 depends on E2, which depends on E1";
 * null when there is none. The search starts from the lowest step number so the answer is deterministic.
 * Dependencies on ids that are not steps are ignored (reporting those is validation's job).
 */
export function findCycle(steps: readonly Node[]): string[] | null {
  const deps = new Map<string, string[]>();
  for (const step of steps) deps.set(step.id, [...new Set(step.depends_on)].sort(compareStepIds));
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];

  const visit = (id: string): string[] | null => {
    state.set(id, "visiting");
    stack.push(id);
    for (const dep of deps.get(id) ?? []) {
      if (!deps.has(dep)) continue;
      const seen = state.get(dep);
      if (seen === "visiting") return [...stack.slice(stack.indexOf(dep)), dep];
      if (seen === undefined) {
        const cycle = visit(dep);
        if (cycle !== null) return cycle;
      }
    }
    stack.pop();
    state.set(id, "done");
    return null;
  };

  for (const id of [...deps.keys()].sort(compareStepIds)) {
    if (state.has(id)) continue;
    const cycle = visit(id);
    if (cycle !== null) return cycle;
  }
  return null;
}
