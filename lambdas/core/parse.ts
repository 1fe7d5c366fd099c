// Turns whatever the planner LLM wrote into raw steps. Planners drift between formats (JSON with or without
// fences and prose, the ReWOO paper's `Plan: ... #E1 = Tool[input]` lines), so the parser accepts all of them
// and leaves semantic checks (ids, references, tools) to validate.ts.

import { describeValue, isPlainObject, preview } from "./describe.ts";
import { balancedJsonEnd } from "./embedded-json.ts";
import { normalizeStepId } from "./ids.ts";
import type { RawStep } from "./types.ts";

export class PlanParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanParseError";
  }
}

const NO_STEPS =
  "no plan steps found: expected a JSON array of steps, {\"steps\": [...]}, or lines like 'Plan: ... #E1 = Tool[input]'";

export function parsePlanText(text: string): RawStep[] {
  if (typeof text !== "string") {
    throw new PlanParseError(`plan text: expected a string, got ${describeValue(text)}`);
  }
  // The text scan runs first, leniently, only to learn where text-format inputs sit: a JSON-looking region
  // that starts inside `Tool[...]` is part of a tool input, not the plan.
  const scan = scanTextSteps(text);
  const json = findJsonSteps(text, scan.spans);
  if (json !== undefined) return stepsFromJson(json);
  if (scan.error !== undefined) throw scan.error;
  if (scan.steps.length > 0) return scan.steps;
  throw new PlanParseError(
    scan.malformed.length > 0 ? `${NO_STEPS} (${malformedHint(scan.malformed)})` : NO_STEPS,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Text format

/** `#E1 = Tool[` or `#E1: Tool[`; `\d+` is greedy and must be followed by `=`/`:`, so #E10 never reads as #E1. */
const STEP_HEAD = /#E(\d+)[ \t]*[=:][ \t]*(\w+)[ \t]*\[/g;
/** Something that looks like a step but has no `Tool[input]` call, reported when nothing else parsed. */
const MALFORMED_HEAD = /#E\d+[ \t]*[=:][^\n]*/g;
const PLAN_LABEL = /\bplan\b[ \t]*\d*[ \t]*:/gi;

interface TextScan {
  steps: RawStep[];
  /** [start, end) of each parsed step, from `#E` to the closing bracket. */
  spans: Array<[number, number]>;
  malformed: string[];
  error?: PlanParseError;
}

function scanTextSteps(text: string): TextScan {
  const steps: RawStep[] = [];
  const spans: Array<[number, number]> = [];
  let previousEnd = 0;
  const head = new RegExp(STEP_HEAD.source, "g");
  for (let match = head.exec(text); match !== null; match = head.exec(text)) {
    const [whole, number, tool] = match as unknown as [string, string, string];
    const open = match.index + whole.length - 1;
    const close = matchingBracket(text, open);
    if (close === -1) {
      const { line, column } = position(text, open);
      return {
        steps,
        spans,
        malformed: [],
        error: new PlanParseError(
          `step #E${number} (${tool}): the '[' at line ${line}, column ${column} is never closed; ` +
            `expected ${tool}[input] with balanced brackets inside the input`,
        ),
      };
    }
    const description = planSentence(text.slice(previousEnd, match.index));
    steps.push({
      id: `E${number}`,
      tool,
      args: { input: text.slice(open + 1, close).trim() },
      ...(description !== undefined ? { description } : {}),
    });
    spans.push([match.index, close + 1]);
    previousEnd = close + 1;
    // Inputs may themselves contain `#E2 = X[...]`-like text; resuming after the bracket keeps it an input.
    head.lastIndex = close + 1;
  }
  const malformed = steps.length === 0 ? [...text.matchAll(MALFORMED_HEAD)].map((m) => m[0].trim()) : [];
  return { steps, spans, malformed };
}

/** Index of the `]` closing the `[` at `open`, by depth counting; -1 when it never closes. */
function matchingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "[") depth++;
    else if (ch === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The sentence after the last `Plan:` label before a step; prose such as `Question:` lines precedes it. */
function planSentence(between: string): string | undefined {
  let after: number | undefined;
  for (const label of between.matchAll(PLAN_LABEL)) after = label.index + label[0].length;
  if (after === undefined) return undefined;
  const sentence = between.slice(after).trim();
  return sentence === "" ? undefined : sentence;
}

function position(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split("\n").length;
  return { line, column: index - before.lastIndexOf("\n") };
}

function malformedHint(malformed: string[]): string {
  const shown = malformed.slice(0, 3).map((m) => preview(m, 40));
  return `saw ${shown.join(", ")}${malformed.length > 3 ? ", …" : ""}, without a Tool[input] call`;
}

// ---------------------------------------------------------------------------------------------------------
// JSON format

const FENCE = /```[^\n`]*\n([\s\S]*?)```/g;
const STEPS_OPENING = /^(?:\[\s*\{|\{\s*")/;

function findJsonSteps(text: string, skip: Array<[number, number]>): unknown[] | undefined {
  // A fenced block is the planner saying "this is the plan", so it beats an example array in the prose.
  for (const fence of text.matchAll(FENCE)) {
    const body = fence[1] ?? "";
    const start = fence.index + fence[0].indexOf("\n") + 1;
    const found = firstStepsRegion(text, start, start + body.length, skip);
    if (found !== undefined) return found;
  }
  return firstStepsRegion(text, 0, text.length, skip);
}

function firstStepsRegion(
  text: string,
  from: number,
  to: number,
  skip: Array<[number, number]>,
): unknown[] | undefined {
  const ends = new Map<number, number>();
  for (let i = from; i < to; i++) {
    const ch = text[i];
    if (ch !== "[" && ch !== "{") continue;
    // A steps array opens with `[{` and a steps object with `{"`: prose brackets are skipped without a scan.
    if (!STEPS_OPENING.test(text.slice(i, i + 64))) continue;
    if (skip.some(([start, end]) => i >= start && i < end)) continue;
    const end = ends.get(i) ?? balancedJsonEnd(text, i, to, ends);
    if (end === -1) continue;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(i, end + 1));
    } catch {
      continue;
    }
    const steps = firstStepList(value);
    if (steps !== undefined) return steps;
    // Every candidate inside parsed JSON is one of its values, and firstStepList has seen them all.
    i = end;
  }
  return undefined;
}

/** The first steps-shaped value in document order, so a plan wrapped as `{"plan": {"steps": [...]}}` is found. */
function firstStepList(root: unknown): unknown[] | undefined {
  const pending: unknown[] = [root];
  for (let value = pending.pop(); value !== undefined || pending.length > 0; value = pending.pop()) {
    const steps = asStepList(value);
    if (steps !== undefined) return steps;
    const children = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : [];
    for (let k = children.length - 1; k >= 0; k--) pending.push(children[k]);
  }
  return undefined;
}

/**
 * The shape test is loose on purpose: an array of objects of which one has `id` or `tool` is clearly meant as
 * a plan, so a step missing its `tool` gets a precise error instead of falling through to "no steps found".
 */
function asStepList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) {
    const looksLikeSteps =
      value.length > 0 && value.every(isPlainObject) && value.some((s) => "id" in s || "tool" in s);
    return looksLikeSteps ? value : undefined;
  }
  if (isPlainObject(value) && Array.isArray(value.steps)) return value.steps;
  return undefined;
}

function stepsFromJson(list: unknown[]): RawStep[] {
  if (list.length === 0) throw new PlanParseError(`${NO_STEPS} (the JSON plan's steps array is empty)`);
  return list.map(stepFromJson);
}

function stepFromJson(item: unknown, index: number): RawStep {
  const at = `steps[${index}]`;
  if (!isPlainObject(item)) {
    throw new PlanParseError(`${at}: expected a step object {id, tool, args}, got ${describeValue(item)}`);
  }
  const id = typeof item.id === "string" ? normalizeStepId(item.id) : "";
  if (id === "") {
    throw new PlanParseError(`${at}.id: expected a step id string like "E1", got ${describeValue(item.id)}`);
  }
  const tool = typeof item.tool === "string" ? item.tool.trim() : "";
  if (tool === "") {
    throw new PlanParseError(`${at}.tool: expected a tool name string, got ${describeValue(item.tool)}`);
  }
  const step: RawStep = { id, tool, args: jsonArgs(item, at) };
  if (item.depends_on !== undefined && item.depends_on !== null) {
    const deps = item.depends_on;
    if (!Array.isArray(deps) || !deps.every((d): d is string => typeof d === "string")) {
      throw new PlanParseError(
        `${at}.depends_on: expected an array of step ids like ["E1"], got ${describeValue(deps)}`,
      );
    }
    step.depends_on = deps.map(normalizeStepId);
  }
  if (item.description !== undefined && item.description !== null) {
    if (typeof item.description !== "string") {
      throw new PlanParseError(
        `${at}.description: expected a string, got ${describeValue(item.description)}`,
      );
    }
    const description = item.description.trim();
    if (description !== "") step.description = description;
  }
  return step;
}

function jsonArgs(item: Record<string, unknown>, at: string): Record<string, unknown> {
  if (item.args !== undefined) {
    if (!isPlainObject(item.args)) {
      throw new PlanParseError(
        `${at}.args: expected an object of named arguments, got ${describeValue(item.args)}`,
      );
    }
    return item.args;
  }
  // `input` mirrors the text format's single `Tool[input]` argument, which some JSON planners keep.
  if (item.input !== undefined) {
    if (typeof item.input !== "string") {
      throw new PlanParseError(
        `${at}.input: expected a string (or use "args": {...}), got ${describeValue(item.input)}`,
      );
    }
    return { input: item.input };
  }
  return {};
}
