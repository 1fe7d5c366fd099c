// Plan templates (the plan cache, docs/architecture.md "Plan cache"): a validated plan made reusable for
// the next request of the same shape. Every value of the request's metadata and every document path in
// the plan becomes a placeholder naming where it came from, by position only (the n-th metadata node, the
// n-th document), so the template carries neither a borrower's values nor the metadata's key names. A plan
// that keeps anything of its request after templating (a name in a description, a fragment of a path, a
// number from the instructions) is refused: it is not cached. Pure.
import { isPlainObject } from "./describe.ts";
import type { EvaluationRequest, PlanStep, RawStep } from "./types.ts";

/** Bumped when templates change meaning: a template of another version is never read. */
export const PLAN_TEMPLATE_VERSION = 1;

/** A plan step as stored in the cache: request values replaced by placeholders. */
export interface TemplateStep {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  depends_on: string[];
  description?: string;
}

export interface PlanTemplate {
  version: typeof PLAN_TEMPLATE_VERSION;
  steps: TemplateStep[];
}

export type TemplateOutcome = { template: PlanTemplate } | { refused: string[] };

/** Why a template cannot be filled in for a request (the planner is asked instead). */
export class TemplateFillError extends Error {
  override name = "TemplateFillError";
}

const WHOLE_METADATA = "{{request.metadata}}";
const metadataToken = (index: number) => `{{request.metadata#${index}}}`;
const documentToken = (index: number) => `{{request.document#${index}}}`;
const REQUEST_TOKEN = /\{\{request\.(?:metadata(?:#(\d+))?|document#(\d+))\}\}/g;
const EXACT_REQUEST_TOKEN = /^\{\{request\.(?:metadata(?:#(\d+))?|document#(\d+))\}\}$/;
/** Evidence references ({{E1.x}}, #E1) are the plan's own wiring, not request data. */
const EVIDENCE_TOKEN = /\{\{\s*#?E\d+[^{}]*\}\}|#E\d+(?!\d)/g;
/** Any placeholder, captured: `split` puts them at the odd indexes. */
const ANY_TOKEN = /(\{\{[^{}]*\}\}|#E\d+(?!\d))/;

/** A value shorter than this is replaced only where it is a whole argument, never inside text. */
const MIN_EMBEDDED_CHARS = 4;
/** Words (of metadata values, paths, instructions) shorter than this are not looked for. */
const MIN_WORD_CHARS = 3;
/** How many digits of a long number are looked for on their own, at either end. */
const LAST_DIGITS = 4;

type Path = Array<string | number>;

interface MetadataNode {
  path: Path;
  value: unknown;
}

/** Every node of the metadata (objects, arrays, scalars) but the root, in a stable order. */
export function metadataNodes(metadata: Record<string, unknown>): MetadataNode[] {
  const nodes: MetadataNode[] = [];
  const walk = (value: unknown, path: Path) => {
    if (path.length > 0) nodes.push({ path, value });
    if (Array.isArray(value)) for (const [index, item] of value.entries()) walk(item, [...path, index]);
    else if (isPlainObject(value))
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(metadata, []);
  return nodes.sort((a, b) => compare(JSON.stringify(a.path), JSON.stringify(b.path)));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** JSON with object keys sorted: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const entries = Object.keys(value)
      .sort(compare)
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What a document is before anything reads it: its file type, from the path's extension. */
export function documentKind(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "none";
}

/**
 * The request's shape as the cache key sees it, without any of its values: the metadata's structure
 * (which nodes exist and their types, never their values), the documents' count and kinds, and how the
 * instructions were read with their documents as positions and without the interpretation's sentence
 * (which names the documents). The caller adds what the plan also depends on (agent, classification,
 * loan program, limits, catalog and prompt versions) and hashes it.
 */
export function requestShape(request: EvaluationRequest, scope: unknown): Record<string, unknown> {
  const documents = request.s3_pdf_paths;
  return {
    metadata: metadataNodes(request.metadata).map(({ path, value }) => [path, typeOfNode(value)]),
    documents: documents.map(documentKind),
    scope: scope === undefined ? null : positionalScope(scope, documents),
  };
}

function typeOfNode(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return isPlainObject(value) ? "object" : typeof value;
}

function positionalScope(scope: unknown, documents: readonly string[]): unknown {
  if (typeof scope === "string") {
    const index = documents.indexOf(scope);
    return index >= 0 ? `#document${index}` : scope;
  }
  if (Array.isArray(scope)) return scope.map((item) => positionalScope(item, documents));
  if (isPlainObject(scope)) {
    return Object.fromEntries(
      Object.entries(scope)
        .filter(([key]) => key !== "interpretation")
        .map(([key, value]) => [key, positionalScope(value, documents)]),
    );
  }
  return scope;
}

export interface TemplateInput {
  steps: readonly PlanStep[];
  request: EvaluationRequest;
  /**
   * Metadata values every request of the shape shares, because the key holds them (classification,
   * loan program): not borrower data, so text that keeps them is not refused for it.
   */
  shared: readonly string[];
  /**
   * Text the plan may repeat without it coming from the request: the tool catalog and the planner's
   * prompt. A word of the instructions found in the plan is borrower data unless it occurs here.
   */
  vocabulary: string;
}

/**
 * The plan as a template for its request's shape, or why it cannot be one. Refused: a value found at
 * two places of the request (the template could not say which), text that still holds a metadata value,
 * a word of one, a document's path, name or stem, or a word of the instructions the catalog and prompt
 * do not use; and a template that does not fill back into exactly the plan it came from.
 */
export function templateOf(input: TemplateInput): TemplateOutcome {
  const { request } = input;
  const problems: string[] = [];
  const sources = sourcesOf(request);
  const steps = input.steps.map((step) => {
    const at = `step ${step.id}`;
    const templated: TemplateStep = {
      id: step.id,
      tool: step.tool,
      args: templateValue(step.args, sources, `${at} args`, problems) as Record<string, unknown>,
      depends_on: [...step.depends_on],
    };
    if (step.description !== undefined) {
      templated.description = templateValue(
        step.description,
        sources,
        `${at} description`,
        problems,
      ) as string;
    }
    return templated;
  });
  const template: PlanTemplate = { version: PLAN_TEMPLATE_VERSION, steps };
  problems.push(...leftovers(template, input));
  if (problems.length === 0) {
    try {
      const filled = fillTemplate(template, request);
      if (canonicalJson(filled) !== canonicalJson(input.steps.map(rawStepOf))) {
        problems.push("the template does not fill back into the plan it was made from");
      }
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return problems.length ? { refused: [...new Set(problems)] } : { template };
}

function rawStepOf(step: PlanStep): RawStep {
  return {
    id: step.id,
    tool: step.tool,
    args: step.args,
    depends_on: step.depends_on,
    ...(step.description !== undefined ? { description: step.description } : {}),
  };
}

interface Sources {
  wholeMetadata: string;
  /** Canonical JSON of a value → the placeholders of the places it is found at. */
  exact: Map<string, string[]>;
  /** Text values that may sit inside longer text, longest first. */
  embedded: Array<{ text: string; tokens: string[] }>;
}

function sourcesOf(request: EvaluationRequest): Sources {
  const exact = new Map<string, string[]>();
  const add = (value: unknown, token: string) => {
    const key = canonicalJson(value);
    exact.set(key, [...(exact.get(key) ?? []), token]);
  };
  for (const [index, path] of request.s3_pdf_paths.entries()) add(path, documentToken(index));
  for (const [index, { value }] of metadataNodes(request.metadata).entries()) {
    // true/false/null, empty values and numbers of one or two digits say nothing of a borrower, and
    // would match the flags, limits and counts a planner writes.
    if (typeof value === "boolean" || value === null) continue;
    if (typeof value === "string" && value.trim() === "") continue;
    if (typeof value === "number" && String(value).length < MIN_WORD_CHARS) continue;
    if (typeof value === "object" && Object.keys(value).length === 0) continue;
    add(value, metadataToken(index));
  }
  const embedded = [...exact.entries()]
    .map(([key, tokens]) => ({ value: JSON.parse(key) as unknown, tokens }))
    .filter(
      (entry): entry is { value: string | number; tokens: string[] } =>
        (typeof entry.value === "string" || typeof entry.value === "number") &&
        String(entry.value).length >= MIN_EMBEDDED_CHARS,
    )
    .map(({ value, tokens }) => ({ text: String(value), tokens }))
    .sort((a, b) => b.text.length - a.text.length);
  return { wholeMetadata: canonicalJson(request.metadata), exact, embedded };
}

function templateValue(value: unknown, sources: Sources, at: string, problems: string[]): unknown {
  if (value === undefined) return value;
  const json = canonicalJson(value);
  if (isPlainObject(value) && json === sources.wholeMetadata) return WHOLE_METADATA;
  const places = typeof value === "boolean" || value === null ? undefined : sources.exact.get(json);
  if (places) {
    if (places.length > 1) {
      problems.push(`${at}: a value found at ${places.length} places of the request (ambiguous)`);
      return value;
    }
    return places[0];
  }
  if (typeof value === "string") return embed(value, sources, at, problems);
  // Problems are named by step and field only: an argument's name may itself be what must not be logged.
  if (Array.isArray(value)) return value.map((item) => templateValue(item, sources, at, problems));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, templateValue(item, sources, at, problems)]),
    );
  }
  return value;
}

/** Request values inside longer text become placeholders inside it. */
function embed(text: string, sources: Sources, at: string, problems: string[]): string {
  let out = text;
  for (const { text: needle, tokens } of sources.embedded) {
    if (!out.includes(needle)) continue;
    if (tokens.length > 1) {
      problems.push(`${at}: a value found at ${tokens.length} places of the request (ambiguous)`);
      continue;
    }
    // Placeholders already in the text (the request's, the evidence's) are left whole.
    out = out
      .split(ANY_TOKEN)
      .map((part, index) => (index % 2 === 1 ? part : part.split(needle).join(tokens[0])))
      .join("");
  }
  return out;
}

/** The words of a text, lower case (letters and digits; `_` joins, as in a tool's enum value). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** What still holds request data once the placeholders are taken out, named by where it is. */
function leftovers(template: PlanTemplate, input: TemplateInput): string[] {
  const { request } = input;
  const shared = new Set(input.shared.flatMap(wordsOf));
  const known = new Set(wordsOf(input.vocabulary));
  const substrings = new Set<string>();
  const words = new Set<string>();
  // A word the catalog or the prompt uses is explained by them, wherever else it occurs.
  const addWord = (word: string) => {
    if (word.length >= MIN_WORD_CHARS && !shared.has(word) && !known.has(word)) words.add(word);
    // An account's or an EIN's last (or first) four digits are how people quote it.
    if (/^\d{5,}$/.test(word)) {
      addWord(word.slice(-LAST_DIGITS));
      addWord(word.slice(0, LAST_DIGITS));
    }
  };
  const addValue = (text: string) => {
    if (text.length >= MIN_EMBEDDED_CHARS) substrings.add(text.toLowerCase());
    for (const word of wordsOf(text)) addWord(word);
  };
  for (const path of request.s3_pdf_paths) {
    addValue(path);
    const name = path.slice(path.lastIndexOf("/") + 1);
    addValue(name);
    if (name.includes(".")) addValue(name.slice(0, name.lastIndexOf(".")));
  }
  for (const { value } of metadataNodes(request.metadata)) {
    if (typeof value === "string" || typeof value === "number") {
      if (!input.shared.includes(String(value))) addValue(String(value));
    }
  }
  for (const word of wordsOf(request.instructions ?? "")) addWord(word);
  // Where the caller's result goes and the session it belongs to name the caller, not the shape.
  for (const value of [request.output_destination, request.session_id]) if (value) addValue(value);

  const problems: string[] = [];
  const check = (text: string, at: string) => {
    const rest = text.replace(REQUEST_TOKEN, " ").replace(EVIDENCE_TOKEN, " ").toLowerCase();
    const restWords = new Set(wordsOf(rest));
    const found =
      [...substrings].some((needle) => rest.includes(needle)) ||
      [...words].some((word) => restWords.has(word));
    if (found) problems.push(`${at}: holds text of the request's metadata, documents or instructions`);
  };
  const visit = (value: unknown, at: string) => {
    if (typeof value === "string") check(value, at);
    else if (typeof value === "number") check(String(value), at);
    else if (Array.isArray(value)) for (const item of value) visit(item, at);
    else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        check(key, `${at} (an argument's name)`);
        visit(item, at);
      }
    }
  };
  for (const step of template.steps) {
    visit(step.args, `step ${step.id} args`);
    if (step.description !== undefined) check(step.description, `step ${step.id} description`);
  }
  return problems;
}

/**
 * The template's steps for `request` (a request of the template's shape): each placeholder replaced
 * by the value at its place, whole values as they are (a number stays a number), inside text as text.
 * Throws TemplateFillError when a place does not exist or cannot be written as text.
 */
export function fillTemplate(template: PlanTemplate, request: EvaluationRequest): RawStep[] {
  if (template.version !== PLAN_TEMPLATE_VERSION) {
    throw new TemplateFillError(`template version ${template.version}: expected ${PLAN_TEMPLATE_VERSION}`);
  }
  const nodes = metadataNodes(request.metadata);
  const valueAt = (metadataIndex: string | undefined, documentIndex: string | undefined): unknown => {
    if (documentIndex !== undefined) {
      const path = request.s3_pdf_paths[Number(documentIndex)];
      if (path === undefined) throw new TemplateFillError(`the request has no document #${documentIndex}`);
      return path;
    }
    if (metadataIndex === undefined) return request.metadata;
    const node = nodes[Number(metadataIndex)];
    if (!node) throw new TemplateFillError(`the request's metadata has no node #${metadataIndex}`);
    return node.value;
  };
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      const whole = EXACT_REQUEST_TOKEN.exec(value);
      if (whole) return structuredClone(valueAt(whole[1], whole[2]));
      return value.replace(REQUEST_TOKEN, (_token, metadataIndex?: string, documentIndex?: string) => {
        const found = valueAt(metadataIndex, documentIndex);
        if (typeof found !== "string" && typeof found !== "number") {
          throw new TemplateFillError("a placeholder inside text names a value that is not text");
        }
        return String(found);
      });
    }
    if (Array.isArray(value)) return value.map(fill);
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return template.steps.map((step) => ({
    id: step.id,
    tool: step.tool,
    args: fill(step.args) as Record<string, unknown>,
    depends_on: [...step.depends_on],
    ...(step.description !== undefined ? { description: fill(step.description) as string } : {}),
  }));
}

/** A stored template read back: its structure checked, so a damaged item is a miss, not a crash. */
export function readTemplate(value: unknown): PlanTemplate | undefined {
  if (!isPlainObject(value) || value.version !== PLAN_TEMPLATE_VERSION || !Array.isArray(value.steps)) {
    return undefined;
  }
  const wellFormed = value.steps.every(
    (step) =>
      isPlainObject(step) &&
      typeof step.id === "string" &&
      typeof step.tool === "string" &&
      isPlainObject(step.args) &&
      Array.isArray(step.depends_on) &&
      step.depends_on.every((id) => typeof id === "string") &&
      (step.description === undefined || typeof step.description === "string"),
  );
  return wellFormed ? (value as unknown as PlanTemplate) : undefined;
}
