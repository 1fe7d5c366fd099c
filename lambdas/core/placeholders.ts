// How a step's args name earlier evidence, and how that evidence is put in their place.
// Two syntaxes coexist because planners write both: `{{E1}}` / `{{E1.a.b[0]}}` (JSON plans) and `#E1` (the
// ReWOO paper's text plans, which have no field selection).
import { describeValue, isPlainObject, preview } from "./describe.ts";
import { sortStepIds } from "./ids.ts";

export type PathSegment = string | number;

export interface PlaceholderRef {
  id: string;
  path: PathSegment[];
  /** The placeholder exactly as written, for error messages. */
  text: string;
}

/** What substitution needs of an evidence record; the full `Evidence` type satisfies it. */
export interface EvidenceView {
  status: "ok" | "error";
  output?: unknown;
  error?: string;
}

export class SubstitutionError extends Error {
  readonly step_id: string;
  readonly path: string;
  constructor(message: string, stepId: string, path: string) {
    super(message);
    this.name = "SubstitutionError";
    this.step_id = stepId;
    this.path = path;
  }
}

// `{{ E1.a.b[0] }}`: keys are anything but separators; `(?!\d)` keeps `#E1` from matching the start of `#E10`,
// while `#E1.` at the end of a sentence is #E1 followed by a full stop.
const BRACE = String.raw`\{\{\s*#?(E\d+)((?:\.[^.\[\]\s{}]+|\[\s*\d+\s*\])*)\s*\}\}`;
const HASH = String.raw`#(E\d+)(?!\d)`;
const ANY_PLACEHOLDER = new RegExp(`${BRACE}|${HASH}`, "g");
const EXACT_PLACEHOLDER = new RegExp(`^(?:${BRACE}|${HASH})$`);
const PATH_SEGMENT = /\.([^.[\]\s{}]+)|\[\s*(\d+)\s*\]/g;

function toRef(match: RegExpMatchArray): PlaceholderRef {
  const [text, braceId, pathText, hashId] = match;
  if (braceId !== undefined) return { id: braceId, path: parsePath(pathText ?? ""), text };
  return { id: hashId ?? "", path: [], text };
}

function parsePath(pathText: string): PathSegment[] {
  return [...pathText.matchAll(PATH_SEGMENT)].map(([, key, index]) =>
    key !== undefined ? key : Number(index),
  );
}

export function formatPath(id: string, path: readonly PathSegment[]): string {
  return id + path.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("");
}

/** The placeholder a string consists of (surrounding whitespace aside), if it is exactly one. */
export function exactPlaceholder(value: string): PlaceholderRef | undefined {
  const match = value.trim().match(EXACT_PLACEHOLDER);
  return match === null ? undefined : toRef(match);
}

export function placeholdersIn(value: string): PlaceholderRef[] {
  return [...value.matchAll(ANY_PLACEHOLDER)].map(toRef);
}

export interface PlaceholderOccurrence extends PlaceholderRef {
  /** Where the string sits, e.g. `args.documents[0]`. */
  location: string;
}

/** Every placeholder in every string of a nested value (object keys are names, never references). */
export function placeholderOccurrences(value: unknown, root = "args"): PlaceholderOccurrence[] {
  const found: PlaceholderOccurrence[] = [];
  visitStrings(value, root, (text, location) => {
    for (const ref of placeholdersIn(text)) found.push({ ...ref, location });
  });
  return found;
}

/** Unique ids referenced anywhere in `value`, by step number (E2 before E10). */
export function referencedStepIds(value: unknown): string[] {
  return sortStepIds(placeholderOccurrences(value).map((o) => o.id));
}

/** `value` with every step reference renamed (`{{E3.x}}` → `{{E7.x}}`, `#E3` → `#E7`); others kept. */
export function renameStepRefs<T>(value: T, rename: ReadonlyMap<string, string>): T {
  return mapStrings(value, "args", (text) =>
    text.replace(ANY_PLACEHOLDER, (whole, braceId?: string, _path?: string, hashId?: string) => {
      const id = braceId ?? hashId ?? "";
      const to = rename.get(id);
      return to === undefined ? whole : whole.replace(id, to);
    }),
  ) as T;
}

function visitStrings(
  value: unknown,
  location: string,
  visit: (text: string, location: string) => void,
): void {
  if (typeof value === "string") visit(value, location);
  else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) visitStrings(item, `${location}[${i}]`, visit);
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) visitStrings(item, `${location}.${key}`, visit);
  }
}

function mapStrings(
  value: unknown,
  location: string,
  map: (text: string, location: string) => unknown,
): unknown {
  if (typeof value === "string") return map(value, location);
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, `${location}[${i}]`, map));
  if (isPlainObject(value)) {
    // fromEntries defines properties, so a JSON key named "__proto__" stays data instead of a prototype.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, `${location}.${key}`, map)]),
    );
  }
  return value;
}

/**
 * Replaces placeholders with evidence. A string that is exactly one placeholder becomes the typed value
 * (so `{{E1.items}}` hands a tool a real array); inside longer text a placeholder becomes text.
 * Failed upstream steps substitute their error text instead of failing this step: the tool (often an LLM)
 * may still do something useful, and `upstream_errors` lets the solver see why.
 */
export function substitutePlaceholders(
  args: Record<string, unknown>,
  evidence: ReadonlyMap<string, EvidenceView>,
): { args: Record<string, unknown>; upstream_errors: string[] } {
  const failed = new Set<string>();
  const resolve = (ref: PlaceholderRef, location: string): unknown => {
    const record = evidence.get(ref.id);
    if (record === undefined) {
      const known = sortStepIds(evidence.keys());
      throw new SubstitutionError(
        `${location}: ${ref.text} refers to ${ref.id}, which has no evidence yet ` +
          `(evidence exists for: ${known.length > 0 ? known.join(", ") : "no step"})`,
        ref.id,
        formatPath(ref.id, ref.path),
      );
    }
    if (record.status === "error") {
      failed.add(ref.id);
      return record.error === undefined ? `[${ref.id} failed]` : `[${ref.id} failed: ${record.error}]`;
    }
    if (record.output === undefined) {
      throw new SubstitutionError(
        `${location}: ${ref.text} refers to ${ref.id}, whose evidence has status ok but no output ` +
          "(an output stored out of line, output_ref, must be loaded before substitution)",
        ref.id,
        formatPath(ref.id, ref.path),
      );
    }
    return selectPath(record.output, ref, location);
  };

  const substituted = mapStrings(args, "args", (text, location) => {
    const exact = exactPlaceholder(text);
    if (exact !== undefined) return resolve(exact, location);
    return text.replace(ANY_PLACEHOLDER, (...match) =>
      asText(resolve(toRef(match as RegExpMatchArray), location)),
    );
  }) as Record<string, unknown>;

  return { args: substituted, upstream_errors: sortStepIds(failed) };
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
}

function selectPath(output: unknown, ref: PlaceholderRef, location: string): unknown {
  let current = output;
  for (let i = 0; i < ref.path.length; i++) {
    const segment = ref.path[i] as PathSegment;
    const here = formatPath(ref.id, ref.path.slice(0, i));
    // LLM tools return text; when that text is JSON, selecting a field of it is what the planner meant.
    if (typeof current === "string") current = parseJsonContainer(current) ?? current;
    const fail = (why: string): never => {
      throw new SubstitutionError(
        `${location}: ${ref.text} selects ${formatPath(ref.id, ref.path)}, but ${why}`,
        ref.id,
        formatPath(ref.id, ref.path),
      );
    };
    if (Array.isArray(current)) {
      const index =
        typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : undefined;
      if (index === undefined) fail(`${here} is an array (of ${current.length}); expected an index like [0]`);
      else if (index >= current.length)
        fail(`${here} has no index ${index} (it is an array of ${current.length})`);
      else current = current[index];
    } else if (isPlainObject(current)) {
      const key = String(segment);
      if (!Object.hasOwn(current, key)) {
        const keys = Object.keys(current);
        fail(
          `${here} has no key ${JSON.stringify(key)} (keys there: ${keys.length > 0 ? keys.join(", ") : "none"})`,
        );
      }
      current = current[key];
    } else {
      fail(
        `${here} is ${describeValue(current)}, which has no fields to select ${preview(String(segment))} from`,
      );
    }
  }
  return current;
}

function parseJsonContainer(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
