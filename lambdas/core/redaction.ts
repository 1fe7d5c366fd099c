// Removes the personal data that sensitive-data.ts describes, from two kinds of output:
// - scrubSensitiveText: one string (an error message quoting a response body, a document or an
//   LLM's output), patterns replaced and length capped;
// - redactForLog: a whole log record, sensitive fields replaced at any depth, every string
//   scrubbed, Error objects flattened (their messages and stacks scrubbed too), cycles cut.
// Values are replaced by `[REDACTED:<kind>]`, so a log still says what was there.
// Copy on write: an object in which nothing is redacted is returned as is, not cloned.
import {
  MAX_LOGGED_STRING_CHARS,
  METADATA_FIELDS,
  METADATA_NAME_FIELDS,
  SENSITIVE_FIELDS,
  SENSITIVE_PATTERNS,
  type SensitiveKind,
} from "./sensitive-data.ts";

const MARKER_OPENING = "[REDACTED:";

export function redactionMarker(kind: SensitiveKind): string {
  return `${MARKER_OPENING}${kind}]`;
}

// ---------------------------------------------------------------------------------------------
// Strings

const PATTERN = new RegExp(
  SENSITIVE_PATTERNS.map(([, source], index) => `(?<p${index}>${source})`).join("|"),
  "giu",
);
/** `"field": "value"` (or a number, or a flat object/array) inside a string: JSON quoted in a message. */
const EMBEDDED_JSON_FIELD =
  /"([A-Za-z0-9_$-]{1,64})"(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|\{[^{}]*\}|\[[^[\]]*\])/g;
/** Every pattern needs a digit or an @; text without either (most of it) skips the regex. */
const MAY_MATCH = /[\d@]/;
/** Scrubbed past the cut, so a value straddling it is recognised whole rather than left half-visible. */
const CUT_MARGIN = 64;

export interface ScrubOptions {
  /** Longer text is cut there, and the cut is said. */
  maxLength?: number;
}

/** `text` with every SENSITIVE_PATTERNS match and quoted JSON sensitive field replaced, cut at maxLength. */
export function scrubSensitiveText(text: string, options: ScrubOptions = {}): string {
  const maxLength = options.maxLength ?? MAX_LOGGED_STRING_CHARS;
  if (text.length <= maxLength) return scrubPatterns(text);
  return `${scrubbedHead(text, maxLength)}… [truncated: ${text.length} chars in all]`;
}

/**
 * At most the first `maxLength` characters of `text`, scrubbed. A value straddling the cut is
 * recognised whole (the scrub reads past it), so none of it is left half-visible.
 */
export function scrubbedHead(text: string, maxLength: number): string {
  let kept = scrubPatterns(text.slice(0, maxLength + CUT_MARGIN)).slice(0, maxLength);
  // A marker cut in half would read as damage, not as a redaction.
  const open = kept.lastIndexOf("[");
  const tail = kept.slice(open);
  if (
    open !== -1 &&
    !tail.includes("]") &&
    (MARKER_OPENING.startsWith(tail) || tail.startsWith(MARKER_OPENING))
  ) {
    kept = kept.slice(0, open);
  }
  return kept;
}

function scrubPatterns(text: string): string {
  let out = text;
  if (out.includes('":')) {
    out = out.replace(EMBEDDED_JSON_FIELD, (whole, field: string, separator: string) => {
      const kind = fieldKind(field, false);
      return kind ? `"${field}"${separator}"${redactionMarker(kind)}"` : whole;
    });
  }
  if (!MAY_MATCH.test(out)) return out;
  return out.replace(PATTERN, (...args) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    for (let index = 0; index < SENSITIVE_PATTERNS.length; index++) {
      if (groups[`p${index}`] !== undefined) return redactionMarker(SENSITIVE_PATTERNS[index]?.[0] ?? "ssn");
    }
    return args[0] as string;
  });
}

// ---------------------------------------------------------------------------------------------
// Field names

/** `coBorrowerSSN`, `co-borrower_ssn` → ["co", "borrower", "ssn"]. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

type FieldRule = { words: string[]; kind: SensitiveKind };

function indexByLastWord(entries: ReadonlyArray<readonly [string, SensitiveKind]>): Map<string, FieldRule[]> {
  const index = new Map<string, FieldRule[]>();
  for (const [field, kind] of entries) {
    const fieldWords = words(field);
    const last = fieldWords[fieldWords.length - 1];
    if (last === undefined) continue;
    index.set(last, [...(index.get(last) ?? []), { words: fieldWords, kind }]);
  }
  return index;
}

const GLOBAL_RULES = indexByLastWord(SENSITIVE_FIELDS);
const METADATA_RULES = indexByLastWord(METADATA_NAME_FIELDS.map((field) => [field, "name"] as const));
const METADATA_CONTAINERS = new Set(METADATA_FIELDS.map((field) => words(field).join("_")));

function matches(rules: Map<string, FieldRule[]>, keyWords: string[]): SensitiveKind | undefined {
  const candidates = rules.get(keyWords[keyWords.length - 1] ?? "");
  if (!candidates) return undefined;
  for (const rule of candidates) {
    if (rule.words.length > keyWords.length) continue;
    const tail = keyWords.slice(keyWords.length - rule.words.length);
    if (tail.every((word, index) => word === rule.words[index])) return rule.kind;
  }
  return undefined;
}

// Log records reuse a handful of keys; splitting each one into words once is enough.
const KIND_CACHE_LIMIT = 2_000;
const kindCache = new Map<string, SensitiveKind | null>();

/** The kind of data a field of this name holds, if it is sensitive (inside metadata or anywhere). */
export function fieldKind(name: string, insideMetadata: boolean): SensitiveKind | undefined {
  const cacheKey = `${insideMetadata ? "m" : "g"}:${name}`;
  const cached = kindCache.get(cacheKey);
  if (cached !== undefined) return cached ?? undefined;
  const keyWords = words(name);
  const kind =
    matches(GLOBAL_RULES, keyWords) ?? (insideMetadata ? matches(METADATA_RULES, keyWords) : undefined);
  if (kindCache.size >= KIND_CACHE_LIMIT) kindCache.clear();
  kindCache.set(cacheKey, kind ?? null);
  return kind;
}

function isMetadataContainer(name: string): boolean {
  return METADATA_CONTAINERS.has(words(name).join("_"));
}

// ---------------------------------------------------------------------------------------------
// Whole values

export interface RedactionOptions {
  /** Longest string kept (MAX_LOGGED_STRING_CHARS by default); stacks get four times as much. */
  maxStringLength?: number;
  /** `file:line` where an error was thrown, from its stack (the logger's formatter knows how). */
  errorLocation?: (stack: string | undefined) => string;
}

const MAX_DEPTH = 64;
const ERROR_OWN_FIELDS = new Set(["name", "message", "stack", "cause"]);

/**
 * `value` as it may be logged: fields named in SENSITIVE_FIELDS replaced wherever they are (a
 * bare `name` only under `metadata`), every string scrubbed and capped, Buffers and typed arrays
 * replaced, Errors turned into `{name, location?, message, stack, cause, ...own fields}` with the
 * same treatment, a reference back to an enclosing object replaced by "[Circular]".
 */
export function redactForLog(value: unknown, options: RedactionOptions = {}): unknown {
  const walker = new Walker(options);
  return walker.value(value, false, 0);
}

class Walker {
  private readonly maxString: number;
  private readonly maxStack: number;
  private readonly ancestors = new Set<object>();

  constructor(private readonly options: RedactionOptions) {
    this.maxString = options.maxStringLength ?? MAX_LOGGED_STRING_CHARS;
    this.maxStack = this.maxString * 4;
  }

  value(value: unknown, insideMetadata: boolean, depth: number): unknown {
    if (typeof value === "string") return scrubSensitiveText(value, { maxLength: this.maxString });
    if (typeof value !== "object" || value === null) return value;
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return redactionMarker("bytes");
    if (value instanceof Date) return value;
    if (this.ancestors.has(value)) return "[Circular]";
    if (depth >= MAX_DEPTH) return `[Truncated: nested deeper than ${MAX_DEPTH} levels]`;
    this.ancestors.add(value);
    try {
      if (value instanceof Error) return this.error(value, depth);
      if (Array.isArray(value)) return this.array(value, insideMetadata, depth);
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") {
        // What JSON.stringify would print is what must be scrubbed (URL, Decimal, SDK models…).
        const serialized: unknown = toJSON.call(value);
        if (serialized !== value) return this.value(serialized, insideMetadata, depth + 1);
      }
      return this.object(value as Record<string, unknown>, insideMetadata, depth);
    } finally {
      this.ancestors.delete(value);
    }
  }

  private field(name: string, value: unknown, insideMetadata: boolean, depth: number): unknown {
    if (value === undefined || value === null || value === "") return value;
    const kind = fieldKind(name, insideMetadata);
    if (kind) return redactionMarker(kind);
    return this.value(value, insideMetadata || isMetadataContainer(name), depth + 1);
  }

  private array(list: unknown[], insideMetadata: boolean, depth: number): unknown[] {
    let copy: unknown[] | undefined;
    for (let index = 0; index < list.length; index++) {
      const item = list[index];
      const redacted = this.value(item, insideMetadata, depth + 1);
      if (redacted !== item && copy === undefined) copy = list.slice(0, index);
      copy?.push(redacted);
    }
    return copy ?? list;
  }

  private object(
    record: Record<string, unknown>,
    insideMetadata: boolean,
    depth: number,
  ): Record<string, unknown> {
    const keys = Object.keys(record);
    let copy: Record<string, unknown> | undefined;
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const item = record[key];
      const redacted = this.field(key, item, insideMetadata, depth);
      if (redacted !== item && copy === undefined) {
        copy = {};
        for (const earlier of keys.slice(0, index)) copy[earlier] = record[earlier];
      }
      if (copy) copy[key] = redacted;
    }
    return copy ?? record;
  }

  private error(error: Error, depth: number): Record<string, unknown> {
    const stack = typeof error.stack === "string" ? error.stack : undefined;
    const shaped: Record<string, unknown> = {
      name: error.name,
      ...(this.options.errorLocation ? { location: this.options.errorLocation(stack) } : {}),
      message: scrubSensitiveText(String(error.message), { maxLength: this.maxString }),
      stack: stack === undefined ? undefined : scrubSensitiveText(stack, { maxLength: this.maxStack }),
    };
    if (error.cause !== undefined) shaped.cause = this.value(error.cause, false, depth + 1);
    if (error instanceof AggregateError) shaped.errors = this.value(error.errors, false, depth + 1);
    const fields = error as unknown as Record<string, unknown>;
    for (const key of Object.keys(error)) {
      if (!ERROR_OWN_FIELDS.has(key)) shaped[key] = this.field(key, fields[key], false, depth);
    }
    return shaped;
  }
}
