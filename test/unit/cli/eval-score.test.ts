// `rewoo eval`'s computation without a twin: the labels a loan file carries, every labelled verdict
// scored against a run's result (none dropped), the totals and matrices, the thresholds, what changed
// since a previous summary, and the reports, escaped for their format.
import { describe, expect, it } from "vitest";
import {
  formatComparison,
  formatEvalSummary,
  points,
  renderHtml,
  renderMarkdown,
} from "../../../cli/eval-report.ts";
import {
  compareSummaries,
  type EvalSummary,
  type LabelledOutcome,
  parsePreviousSummary,
  scoreEvaluation,
  splitLabelledRequest,
  type Thresholds,
} from "../../../cli/eval-score.ts";
import type { RunResult } from "../../../lambdas/contracts/run-result.ts";

const request = { metadata: { loan_program: "Flex Supreme" }, s3_pdf_paths: ["rm/a.pdf"] };

describe("splitLabelledRequest", () => {
  it("returns the labels (ids upper-cased) and the request without them", () => {
    const split = splitLabelledRequest({
      ...request,
      expected: { TR_SIGNED: "fulfilled", " tr_ein_match ": "insufficient_evidence" },
    });
    expect(split).toEqual({
      labels: { TR_SIGNED: "fulfilled", TR_EIN_MATCH: "insufficient_evidence" },
      request,
    });
  });

  it("names the field and what was expected for every problem", () => {
    expect(splitLabelledRequest(request)).toEqual({
      problems: [
        {
          field: "expected",
          message: `required: an object {"<condition id>": "fulfilled" | "not_fulfilled" | "insufficient_evidence"}`,
        },
      ],
    });
    expect(splitLabelledRequest({ ...request, expected: ["TR_SIGNED"] })).toMatchObject({
      problems: [{ field: "expected", message: expect.stringMatching(/^expected an object/) }],
    });
    expect(splitLabelledRequest({ ...request, expected: {} })).toMatchObject({
      problems: [{ field: "expected", message: expect.stringMatching(/^labels no condition/) }],
    });
    expect(
      splitLabelledRequest({
        ...request,
        expected: { TR_SIGNED: "yes", tr_signed: "fulfilled", TR_COMPLETE: null, "": "fulfilled" },
      }),
    ).toEqual({
      problems: [
        {
          field: "expected.TR_SIGNED",
          message: 'expected "fulfilled", "not_fulfilled" or "insufficient_evidence", got "yes"',
        },
        { field: "expected.tr_signed", message: "labels TR_SIGNED twice (condition ids ignore case)" },
        {
          field: "expected.TR_COMPLETE",
          message: 'expected "fulfilled", "not_fulfilled" or "insufficient_evidence", got null',
        },
        { field: "expected.", message: "a condition id may not be blank" },
      ],
    });
    expect(splitLabelledRequest([request])).toEqual({
      problems: [{ field: "(file)", message: "expected a JSON object: an evaluation request" }],
    });
  });
});

const result = (
  fulfilled: RunResult["fulfilled_conditions"],
  unfulfilled: RunResult["unfulfilled_conditions"],
) =>
  ({
    summary: "",
    fulfilled_conditions: fulfilled,
    unfulfilled_conditions: unfulfilled,
    missing_information: [],
    recommendations: [],
  }) satisfies RunResult;

const OUTCOMES: LabelledOutcome[] = [
  {
    file: "loan-1.json",
    line: 1,
    labels: { TR_SIGNED: "not_fulfilled", TR_EIN_MATCH: "fulfilled", TR_COMPLETE: "fulfilled" },
    document_kind: "form_1120",
    status: "SUCCEEDED",
    run_id: "run-b-1",
    review_score: 9,
    result: result(
      [
        {
          id: "TR_SIGNED",
          reason: "signed by <b>Jane</b>",
          citations: [
            { document: "rm/scan.pdf", page: 2, excerpt: "Signature | Jane", source: "ocr", confidence: 64 },
            { document: "rm/scan.pdf", page: 1, excerpt: "Form 1120", source: "ocr", confidence: 95 },
          ],
        },
        { id: "tr_ein_match", citations: [{ document: "rm/a.pdf", page: 1, excerpt: "EIN 12-3456789" }] },
      ],
      // No TR_COMPLETE verdict in the result.
      [{ id: "TR_TAX_YEAR", status: "Not Fulfilled" }],
    ),
  },
  {
    file: "loan-2.json",
    line: 2,
    labels: { BS_NO_NSF: "not_fulfilled", BS_TWO_MONTHS: "insufficient_evidence" },
    document_kind: "bank_statement",
    status: "NEEDS_REVIEW",
    run_id: "run-b-2",
    review_score: 4,
    result: result(
      [],
      [
        { id: "BS_NO_NSF", reason: "an NSF fee on 2025-03-04" },
        { id: "BS_TWO_MONTHS", status: "insufficient_evidence", reason: "February is missing" },
      ],
    ),
  },
  {
    file: "loan-3.json",
    line: 3,
    labels: { BS_NO_NSF: "fulfilled" },
    document_kind: "bank_statement",
    status: "FAILED",
    run_id: "run-b-3",
    error: "States.Timeout: the worker timed out",
  },
  {
    file: "loan-4.json",
    line: 4,
    labels: { TR_SIGNED: "fulfilled" },
    document_kind: "form_1120",
    status: "REJECTED",
    run_id: "run-b-4",
    // A rejected run's answer judges nothing, whatever it lists.
    result: result([{ id: "TR_SIGNED" }], []),
  },
];
const CONTEXT = {
  source: "loans/",
  batch_id: "batch-b",
  created_at: "2026-11-28T12:00:00.000Z",
  thresholds: { max_false_fulfilled: 0 } as Thresholds,
};

describe("scoreEvaluation", () => {
  const summary = scoreEvaluation(OUTCOMES, CONTEXT);

  it("scores every label, none dropped: a missing verdict and a run without a result are mismatches", () => {
    expect(
      summary.verdicts.map((verdict) => [verdict.file, verdict.condition, verdict.got, verdict.right]),
    ).toEqual([
      ["loan-1.json", "TR_SIGNED", "fulfilled", false],
      ["loan-1.json", "TR_EIN_MATCH", "fulfilled", true],
      ["loan-1.json", "TR_COMPLETE", "missing", false],
      ["loan-2.json", "BS_NO_NSF", "not_fulfilled", true],
      ["loan-2.json", "BS_TWO_MONTHS", "insufficient_evidence", true],
      ["loan-3.json", "BS_NO_NSF", "run_failed", false],
      ["loan-4.json", "TR_SIGNED", "run_failed", false],
    ]);
    expect(summary).toMatchObject({ files: 4, total: 7, right: 3, false_fulfilled: 1, passed: false });
    expect(summary.accuracy).toBeCloseTo(3 / 7);
    expect(summary.right).toBe(summary.total - summary.mismatches.length);
  });

  it("lists each mismatch with the run's reason and citations, or why there is no verdict", () => {
    expect(summary.mismatches).toEqual([
      {
        file: "loan-1.json",
        condition: "TR_SIGNED",
        expected: "not_fulfilled",
        got: "fulfilled",
        run_id: "run-b-1",
        run_status: "SUCCEEDED",
        ocr_confidence: 64,
        reason: "signed by <b>Jane</b>",
        citations: OUTCOMES[0]?.result?.fulfilled_conditions[0]?.citations,
      },
      {
        file: "loan-1.json",
        condition: "TR_COMPLETE",
        expected: "fulfilled",
        got: "missing",
        run_id: "run-b-1",
        run_status: "SUCCEEDED",
        reason: "the run's result does not judge TR_COMPLETE",
      },
      {
        file: "loan-3.json",
        condition: "BS_NO_NSF",
        expected: "fulfilled",
        got: "run_failed",
        run_id: "run-b-3",
        run_status: "FAILED",
        reason: "the line ended FAILED: States.Timeout: the worker timed out",
      },
      {
        file: "loan-4.json",
        condition: "TR_SIGNED",
        expected: "fulfilled",
        got: "run_failed",
        run_id: "run-b-4",
        run_status: "REJECTED",
        reason: "the line ended REJECTED without a result",
      },
    ]);
  });

  it("counts by condition and by document kind, with expected → got confusion", () => {
    expect(Object.keys(summary.by_condition)).toEqual([
      "BS_NO_NSF",
      "BS_TWO_MONTHS",
      "TR_COMPLETE",
      "TR_EIN_MATCH",
      "TR_SIGNED",
    ]);
    expect(summary.by_condition.BS_NO_NSF).toEqual({
      total: 2,
      right: 1,
      accuracy: 0.5,
      false_fulfilled: 0,
      confusion: { not_fulfilled: { not_fulfilled: 1 }, fulfilled: { run_failed: 1 } },
    });
    expect(summary.by_condition.TR_SIGNED).toEqual({
      total: 2,
      right: 0,
      accuracy: 0,
      false_fulfilled: 1,
      confusion: { not_fulfilled: { fulfilled: 1 }, fulfilled: { run_failed: 1 } },
    });
    expect(summary.by_document_kind.form_1120).toMatchObject({ total: 4, right: 1, false_fulfilled: 1 });
    expect(summary.by_document_kind.bank_statement).toMatchObject({ total: 3, right: 2, false_fulfilled: 0 });
  });

  it("groups right and wrong verdicts by the lowest OCR confidence they cite", () => {
    expect(summary.by_confidence).toEqual({
      text_layer: { total: 3, right: 3, accuracy: 1 },
      ocr_below_70: { total: 1, right: 0, accuracy: 0 },
      no_verdict: { total: 3, right: 0, accuracy: 0 },
    });
    expect(summary.verdicts[0]).toMatchObject({ ocr_confidence: 64, review_score: 9 });
  });

  it("passes only when every threshold holds, and says which does not", () => {
    expect(summary.failed_thresholds).toEqual([
      '1 false "fulfilled" verdict exceeds --max-false-fulfilled 0',
    ]);
    const lenient = scoreEvaluation(OUTCOMES, { ...CONTEXT, thresholds: { max_false_fulfilled: 1 } });
    expect(lenient).toMatchObject({ passed: true, failed_thresholds: [] });
    const strict = scoreEvaluation(OUTCOMES, {
      ...CONTEXT,
      thresholds: { max_false_fulfilled: 1, min_accuracy: 0.5 },
    });
    expect(strict).toMatchObject({
      passed: false,
      failed_thresholds: ["accuracy 42.9% is below --min-accuracy 0.5"],
    });
    const right = scoreEvaluation([OUTCOMES[1] as LabelledOutcome], {
      ...CONTEXT,
      thresholds: { max_false_fulfilled: 0, min_accuracy: 1 },
    });
    expect(right).toMatchObject({ total: 2, right: 2, accuracy: 1, passed: true, mismatches: [] });
  });
});

describe("compareSummaries", () => {
  const before = scoreEvaluation(OUTCOMES, CONTEXT);
  // The next model: loan-1's signature read right, its EIN now wrong, loan-3 ran, loan-4 relabelled, loan-2 gone, loan-5 new.
  const [one, , three, four] = OUTCOMES as [
    LabelledOutcome,
    LabelledOutcome,
    LabelledOutcome,
    LabelledOutcome,
  ];
  const after = scoreEvaluation(
    [
      {
        ...one,
        result: result(
          [],
          [
            { id: "TR_SIGNED", reason: "no signature" },
            { id: "TR_EIN_MATCH", reason: "EIN differs" },
            { id: "TR_COMPLETE", status: "insufficient_evidence" },
          ],
        ),
      },
      { ...three, status: "SUCCEEDED", result: result([{ id: "BS_NO_NSF" }], []) },
      { ...four, labels: { TR_SIGNED: "not_fulfilled" } },
      { ...three, file: "loan-5.json", line: 5, labels: { BS_NAME_MATCH: "fulfilled" } },
    ],
    { ...CONTEXT, created_at: "2026-11-29T12:00:00.000Z" },
  );
  const previous = parsePreviousSummary(JSON.parse(JSON.stringify(before)));
  if ("problems" in previous) throw new Error(JSON.stringify(previous.problems));
  const comparison = compareSummaries(previous, after);

  it("lists regressions (right → wrong), then fixes, then verdicts still wrong another way", () => {
    expect(comparison.regressions).toEqual([
      {
        file: "loan-1.json",
        condition: "TR_EIN_MATCH",
        expected: "fulfilled",
        before: "fulfilled",
        after: "not_fulfilled",
        run_id: "run-b-1",
      },
    ]);
    expect(
      comparison.fixes.map((change) => [change.file, change.condition, change.before, change.after]),
    ).toEqual([
      ["loan-1.json", "TR_SIGNED", "fulfilled", "not_fulfilled"],
      ["loan-3.json", "BS_NO_NSF", "run_failed", "fulfilled"],
    ]);
    expect(comparison.still_wrong_changed).toEqual([
      {
        file: "loan-1.json",
        condition: "TR_COMPLETE",
        expected: "fulfilled",
        before: "missing",
        after: "insufficient_evidence",
        run_id: "run-b-1",
      },
    ]);
    // loan-4: wrong before and after with the same got, relabelled: not a change of verdict.
    expect(comparison.added).toEqual([{ file: "loan-5.json", condition: "BS_NAME_MATCH" }]);
    expect(comparison.removed).toEqual([
      { file: "loan-2.json", condition: "BS_NO_NSF" },
      { file: "loan-2.json", condition: "BS_TWO_MONTHS" },
    ]);
  });

  it("gives the accuracy change overall and per condition, worst first", () => {
    expect(comparison.accuracy.before).toBeCloseTo(3 / 7);
    expect(comparison.accuracy.after).toBeCloseTo(2 / 6);
    expect(comparison.by_condition.map((entry) => [entry.condition, entry.delta])).toEqual([
      ["TR_EIN_MATCH", -1],
      ["TR_COMPLETE", 0],
      ["BS_NO_NSF", 0.5],
      ["TR_SIGNED", 0.5],
      ["BS_NAME_MATCH", undefined],
      ["BS_TWO_MONTHS", undefined],
    ]);
    expect(comparison.by_condition.find((entry) => entry.condition === "BS_TWO_MONTHS")).toEqual({
      condition: "BS_TWO_MONTHS",
      before: { total: 1, right: 1, accuracy: 1 },
    });
    const lines = formatComparison(comparison);
    expect(lines.findIndex((line) => line.startsWith("regressions"))).toBeLessThan(
      lines.findIndex((line) => line.startsWith("fixes")),
    );
    expect(lines).toContain(
      "  loan-1.json  TR_EIN_MATCH: fulfilled → not_fulfilled (expected fulfilled)  run-b-1",
    );
    expect(lines.some((line) => /^ {2}TR_EIN_MATCH +100\.0% +→ +0\.0% +−100\.0 pts$/.test(line))).toBe(true);
  });

  it("refuses a previous summary that is not one, naming the field", () => {
    expect(parsePreviousSummary({ total: 3, right: 2, accuracy: 0.6, by_condition: {} })).toEqual({
      problems: [
        { field: "verdicts", message: "expected the verdicts list of a `rewoo eval --json` summary" },
      ],
    });
    const bad = JSON.parse(JSON.stringify(before)) as EvalSummary;
    (bad.verdicts[1] as unknown as Record<string, unknown>).right = "yes";
    expect(parsePreviousSummary(bad)).toEqual({
      problems: [{ field: "verdicts.1.right", message: expect.stringMatching(/expected boolean/) }],
    });
  });
});

describe("the reports", () => {
  const hostile: LabelledOutcome = {
    file: "<img src=x onerror=alert(1)>.json",
    line: 1,
    labels: { TR_SIGNED: "not_fulfilled" },
    document_kind: "form_1120",
    status: "SUCCEEDED",
    run_id: "run-<x>",
    result: result(
      [
        {
          id: "TR_SIGNED",
          reason: 'signed</td><script>alert("r")</script>',
          citations: [{ document: "a&b.pdf", page: 2, excerpt: "Jane | *Doe* [x](javascript:alert(1))" }],
        },
      ],
      [],
    ),
  };
  const summary = scoreEvaluation([hostile], { ...CONTEXT, api: "https://api.example" });

  it("HTML escapes everything a run or a file name carries", () => {
    const html = renderHtml(summary);
    expect(html).not.toMatch(/<script|<img|<\/td><script/);
    expect(html).toContain("signed&lt;/td&gt;&lt;script&gt;alert(&quot;r&quot;)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;.json");
    expect(html).toContain("a&amp;b.pdf");
    expect(html).toContain(
      '<a href="https://api.example/v1/runs/run-%3Cx%3E"><code>run-&lt;x&gt;</code></a>',
    );
    expect(html).toContain("<td>not_fulfilled</td><td>1</td>"); // not a total: the row of the confusion
  });

  it("Markdown keeps a run's text from breaking its tables or making links and tags", () => {
    const markdown = renderMarkdown(summary);
    const row = markdown.split("\n").find((line) => line.includes("Jane"));
    expect(row).toBe("| `a&b.pdf` | 2 | Jane \\| \\*Doe\\* \\[x\\](javascript:alert(1)) | text layer |");
    expect(markdown).not.toMatch(/<script|<img/);
    expect(markdown).toContain('- Reason: signed&lt;/td&gt;&lt;script&gt;alert("r")&lt;/script&gt;');
    expect(markdown).toContain("- Run: [`run-<x>`](<https://api.example/v1/runs/run-%3Cx%3E>) (SUCCEEDED)");
  });

  it("the terminal summary gives the totals, each condition, each mismatch and the outcome", () => {
    const lines = formatEvalSummary(scoreEvaluation(OUTCOMES, CONTEXT));
    expect(lines).toContain('right 3/7 (42.9%) · false "fulfilled" 1 · mismatches 4');
    expect(lines).toContain('  TR_SIGNED      0/2  0.0%    false "fulfilled" 1');
    expect(lines).toContain("  loan-3.json  BS_NO_NSF: expected fulfilled, got run_failed  (run-b-3)");
    expect(lines.at(-1)).toBe('FAILED: 1 false "fulfilled" verdict exceeds --max-false-fulfilled 0');
    expect(points(0.0571)).toBe("+5.7 pts");
    expect(points(-1 / 3)).toBe("−33.3 pts");
    expect(points(0)).toBe("±0.0 pts");
  });
});
