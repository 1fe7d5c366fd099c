// JSON written the way the repository's formatter (biome) prints it, so generated files pass
// `npm run lint`: objects expanded one key per line, arrays of scalars on one line when they fit.
const LINE_WIDTH = 110;

const isScalar = (value: unknown) => value === null || typeof value !== "object";

export function formatJson(value: unknown): string {
  return `${print(value, 0, 0)}\n`;
}

/** `prefix` = characters already on the line before the value (indentation + key). */
function print(value: unknown, indent: number, prefix: number): string {
  if (isScalar(value)) return JSON.stringify(value) ?? "null";
  const pad = " ".repeat(indent + 2);
  const close = " ".repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every(isScalar)) {
      const inline = `[${value.map((v) => JSON.stringify(v) ?? "null").join(", ")}]`;
      // The trailing comma of a member line counts too.
      if (prefix + inline.length + 1 <= LINE_WIDTH) return inline;
    }
    return `[\n${value.map((v) => `${pad}${print(v, indent + 2, indent + 2)}`).join(",\n")}\n${close}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  return `{\n${entries
    .map(([k, v]) => {
      const key = `${JSON.stringify(k)}: `;
      return `${pad}${key}${print(v, indent + 2, indent + 2 + key.length)}`;
    })
    .join(",\n")}\n${close}}`;
}
