// The report's SVG charts: tokens per run against tool calls, and wall time against its bounds.

import type { ScenarioResult } from "./results.ts";

const W = 720;

const H = 420;

const PAD = { left: 78, right: 24, top: 48, bottom: 56 };

const COLORS = { rewoo: "#1f77b4", react: "#d62728", bound: "#2ca02c", critical: "#9467bd" };

function niceStep(max: number, ticks = 5): number {
  const raw = max / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw || 1));
  const n = raw / pow;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * pow;
}

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function frame(title: string, xLabel: string, yLabel: string, xMax: number, yMax: number) {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const xStep = niceStep(xMax, 8);
  const yStep = niceStep(yMax, 5);
  const xTop = Math.ceil(xMax / xStep) * xStep || 1;
  const yTop = Math.ceil(yMax / yStep) * yStep || 1;
  const x = (v: number) => PAD.left + (v / xTop) * plotW;
  const y = (v: number) => PAD.top + plotH - (v / yTop) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let v = 0; v <= yTop + 1e-9; v += yStep) {
    parts.push(
      `<line x1="${PAD.left}" y1="${y(v)}" x2="${W - PAD.right}" y2="${y(v)}" stroke="#e5e5e5"/>`,
      `<text x="${PAD.left - 8}" y="${y(v) + 4}" text-anchor="end">${Math.round(v).toLocaleString("en-US")}</text>`,
    );
  }
  for (let v = 0; v <= xTop + 1e-9; v += xStep) {
    parts.push(`<text x="${x(v)}" y="${H - PAD.bottom + 18}" text-anchor="middle">${Math.round(v)}</text>`);
  }
  parts.push(
    `<line x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${W - PAD.right}" y2="${PAD.top + plotH}" stroke="#333"/>`,
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}" stroke="#333"/>`,
    `<text x="${PAD.left + plotW / 2}" y="${H - 14}" text-anchor="middle">${esc(xLabel)}</text>`,
    `<text x="18" y="${PAD.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 18 ${PAD.top + plotH / 2})">${esc(yLabel)}</text>`,
  );
  return { parts, x, y };
}

function legend(parts: string[], entries: Array<[string, string]>): void {
  entries.forEach(([label, color], i) => {
    const lx = PAD.left + 16;
    const ly = PAD.top + 12 + i * 18;
    parts.push(
      `<rect x="${lx}" y="${ly - 9}" width="12" height="12" fill="${color}"/>`,
      `<text x="${lx + 18}" y="${ly + 1}">${esc(label)}</text>`,
    );
  });
}

/** Mean per x, sorted by x: a line through several scenarios with the same number of tool calls. */
function meanLine(points: Array<[number, number]>): Array<[number, number]> {
  const byX = new Map<number, number[]>();
  for (const [px, py] of points) byX.set(px, [...(byX.get(px) ?? []), py]);
  return [...byX]
    .sort((a, b) => a[0] - b[0])
    .map(([px, ys]) => [px, ys.reduce((a, b) => a + b, 0) / ys.length]);
}

export function tokensChart(scenarios: ScenarioResult[]): string {
  const xMax = Math.max(1, ...scenarios.map((s) => s.tool_calls));
  const yMax = Math.max(1, ...scenarios.flatMap((s) => [s.rewoo.total_tokens, s.react.total_tokens]));
  const { parts, x, y } = frame(
    "Tokens per run vs tool calls (o200k_base, prompts + completions)",
    "tool calls in the run",
    "tokens per run",
    xMax,
    yMax,
  );
  for (const [key, pick] of [
    ["rewoo", (s: ScenarioResult) => s.rewoo.total_tokens],
    ["react", (s: ScenarioResult) => s.react.total_tokens],
  ] as const) {
    const color = COLORS[key];
    const points = scenarios.map((s): [number, number] => [s.tool_calls, pick(s)]);
    const line = meanLine(points)
      .map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`)
      .join(" ");
    parts.push(`<polyline points="${line}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const [px, py] of points) {
      parts.push(`<circle cx="${x(px).toFixed(1)}" cy="${y(py).toFixed(1)}" r="4.5" fill="${color}"/>`);
    }
  }
  legend(parts, [
    ["ReWOO (2 LLM calls)", COLORS.rewoo],
    ["ReAct (tool calls + 1 LLM calls)", COLORS.react],
  ]);
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

export function latencyChart(scenarios: ScenarioResult[]): string {
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom - 40;
  const yMax = Math.max(
    1,
    ...scenarios.map((s) => Math.max(s.rewoo.wall_ms, s.lower_bound_ms, s.critical_path_ms)),
  );
  const yStep = niceStep(yMax, 5);
  const yTop = Math.ceil(yMax / yStep) * yStep;
  const y = (v: number) => PAD.top + plotH - (v / yTop) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    "<title>ReWOO wall time vs lower bound and critical path (ms)</title>",
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">ReWOO wall time vs lower bound and critical path (ms)</text>`,
  ];
  for (let v = 0; v <= yTop + 1e-9; v += yStep) {
    parts.push(
      `<line x1="${PAD.left}" y1="${y(v)}" x2="${W - PAD.right}" y2="${y(v)}" stroke="#e5e5e5"/>`,
      `<text x="${PAD.left - 8}" y="${y(v) + 4}" text-anchor="end">${Math.round(v).toLocaleString("en-US")}</text>`,
    );
  }
  const group = plotW / Math.max(1, scenarios.length);
  const bar = Math.min(18, (group - 8) / 3);
  scenarios.forEach((s, i) => {
    const gx = PAD.left + i * group + (group - 3 * bar) / 2;
    const bars: Array<[number, string]> = [
      [s.rewoo.wall_ms, COLORS.rewoo],
      [s.lower_bound_ms, COLORS.bound],
      [s.critical_path_ms, COLORS.critical],
    ];
    bars.forEach(([value, color], j) => {
      parts.push(
        `<rect x="${(gx + j * bar).toFixed(1)}" y="${y(value).toFixed(1)}" width="${(bar - 1).toFixed(1)}" height="${(PAD.top + plotH - y(value)).toFixed(1)}" fill="${color}"/>`,
      );
    });
    const lx = PAD.left + i * group + group / 2;
    const ly = PAD.top + plotH + 10;
    parts.push(
      `<text x="${lx.toFixed(1)}" y="${ly}" text-anchor="end" transform="rotate(-35 ${lx.toFixed(1)} ${ly})">${esc(s.name)} (${s.tool_calls})</text>`,
    );
  });
  parts.push(
    `<line x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${W - PAD.right}" y2="${PAD.top + plotH}" stroke="#333"/>`,
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + plotH}" stroke="#333"/>`,
  );
  legend(parts, [
    ["wall (execution start → end)", COLORS.rewoo],
    ["level-synchronous lower bound", COLORS.bound],
    ["DAG critical path", COLORS.critical],
  ]);
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
