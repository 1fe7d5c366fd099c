export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");

export const fixed = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");

export const usd = (n: number) => (Number.isFinite(n) ? `$${n.toFixed(n < 0.01 ? 6 : 4)}` : "n/a");

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

export function table(header: string[], rows: Array<Array<string | number>>, align?: string[]): string {
  const sep = header.map((_, i) => (align?.[i] === "l" ? "---" : "---:"));
  return [header, sep, ...rows].map((row) => `| ${row.join(" | ")} |`).join("\n");
}
