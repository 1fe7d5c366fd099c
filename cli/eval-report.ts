// How `rewoo eval` shows a summary (eval-score.ts), without I/O: a few lines for a terminal, what
// changed since a previous summary, and the report a model-risk reviewer files (--out), as Markdown
// or HTML from one outline, so both say the same. Every text from a run (a reason, an excerpt, a file
// name) is escaped for the format it goes into.
import {
  CONFIDENCE_BANDS,
  type Comparison,
  type ConfidenceBand,
  type EvalSummary,
  type Got,
  percent,
  type Tally,
  VERDICT_LABELS,
  type VerdictChange,
} from "./eval-score.ts";

const GOT_COLUMNS: readonly Got[] = [...VERDICT_LABELS, "missing", "run_failed"];

/** +5.7 pts / −33.3 pts / ±0.0 pts: a change of accuracy in percentage points. */
export function points(delta: number): string {
  const value = Math.round(delta * 1000) / 10;
  if (value === 0) return "±0.0 pts";
  return `${value > 0 ? "+" : "−"}${Math.abs(value).toFixed(1)} pts`;
}

const fraction = (tally: { right: number; total: number }) => `${tally.right}/${tally.total}`;

/** The terminal's summary: totals, each condition, each mismatch, the thresholds' outcome. */
export function formatEvalSummary(summary: EvalSummary): string[] {
  const lines = [
    "",
    `Evaluation of ${summary.source} (batch ${summary.batch_id}): ${summary.total} labelled ${summary.total === 1 ? "verdict" : "verdicts"} in ${summary.files} ${summary.files === 1 ? "file" : "files"}`,
    `right ${fraction(summary)} (${percent(summary.accuracy)}) · false "fulfilled" ${summary.false_fulfilled} · mismatches ${summary.mismatches.length}`,
    "",
    "by condition:",
  ];
  const rows = Object.entries(summary.by_condition).map(([id, tally]) => [
    id,
    fraction(tally),
    percent(tally.accuracy),
    tally.false_fulfilled ? `false "fulfilled" ${tally.false_fulfilled}` : "",
  ]);
  lines.push(...table(rows).map((row) => `  ${row}`));
  if (summary.mismatches.length) {
    lines.push("", "mismatches:");
    for (const mismatch of summary.mismatches) {
      lines.push(
        `  ${mismatch.file}  ${mismatch.condition}: expected ${mismatch.expected}, got ${mismatch.got}${mismatch.run_id ? `  (${mismatch.run_id})` : ""}`,
        `    ${oneLine(mismatch.reason)}`,
      );
    }
  }
  lines.push(
    "",
    summary.passed ? `PASSED: ${thresholdText(summary)}` : `FAILED: ${summary.failed_thresholds.join("; ")}`,
  );
  return lines;
}

function thresholdText(summary: EvalSummary): string {
  const parts = [`false "fulfilled" ${summary.false_fulfilled} ≤ ${summary.thresholds.max_false_fulfilled}`];
  if (summary.thresholds.min_accuracy !== undefined)
    parts.unshift(`accuracy ${percent(summary.accuracy)} ≥ ${summary.thresholds.min_accuracy}`);
  return parts.join(", ");
}

/** What changed since the previous summary: regressions first, then fixes, then accuracy by condition. */
export function formatComparison(comparison: Comparison): string[] {
  const previous = [comparison.previous.source, comparison.previous.created_at].filter(Boolean).join(", ");
  const lines = [
    "",
    `changes since the previous report${previous ? ` (${previous})` : ""}: accuracy ${percent(comparison.accuracy.before)} → ${percent(comparison.accuracy.after)} (${points(comparison.accuracy.delta)})`,
  ];
  const section = (title: string, changes: VerdictChange[]) => {
    lines.push(`${title}: ${changes.length || "none"}`);
    for (const change of changes) lines.push(`  ${changeText(change)}`);
  };
  section("regressions (right → wrong)", comparison.regressions);
  section("fixes (wrong → right)", comparison.fixes);
  if (comparison.still_wrong_changed.length)
    section("still wrong, another verdict", comparison.still_wrong_changed);
  if (comparison.added.length) lines.push(`labelled only now: ${comparison.added.map(pairText).join(", ")}`);
  if (comparison.removed.length)
    lines.push(`labelled only before: ${comparison.removed.map(pairText).join(", ")}`);
  lines.push("accuracy by condition:");
  const rows = comparison.by_condition.map((entry) => [
    entry.condition,
    entry.before ? percent(entry.before.accuracy) : "-",
    "→",
    entry.after ? percent(entry.after.accuracy) : "-",
    entry.delta !== undefined ? points(entry.delta) : entry.before ? "(not labelled now)" : "(new)",
  ]);
  lines.push(...table(rows).map((row) => `  ${row}`));
  return lines;
}

const pairText = (pair: { file: string; condition: string }) => `${pair.file} ${pair.condition}`;

function changeText(change: VerdictChange): string {
  const relabelled = change.expected_before ? `, relabelled from ${change.expected_before}` : "";
  return `${change.file}  ${change.condition}: ${change.before} → ${change.after} (expected ${change.expected}${relabelled})${change.run_id ? `  ${change.run_id}` : ""}`;
}

function table(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>(
    (acc, row) => row.map((cell, index) => Math.max(acc[index] ?? 0, cell.length)),
    [],
  );
  return rows.map((row) =>
    row
      .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

const oneLine = (text: string) => text.replaceAll(/\s+/g, " ").trim();

// ---------------------------------------------------------------------------------------------
// The filed report: one outline, two formats

type Inline = string | { text: string; href?: string; code?: true };
type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; parts: Inline[] }
  | { kind: "table"; head: string[]; rows: Inline[][] }
  | { kind: "list"; items: Inline[][] };

/** The run's link: its record behind the API, when the runs live behind one. */
function runRef(runId: string | undefined, api: string | undefined): Inline {
  if (!runId) return "-";
  return api
    ? { text: runId, href: `${api}/v1/runs/${encodeURIComponent(runId)}`, code: true }
    : { text: runId, code: true };
}

function tallyRows(record: Record<string, Tally>): Inline[][] {
  return Object.entries(record).map(([key, tally]) => [
    { text: key, code: true },
    String(tally.total),
    String(tally.right),
    percent(tally.accuracy),
    String(tally.false_fulfilled),
  ]);
}

function confusionTable(tally: Tally): Block {
  return {
    kind: "table",
    head: ["expected \\ got", ...GOT_COLUMNS],
    rows: VERDICT_LABELS.filter((label) => tally.confusion[label]).map((label) => [
      label,
      ...GOT_COLUMNS.map((got) => String(tally.confusion[label]?.[got] ?? 0)),
    ]),
  };
}

const mean = (values: number[]) =>
  values.length ? (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(1) : "-";

function outline(summary: EvalSummary): Block[] {
  const blocks: Block[] = [
    { kind: "heading", level: 1, text: `Evaluation report: ${summary.source}` },
    {
      kind: "list",
      items: [
        ["Outcome: ", summary.passed ? "PASSED" : `FAILED (${summary.failed_thresholds.join("; ")})`],
        ["Batch: ", { text: summary.batch_id, code: true }, `, evaluated ${summary.created_at}`],
        [
          "Runs: ",
          summary.api ? `behind ${summary.api}` : "the local twin (rewoo runs show <run_id> --local)",
        ],
        [
          "Thresholds: ",
          `--max-false-fulfilled ${summary.thresholds.max_false_fulfilled}`,
          summary.thresholds.min_accuracy !== undefined
            ? `, --min-accuracy ${summary.thresholds.min_accuracy}`
            : "",
        ],
      ],
    },
    { kind: "heading", level: 2, text: "Totals" },
    {
      kind: "table",
      head: ["loan files", "labelled verdicts", "right", "accuracy", "false fulfilled", "mismatches"],
      rows: [
        [
          String(summary.files),
          String(summary.total),
          String(summary.right),
          percent(summary.accuracy),
          String(summary.false_fulfilled),
          String(summary.mismatches.length),
        ],
      ],
    },
    {
      kind: "paragraph",
      parts: [
        'A false "fulfilled" is a condition the agent called fulfilled that the label says is not_fulfilled or insufficient_evidence. A labelled condition the run did not judge counts as wrong: "missing" (the result does not judge it) or "run_failed" (the loan file ended without a result).',
      ],
    },
    { kind: "heading", level: 2, text: "By condition" },
    {
      kind: "table",
      head: ["condition", "labelled", "right", "accuracy", "false fulfilled"],
      rows: tallyRows(summary.by_condition),
    },
  ];
  for (const [id, tally] of Object.entries(summary.by_condition)) {
    blocks.push({ kind: "heading", level: 3, text: `${id}: expected against got` }, confusionTable(tally));
  }
  blocks.push(
    { kind: "heading", level: 2, text: "By document kind" },
    {
      kind: "paragraph",
      parts: ["The kind of document the loan file's classification names in the condition catalog."],
    },
    {
      kind: "table",
      head: ["document kind", "labelled", "right", "accuracy", "false fulfilled"],
      rows: tallyRows(summary.by_document_kind),
    },
    { kind: "heading", level: 2, text: "Confidence of right and wrong verdicts" },
    {
      kind: "paragraph",
      parts: [
        "A verdict's evidence confidence is the lowest OCR confidence (0–100) among its citations of pages read by OCR; a verdict citing only pages with a text layer quotes them verbatim. The review score is the result reviewer's score (1–10) of the verdict's run.",
      ],
    },
    {
      kind: "table",
      head: ["evidence", "right", "wrong", "accuracy"],
      rows: (Object.keys(summary.by_confidence) as ConfidenceBand[]).map((band) => {
        const tally = summary.by_confidence[band] ?? { total: 0, right: 0, accuracy: 0 };
        return [
          CONFIDENCE_BANDS[band],
          String(tally.right),
          String(tally.total - tally.right),
          percent(tally.accuracy),
        ];
      }),
    },
    {
      kind: "table",
      head: ["verdicts", "mean review score", "mean OCR confidence (OCR-cited only)"],
      rows: [true, false].map((right) => {
        const verdicts = summary.verdicts.filter((verdict) => verdict.right === right);
        return [
          right ? `right (${verdicts.length})` : `wrong (${verdicts.length})`,
          mean(
            verdicts.flatMap((verdict) => (verdict.review_score !== undefined ? [verdict.review_score] : [])),
          ),
          mean(
            verdicts.flatMap((verdict) =>
              verdict.ocr_confidence !== undefined ? [verdict.ocr_confidence] : [],
            ),
          ),
        ];
      }),
    },
    { kind: "heading", level: 2, text: `Mismatches (${summary.mismatches.length})` },
  );
  if (summary.mismatches.length === 0)
    blocks.push({ kind: "paragraph", parts: ["None: every labelled verdict is right."] });
  for (const mismatch of summary.mismatches) {
    blocks.push(
      { kind: "heading", level: 3, text: `${mismatch.file}: ${mismatch.condition}` },
      {
        kind: "list",
        items: [
          [
            "Expected: ",
            { text: mismatch.expected, code: true },
            " · got: ",
            { text: mismatch.got, code: true },
          ],
          ["Run: ", runRef(mismatch.run_id, summary.api), ` (${mismatch.run_status})`],
          ["Reason: ", mismatch.reason],
          ...(mismatch.ocr_confidence !== undefined
            ? [[`Lowest OCR confidence cited: ${mismatch.ocr_confidence}`]]
            : []),
        ],
      },
    );
    if (mismatch.citations?.length) {
      blocks.push({
        kind: "table",
        head: ["document", "page", "excerpt", "read by"],
        rows: mismatch.citations.map((citation) => [
          { text: citation.document, code: true },
          citation.page !== undefined ? String(citation.page) : "-",
          citation.excerpt ?? "",
          citation.source === "ocr"
            ? `OCR${citation.confidence !== undefined ? ` (${citation.confidence})` : ""}`
            : "text layer",
        ]),
      });
    } else {
      blocks.push({ kind: "paragraph", parts: ["No citation."] });
    }
  }
  if (summary.compare) blocks.push(...comparisonOutline(summary.compare, summary.api));
  return blocks;
}

function comparisonOutline(comparison: Comparison, api: string | undefined): Block[] {
  const previous = [comparison.previous.source, comparison.previous.created_at].filter(Boolean).join(", ");
  const changeTable = (changes: VerdictChange[]): Block =>
    changes.length
      ? {
          kind: "table",
          head: ["file", "condition", "expected", "before", "now", "run"],
          rows: changes.map((change) => [
            change.file,
            { text: change.condition, code: true },
            change.expected_before ? `${change.expected} (was ${change.expected_before})` : change.expected,
            change.before,
            change.after,
            runRef(change.run_id, api),
          ]),
        }
      : { kind: "paragraph", parts: ["None."] };
  const blocks: Block[] = [
    { kind: "heading", level: 2, text: "Changes since the previous report" },
    {
      kind: "paragraph",
      parts: [
        `${previous ? `Previous: ${previous}. ` : ""}Accuracy ${percent(comparison.accuracy.before)} → ${percent(comparison.accuracy.after)} (${points(comparison.accuracy.delta)}).`,
      ],
    },
    { kind: "heading", level: 3, text: `Regressions: right → wrong (${comparison.regressions.length})` },
    changeTable(comparison.regressions),
    { kind: "heading", level: 3, text: `Fixes: wrong → right (${comparison.fixes.length})` },
    changeTable(comparison.fixes),
  ];
  if (comparison.still_wrong_changed.length) {
    blocks.push(
      {
        kind: "heading",
        level: 3,
        text: `Still wrong, another verdict (${comparison.still_wrong_changed.length})`,
      },
      changeTable(comparison.still_wrong_changed),
    );
  }
  if (comparison.added.length || comparison.removed.length) {
    blocks.push({
      kind: "paragraph",
      parts: [
        `Labelled only now: ${comparison.added.map(pairText).join(", ") || "none"}. Labelled only before: ${comparison.removed.map(pairText).join(", ") || "none"}.`,
      ],
    });
  }
  blocks.push(
    { kind: "heading", level: 3, text: "Accuracy by condition" },
    {
      kind: "table",
      head: ["condition", "before", "now", "change"],
      rows: comparison.by_condition.map((entry) => [
        { text: entry.condition, code: true },
        entry.before ? `${percent(entry.before.accuracy)} (${fraction(entry.before)})` : "-",
        entry.after ? `${percent(entry.after.accuracy)} (${fraction(entry.after)})` : "-",
        entry.delta !== undefined ? points(entry.delta) : entry.before ? "not labelled now" : "new",
      ]),
    },
  );
  return blocks;
}

/**
 * Markdown inside a line (every text of the outline is: a heading's after its #, a cell, a list
 * item's after its label): the inline punctuation backslash-escaped, `&`, `<` and `>` as entities (no
 * tag, no entity from a run's text), line breaks as spaces.
 */
function escapeMarkdown(text: string): string {
  return text
    .replaceAll(/\s+/g, " ")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll(/[\\`*_[\]|~!]/g, (char) => `\\${char}`);
}

function markdownInline(part: Inline): string {
  if (typeof part === "string") return escapeMarkdown(part);
  // A code span cannot escape backticks: the text keeps none, so the span cannot be broken out of.
  const text = part.code ? `\`${oneLine(part.text).replaceAll("`", "'")}\`` : escapeMarkdown(part.text);
  return part.href ? `[${text}](<${part.href.replaceAll(/[<>\s]/g, encodeURIComponent)}>)` : text;
}

export function renderMarkdown(summary: EvalSummary): string {
  const out: string[] = [];
  for (const block of outline(summary)) {
    if (block.kind === "heading") out.push(`${"#".repeat(block.level)} ${escapeMarkdown(block.text)}`, "");
    else if (block.kind === "paragraph") out.push(block.parts.map(markdownInline).join(""), "");
    else if (block.kind === "list")
      out.push(...block.items.map((item) => `- ${item.map(markdownInline).join("")}`), "");
    else {
      out.push(
        `| ${block.head.map(escapeMarkdown).join(" | ")} |`,
        `| ${block.head.map(() => "---").join(" | ")} |`,
        ...block.rows.map((row) => `| ${row.map(markdownInline).join(" | ")} |`),
        "",
      );
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

function htmlInline(part: Inline): string {
  if (typeof part === "string") return escapeHtml(part);
  const text = part.code ? `<code>${escapeHtml(part.text)}</code>` : escapeHtml(part.text);
  return part.href ? `<a href="${escapeHtml(part.href)}">${text}</a>` : text;
}

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #ccd3dd;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#eef2f7}code{font:13px ui-monospace,monospace}h3{margin-top:1.5rem}`;

export function renderHtml(summary: EvalSummary): string {
  const body = outline(summary).map((block) => {
    if (block.kind === "heading") return `<h${block.level}>${escapeHtml(block.text)}</h${block.level}>`;
    if (block.kind === "paragraph") return `<p>${block.parts.map(htmlInline).join("")}</p>`;
    if (block.kind === "list")
      return `<ul>${block.items.map((item) => `<li>${item.map(htmlInline).join("")}</li>`).join("")}</ul>`;
    const head = block.head.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join("");
    const rows = block.rows.map(
      (row) => `<tr>${row.map((cell) => `<td>${htmlInline(cell)}</td>`).join("")}</tr>`,
    );
    return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
  });
  return [
    "<!doctype html>",
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(`Evaluation report: ${summary.source}`)}</title><style>${STYLE}</style></head>`,
    "<body>",
    ...body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
