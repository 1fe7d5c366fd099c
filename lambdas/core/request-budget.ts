// What a run will store for its request, checked before the run starts. A run keeps its request
// in one DynamoDB item (META) and later adds the plan, the result and any error to that same item;
// DynamoDB refuses an item above 400 KB or nested deeper than 32 levels. A request that fits the
// HTTP body limit can still break those limits once the plan copies its metadata and document
// paths into step arguments, and the run would then fail after its LLM calls were paid for. These
// checks move that failure to the request.
import { utf8Length } from "./documents.ts";

/** DynamoDB's item size limit. */
export const DYNAMODB_ITEM_BYTES = 400 * 1024;
/**
 * Kept in the META item for everything that is not copied from the request: the plan's own text
 * (step ids, tools, descriptions, levels, repairs), the solver's result (bounded by the solver
 * model's output, a few thousand tokens), an error, counters and timestamps.
 */
export const META_RESERVE_BYTES = 128 * 1024;
/** What the request and the plan's copies of it may take: 272 KiB. */
export const REQUEST_STORAGE_BUDGET_BYTES = DYNAMODB_ITEM_BYTES - META_RESERVE_BYTES;
/**
 * Copies of the document path list one run stores in its META item: the request itself, the
 * final step's `documents` argument, and a retrieval step per document that names the path in its
 * arguments and in its description.
 */
export const DOCUMENT_PATH_COPIES = 4;
/** Copies of the metadata: the request and the PreConditions step's `metadata` argument. */
export const METADATA_COPIES = 2;

/**
 * Maps and lists DynamoDB accepts nested in one attribute value, the value itself included (its
 * "32 levels" count the scalar at the bottom too).
 */
export const DYNAMODB_MAX_NESTED_CONTAINERS = 31;
/**
 * How deep metadata may nest (metadata itself is level 1). The plan stores it as plan → steps →
 * step → args → metadata, four containers down from the top-level attribute.
 */
export const MAX_METADATA_DEPTH = DYNAMODB_MAX_NESTED_CONTAINERS - 4;

export interface StorageFootprint {
  /** Bytes the run will store for its request, the plan's copies included. */
  total: number;
  /** Each field's share of `total`, copies included. */
  byField: Record<string, number>;
}

/** The request's share of the META item, as DynamoDB counts item size. */
export function requestFootprint(request: Record<string, unknown>): StorageFootprint {
  const byField: Record<string, number> = {};
  let total = utf8Length("request") + 3;
  for (const [field, value] of Object.entries(request)) {
    if (value === undefined) continue;
    const copies =
      field === "metadata" ? METADATA_COPIES : field === "s3_pdf_paths" ? DOCUMENT_PATH_COPIES : 1;
    const bytes = copies * (utf8Length(field) + dynamoValueBytes(value) + 1);
    byField[field] = bytes;
    total += bytes;
  }
  return { total, byField };
}

/**
 * Size of a value as a DynamoDB attribute value: strings by UTF-8 bytes, numbers about one byte
 * per two significant digits plus one, booleans and null one byte, maps and lists 3 bytes plus one
 * per element (and a map element's name). Iterative, so depth never matters.
 */
export function dynamoValueBytes(value: unknown): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") bytes += utf8Length(next);
    else if (typeof next === "number") bytes += numberBytes(next);
    else if (Array.isArray(next)) {
      bytes += 3 + next.length;
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === "object") {
      for (const [key, item] of Object.entries(next)) {
        if (item === undefined) continue;
        bytes += utf8Length(key) + 1;
        pending.push(item);
      }
      bytes += 3;
    } else bytes += 1;
  }
  return bytes;
}

function numberBytes(value: number): number {
  const digits = String(Math.abs(value))
    .replace(/e.*$/i, "")
    .replace(/\./, "")
    .replace(/^0+|0+$/g, "").length;
  return Math.min(21, Math.ceil(Math.max(digits, 1) / 2) + 1);
}

export interface TooDeep {
  /** Path of the first map or list past the limit, as `a.b[2].c`. */
  path: string;
  depth: number;
}

/**
 * The first container nested deeper than `maxDepth` (the value itself is level 1), or undefined.
 * Iterative with an explicit stack: a body nested 100,000 levels deep must not overflow the call
 * stack of the check meant to reject it.
 */
export function findTooDeep(value: unknown, maxDepth: number, basePath = ""): TooDeep | undefined {
  interface Frame {
    value: unknown;
    depth: number;
    parent: Frame | undefined;
    key: string | number | undefined;
  }
  const pending: Frame[] = [{ value, depth: 1, parent: undefined, key: undefined }];
  while (pending.length > 0) {
    const frame = pending.pop() as Frame;
    if (frame.value === null || typeof frame.value !== "object") continue;
    if (frame.depth > maxDepth) return { path: pathOf(frame, basePath), depth: frame.depth };
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.value)
      ? frame.value.map((item, index) => [index, item])
      : Object.entries(frame.value);
    for (const [key, item] of entries) {
      if (item !== null && typeof item === "object") {
        pending.push({ value: item, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return undefined;

  function pathOf(frame: Frame, base: string): string {
    const keys: Array<string | number> = [];
    for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) keys.push(at.key);
    return keys.reverse().reduce<string>((out, key) => {
      if (typeof key === "number") return `${out}[${key}]`;
      const shown = key.length > 40 ? `${key.slice(0, 37)}...` : key;
      return out ? `${out}.${shown}` : shown;
    }, base);
  }
}
