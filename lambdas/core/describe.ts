// Error messages must say what shape a value had without dumping it whole (plans and evidence can be large).
// A preview quotes LLM output or evidence, which may carry a document's personal data: it is scrubbed.
import { scrubbedHead, scrubSensitiveText } from "./redaction.ts";

const MAX_PREVIEW = 60;

export function preview(text: string, max = MAX_PREVIEW): string {
  const flat = text.replace(/\s+/g, " ");
  return JSON.stringify(flat.length > max ? `${scrubbedHead(flat, max)}…` : scrubSensitiveText(flat));
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "string") return `the string ${preview(value)}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    return keys.length === 0 ? "an empty object" : `an object with keys ${keys.join(", ")}`;
  }
  return `${typeof value} ${String(value)}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
