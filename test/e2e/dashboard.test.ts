// The dashboard in a real browser against the real twin: Debian's chromium driven by playwright-core,
// the page served by the twin's gateway, REST and WebSocket through the same handlers as in AWS.
// Leaves test-results/dashboard.png (the sample run), dashboard-grouped.png (a replanned run with
// grouped verdicts), dashboard-ocr.png (citations and fields read by OCR), dashboard-question.png,
// dashboard-approval.png and dashboard-rejected.png (runs that wait for a person) behind as
// artifacts of what the page looked like.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import type {
  Evidence,
  ProgressEvent,
  ProgressEventBody,
  RunRecord,
  RunResult,
} from "../../lambdas/core/types.ts";
import { newRunId } from "../../lambdas/runs/start-run.ts";
import { bankRequestWithoutIncome } from "../integration/twin-fixture.ts";
import { plan as firstPlan, replannedRunEvents } from "../unit/cli/stub-api.ts";
import { launchChromium } from "./browser.ts";

const ARTIFACTS = "test-results";
const SCREENSHOT = join(ARTIFACTS, "dashboard.png");
const SAMPLE = JSON.parse(readFileSync("examples/sample-tax-return.json", "utf8"));
const TAX_RETURN_CONDITIONS = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"];

let twin: Twin;
let context: BrowserContext;
let userDataDir: string;
/** Errors the pages reported; a few expected 404s (optional config.json, optional run list) are filtered. */
const pageErrors: string[] = [];

beforeAll(async () => {
  // Tool latency keeps every step visibly "running" for a moment, so the test can see live updates
  // rather than only the final state.
  twin = await startTwin({ persist: false, port: 0, env: { REWOO_TOOL_LATENCY_MS: "*=400" } });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  // A fresh profile per run: no cache or service worker from an earlier run can answer for the twin.
  userDataDir = mkdtempSync(join(tmpdir(), "rewoo-e2e-chromium-"));
  context = await launchChromium(userDataDir, {
    viewport: { width: 1440, height: 900 },
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await twin?.stop();
});

/**
 * Opens the dashboard. `refusals`: responses the test provokes on purpose (e.g. a 400 for an answer
 * that is not an amount), not counted as page errors.
 */
async function openPage(
  path: string,
  beforeLoad?: (page: Page) => void,
  refusals: (url: URL, status: number) => boolean = () => false,
): Promise<Page> {
  const page = await context.newPage();
  beforeLoad?.(page);
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    const url = new URL(response.url());
    const optional = url.pathname === "/config.json" || url.pathname === "/v1/runs";
    const provoked = refusals(url, response.status());
    if (response.status() >= 400 && !(optional && response.status() === 404) && !provoked) {
      pageErrors.push(`${response.status()} ${response.url()}`);
    }
  });
  await page.goto(new URL(path, twin.urls.dashboard).href);
  return page;
}

const withToken = (hash = "") => `/?token=${encodeURIComponent(twin.operatorToken)}${hash}`;

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, twin.urls.api));
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const runIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace(/^#\/runs\//, ""));

/** The seqs shown in the activity log, in page order. */
const shownSeqs = (page: Page) =>
  page.$$eval("[data-testid=event-log] [data-seq]", (items) =>
    items.map((item) => Number(item.getAttribute("data-seq"))),
  );

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

async function expectFinishedRunShown(page: Page, runId: string): Promise<void> {
  // The run itself has ended, and the page shows that run (not the one it showed before) as ended.
  await expect
    .poll(async () => (await getJson<RunRecord>(`/v1/runs/${runId}`)).status, { timeout: 60_000 })
    .toBe("SUCCEEDED");
  await expect.poll(() => page.innerText("[data-testid=run-id]"), { timeout: 10_000 }).toBe(runId);
  await page.waitForSelector("[data-testid=run-status][data-status=SUCCEEDED]", { timeout: 60_000 });
  const record = await getJson<RunRecord>(`/v1/runs/${runId}`);
  const steps = record.plan?.steps ?? [];
  expect(steps.length).toBeGreaterThan(0);
  // Every step of the plan is a node, and every node reached "completed". (Page functions use only
  // Element methods: this project type-checks without the DOM lib.)
  const stepNodes = () =>
    page.$$eval("[data-testid^=step-][data-level]", (els) =>
      els.map((el) => `${el.getAttribute("data-step")}=${el.getAttribute("data-status")}`).sort(),
    );
  await expect.poll(stepNodes).toEqual(steps.map((s) => `${s.id}=completed`).sort());
  // The solver's verdicts: one row per condition with the same status as the run record.
  const conditions = [
    ...(record.result?.fulfilled_conditions ?? []).map((c) => ({
      id: c.id,
      status: c.status ?? "fulfilled",
    })),
    ...(record.result?.unfulfilled_conditions ?? []).map((c) => ({
      id: c.id,
      status: c.status ?? "not_fulfilled",
    })),
  ];
  expect(conditions.length).toBeGreaterThan(0);
  for (const condition of conditions) {
    const row = page.locator(`[data-testid=verdict-${condition.id}]`);
    await expect
      .poll(() => row.getAttribute("data-status"), { message: condition.id })
      .toBe(condition.status);
  }
  // The activity log holds the stored events exactly once each, in order, 1..n without gaps.
  const { events } = await getJson<{ events: ProgressEvent[] }>(`/v1/runs/${runId}/events?after_seq=0`);
  await expect.poll(() => shownSeqs(page)).toEqual(range(events.length));
  expect(events.at(-1)?.stage).toBe("complete");
}

describe("the progress dashboard", () => {
  let runId: string;

  it("starts the sample, shows every step reach completed live, then the verdicts", async () => {
    const page = await openPage(withToken());
    await page.waitForSelector("[data-testid=connection-status]");
    await page.click("[data-testid=run-sample]");
    await page.waitForURL(/#\/runs\/.+/);
    runId = runIdOf(page);

    // Live, over the WebSocket: the plan appears, a step is seen running before the run ends.
    await page.waitForSelector("[data-testid=connection-status][data-state=live]", { timeout: 20_000 });
    await page.waitForSelector("[data-testid^=step-][data-status=running]", { timeout: 20_000 });
    await expectFinishedRunShown(page, runId);

    // The plan is drawn by dagre (served from node_modules by the gateway), levels left to right.
    expect(await page.getAttribute("[data-testid=plan-dag]", "data-layout")).toBe("dagre");
    const columns = await page.$$eval("[data-testid^=step-][data-level]", (els) =>
      els.map((el) => ({
        level: Number(el.getAttribute("data-level")),
        x: el.getBoundingClientRect().x,
      })),
    );
    for (const a of columns) {
      for (const b of columns) if (a.level < b.level) expect(a.x).toBeLessThan(b.x);
    }

    // The signed sample return fulfils every tax-return condition, each with a page citation.
    for (const id of TAX_RETURN_CONDITIONS) {
      const row = page.locator(`[data-testid=verdict-${id}]`);
      expect(await row.getAttribute("data-status"), id).toBe("fulfilled");
      // A button opening the cited page in the PDF viewer (pdf.js, loaded in the background).
      await expect
        .poll(() => row.locator(".citations").innerText())
        .toMatch(/Open page \d+ of rm-conditions\/1120-signed\.pdf: /);
      // The sample is a text PDF: no citation of it is marked as read by OCR.
      expect(await row.locator("[data-testid=ocr-badge]").count(), id).toBe(0);
    }
    expect(await page.innerText("[data-testid=result-summary]")).toContain("5 of 5");
    expect(await page.innerText("[data-testid=token-usage]")).toMatch(/\d/);
    // The estimated cost, stored with the ending: the rule-based planner and solver cost nothing, the
    // workflow's transitions and Lambda time do (a fraction of a cent). Also in the run list.
    await expect
      .poll(() => page.innerText("[data-testid=kpi-cost]"), { timeout: 10_000 })
      .toMatch(/^cost \(estimate\)\s+≈ \$0\.0\d+\s+LLM \$0 · Step Functions \$0\.0\d+ · Lambda \$0\.0\d+$/i);
    expect(await page.getAttribute("[data-testid=kpi-cost]", "title")).toMatch(
      /Estimated.*\n.*\d+ transitions/s,
    );
    await expect
      .poll(() => page.innerText(`[data-testid=run-cost-${runId}]`), { timeout: 10_000 })
      .toMatch(/^≈ \$0\.0\d+$/);
    // Both reviews, approved with 10 by the offline reviewers.
    expect(await page.innerText("[data-testid=kpi-reviews]")).toMatch(/10 · 10\s+plan · result$/);

    // A step's evidence opens on click.
    await page.click("[data-testid=step-E1]");
    expect(await page.innerText("[data-testid=evidence-json]")).toContain("conditions");

    // Conditions AI's step shows what it read in each document: every field of the return found, where.
    await page.click("[data-testid=step-E3]");
    const report = page.locator("[data-testid=document-report]");
    expect(await report.getAttribute("data-document")).toBe("rm-conditions/1120-signed.pdf");
    expect(await report.innerText()).toMatch(/read\s+Form 1120/);
    for (const field of ["corporation_name", "ein", "tax_year", "officer_signature", "schedule_l"]) {
      expect(await report.locator(`[data-testid=field-${field}]`).getAttribute("data-found"), field).toBe(
        "true",
      );
    }
    expect(await report.locator("[data-testid=field-ein]").innerText()).toMatch(/12-3456789[\s\S]*p\.1/);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("reconnects after the server drops the WebSocket, replays without duplicates, and follows the next run", async () => {
    // Every progress event the page receives over any of its WebSocket connections, by phase.
    let phase = "first connection";
    const received: { phase: string; run_id: string; seq: number }[] = [];
    const page = await openPage(withToken(`#/runs/${runId}`), (p) =>
      p.on("websocket", (socket) =>
        socket.on("framereceived", ({ payload }) => {
          const message = JSON.parse(String(payload));
          if (Number.isInteger(message.seq))
            received.push({ phase, run_id: message.run_id, seq: message.seq });
        }),
      ),
    );
    await expectFinishedRunShown(page, runId);
    await page.waitForSelector("[data-testid=connection-status][data-state=live]");
    const seqsIn = (name: string, id: string) =>
      received.filter((r) => r.phase === name && r.run_id === id).map((r) => r.seq);
    const history = seqsIn("first connection", runId);
    expect(history).toEqual(range(history.length));
    // The previous test's page closes its socket asynchronously; wait for its $disconnect.
    await expect.poll(() => twin.gateway.connectionIds().length, { timeout: 5_000 }).toBe(1);
    const before = twin.gateway.connectionIds();

    // The indicator's states over time (a reconnect can be quicker than a selector poll).
    await page.evaluate(`(() => {
      const el = document.querySelector("[data-testid=connection-status]");
      window.connectionStates = [];
      new MutationObserver(() => window.connectionStates.push(el.dataset.state)).observe(el, { attributes: true });
    })()`);
    // What API Gateway does on an idle timeout or a deployment: the server closes the connection.
    phase = "reconnected";
    const dropped = await fetch(
      `${twin.gateway.urls.management}/@connections/${encodeURIComponent(before[0] ?? "")}`,
      {
        method: "DELETE",
      },
    );
    expect(dropped.status).toBeLessThan(300);
    await page.waitForFunction(
      `window.connectionStates.includes("reconnecting") && window.connectionStates.at(-1) === "live"`,
    );
    expect(twin.gateway.connectionIds()).not.toContain(before[0]);
    // Re-subscribed after the last seq: the server has nothing newer, nothing is sent or shown twice.
    await expectFinishedRunShown(page, runId);
    await page.waitForTimeout(500);
    expect(seqsIn("reconnected", runId)).toEqual([]);

    // The same (new) connection follows another run started elsewhere, from its first event.
    const started = await fetch(new URL("/v1/evaluate-conditions", twin.urls.api), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(SAMPLE),
    });
    expect(started.status).toBe(202);
    const next = (await started.json()) as { run_id: string };
    await page.fill("#open-run-id", next.run_id);
    await page.click("#open-run button[type=submit]");
    await page.waitForURL(new RegExp(`#/runs/${next.run_id}$`));
    await expectFinishedRunShown(page, next.run_id);
    const nextSeqs = seqsIn("reconnected", next.run_id);
    expect(nextSeqs).toEqual(range(nextSeqs.length));
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("shows a finished run's full history to a late page, and polls REST without a token", async () => {
    const late = await openPage(withToken(`#/runs/${runId}`));
    await expectFinishedRunShown(late, runId);
    await late.close();

    const anonymous = await openPage(`/#/runs/${runId}`);
    await anonymous.waitForSelector("[data-testid=connection-status][data-state=polling]");
    await expectFinishedRunShown(anonymous, runId);
    await anonymous.close();
    expect(pageErrors).toEqual([]);
  });
});

/**
 * Writes a finished run straight into the twin's store, as the planner, worker and solver would
 * have: the page cannot tell it from a run it watched, and the result is exactly the one given.
 */
async function injectRun(options: {
  result: RunResult;
  events: ProgressEventBody[];
  /** `output` defaults to `{}` for a successful step. */
  evidence: Array<Pick<Evidence, "step_id" | "tool" | "status"> & { output?: unknown }>;
}): Promise<string> {
  const runs = twin.services.runs;
  const runId = newRunId();
  expect(await runs.createRun(runId, SAMPLE)).toBe(true);
  for (const body of options.events.filter((event) => event.stage !== "complete")) {
    await runs.appendEvent(runId, body);
  }
  const at = new Date().toISOString();
  for (const item of options.evidence) {
    await runs.putEvidence(runId, {
      ...(item.status === "ok" ? { output: {} } : { error: "Conditions AI answered 500" }),
      ...item,
      upstream_errors: [],
      started_at: at,
      finished_at: at,
      duration_ms: 5,
    });
  }
  const plans = options.events.filter((event) => event.stage === "plan");
  await runs.updateRun(runId, {
    status: "SUCCEEDED",
    plan: plans.at(-1)?.plan ?? firstPlan,
    result: options.result,
  });
  await runs.appendEvent(runId, { stage: "complete", status: "SUCCEEDED" });
  return runId;
}

const stripStamps = (event: ProgressEvent): ProgressEventBody => {
  const { run_id: _run, seq: _seq, timestamp: _at, ...body } = event;
  return body as ProgressEventBody;
};

describe("results with compartments, applicable conditions and replans", () => {
  it("groups the verdicts by compartment under the interpretation, and shows the replan", async () => {
    const runId = await injectRun({
      events: replannedRunEvents().map(stripStamps),
      // The second plan (E1, E2, E4) reuses E1 and E2; E3 failed before the replan.
      evidence: [
        { step_id: "E1", tool: "call_preconditions_api", status: "ok" },
        { step_id: "E2", tool: "retrieve_s3_document", status: "ok" },
        { step_id: "E4", tool: "call_conditions_ai_api", status: "ok" },
      ],
      result: {
        interpretation: "Judging every condition of the tax return.",
        summary: "2 of 4 conditions fulfilled",
        fulfilled_conditions: [
          { id: "BS_NO_NSF", title: "No NSF fees", compartment: "Credit", priority: "medium" },
          { id: "TR_COMPLETE", title: "Complete return", compartment: "Compliance", priority: 2 },
        ],
        unfulfilled_conditions: [
          { id: "TR_EIN_MATCH", status: "not_fulfilled", compartment: "Compliance", priority: "low" },
          { id: "TR_SIGNED", status: "not_fulfilled", compartment: "Compliance", priority: "high" },
        ],
        missing_information: [],
        recommendations: [],
      },
    });
    const page = await openPage(withToken(`#/runs/${runId}`));
    await page.waitForSelector("[data-testid=run-status][data-status=SUCCEEDED]", { timeout: 30_000 });
    await page.waitForSelector("[data-testid=verdicts] tbody");

    expect(await page.innerText("[data-testid=result-interpretation]")).toContain(
      "Judging every condition of the tax return.",
    );
    // The interpretation comes before the summary and the table.
    const order = await page.$$eval("[data-testid=result] > *", (els) =>
      els.map((el) => el.getAttribute("data-testid") ?? el.getAttribute("class")),
    );
    expect(order.slice(0, 3)).toEqual(["result-interpretation", "result-summary", "table-wrap"]);
    // Row groups in page order, and each row (in page order) with its group's compartment.
    const compartments = await page.$$eval("[data-testid=verdicts] tbody", (els) =>
      els.map((el) => el.getAttribute("data-compartment")),
    );
    expect(compartments).toEqual(["Compliance", "Credit"]);
    const rows = await page.$$eval("[data-testid=verdicts] tbody tr[data-status]", (els) =>
      els.map(
        (el) =>
          `${el.getAttribute("data-compartment")} ${el.getAttribute("data-testid")}=${el.getAttribute("data-status")}`,
      ),
    );
    expect(rows).toEqual([
      "Compliance verdict-TR_SIGNED=not_fulfilled",
      "Compliance verdict-TR_COMPLETE=fulfilled",
      "Compliance verdict-TR_EIN_MATCH=not_fulfilled",
      "Credit verdict-BS_NO_NSF=fulfilled",
    ]);
    expect(await page.innerText("[data-testid=priority-TR_SIGNED]")).toMatch(/^high$/i);
    expect(await page.innerText("[data-testid=priority-TR_COMPLETE]")).toBe("P2");
    expect(await page.innerText("[data-testid=verdict-group-Compliance] .group-row")).toContain(
      "1 of 3 fulfilled",
    );

    // The replan: counted in the header, told in the activity log, the DAG shows the latest plan.
    expect(await page.innerText("[data-testid=run-replans]")).toBe("replanned ×1");
    const { events } = await getJson<{ events: ProgressEvent[] }>(`/v1/runs/${runId}/events?after_seq=0`);
    const replan = events.find((event) => event.stage === "replan");
    expect(replan).toBeDefined();
    expect(await page.innerText(`[data-testid=event-${replan?.seq}]`)).toContain(
      "Replanned (attempt 1): E3 call_conditions_ai_api failed: Conditions AI answered 500",
    );
    const stepNodes = () =>
      page.$$eval("[data-testid^=step-][data-level]", (els) =>
        els.map((el) => `${el.getAttribute("data-step")}=${el.getAttribute("data-status")}`).sort(),
      );
    await expect.poll(stepNodes).toEqual(["E1=completed", "E2=completed", "E4=completed"]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-grouped.png"), fullPage: true });
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("lists the conditions that apply, not judged, grouped the same way with their reasons", async () => {
    const runId = await injectRun({
      events: [{ stage: "plan", plan: firstPlan }],
      evidence: [],
      result: {
        interpretation: "Listing the conditions that apply; nothing is judged.",
        summary: "3 conditions apply to this loan file",
        fulfilled_conditions: [],
        unfulfilled_conditions: [],
        applicable_conditions: [
          {
            id: "BS_NO_NSF",
            title: "No NSF fees",
            compartment: "Credit",
            priority: "medium",
            reason: "bank file",
          },
          {
            id: "TR_TAX_YEAR",
            title: "Tax year",
            compartment: "Compliance",
            priority: "medium",
            reason: "an 1120",
          },
          {
            id: "TR_SIGNED",
            title: "Signed",
            compartment: "Compliance",
            priority: "high",
            reason: "an 1120",
          },
        ],
        missing_information: [],
        recommendations: [],
      },
    });
    const page = await openPage(withToken(`#/runs/${runId}`));
    await page.waitForSelector("[data-testid=applicable-conditions] tbody", { timeout: 30_000 });
    const compartments = await page.$$eval("[data-testid=applicable-conditions] tbody", (els) =>
      els.map((el) => el.getAttribute("data-compartment")),
    );
    expect(compartments).toEqual(["Compliance", "Credit"]);
    const rows = await page.$$eval("[data-testid=applicable-conditions] tbody tr[data-testid]", (els) =>
      els.map((el) => `${el.getAttribute("data-compartment")} ${el.getAttribute("data-testid")}`),
    );
    expect(rows).toEqual([
      "Compliance applicable-TR_SIGNED",
      "Compliance applicable-TR_TAX_YEAR",
      "Credit applicable-BS_NO_NSF",
    ]);
    expect(await page.innerText("[data-testid=applicable-TR_SIGNED] .reason")).toBe("an 1120");
    expect(await page.locator("[data-testid=verdicts]").count()).toBe(0);
    expect(await page.innerText("[data-testid=kpi-verdicts]")).toContain("3 apply · not judged");
    expect(await page.locator("[data-testid=run-replans]").count()).toBe(0);
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});

describe("scanned documents read by OCR", () => {
  it("marks citations and fields from OCR pages with their confidence, and says how the scan was read", async () => {
    const scan = "uploads/5f1c/scanned-1120.pdf";
    // Document text is the borrower's: markup in it must show as text, never become an element.
    const hostile = 'Signature of officer <img src=x onerror="window.injected=1"> Jane Doe';
    const runId = await injectRun({
      events: [{ stage: "plan", plan: firstPlan }],
      evidence: [
        { step_id: "E1", tool: "call_preconditions_api", status: "ok" },
        { step_id: "E2", tool: "retrieve_s3_document", status: "ok" },
        {
          step_id: "E3",
          tool: "call_conditions_ai_api",
          status: "ok",
          output: {
            verdicts: [],
            documents: [
              {
                document: scan,
                status: "read",
                page_count: 3,
                ocr: { engine: "tesseract", pages: [1, 2, 3], seconds: 2.4, confidence: 91 },
                extraction: {
                  kind: "form_1120",
                  fields: [
                    {
                      field: "ein",
                      found: true,
                      value: "12-3456789",
                      page: 1,
                      excerpt: "Employer identification number 12-3456789",
                      source: "label",
                      confidence: 1,
                      ocr_confidence: 88,
                    },
                    { field: "schedule_l", found: false, note: "no 'Schedule L' heading on pages 1-3" },
                  ],
                },
              },
              { document: "rm-conditions/1120-signed.pdf", status: "read", page_count: 4 },
            ],
          },
        },
      ],
      result: {
        summary: "1 of 2 conditions fulfilled",
        fulfilled_conditions: [
          {
            id: "TR_SIGNED",
            status: "fulfilled",
            citations: [
              { document: scan, page: 3, excerpt: hostile, source: "ocr", confidence: 93 },
              { document: "rm-conditions/1120-signed.pdf", page: 2, excerpt: "Sign Here" },
            ] as never,
          },
        ],
        unfulfilled_conditions: [
          {
            id: "TR_COMPLETE",
            status: "insufficient_evidence",
            reason: "schedule_l was read by OCR at 41% confidence on page 3; too unsure to judge",
            citations: [{ document: scan, page: 3, source: "ocr" }] as never,
          },
        ],
        missing_information: [],
        recommendations: [],
      },
    });
    const page = await openPage(withToken(`#/runs/${runId}`));
    await page.waitForSelector("[data-testid=verdict-TR_SIGNED] .citations li [data-testid=citation-open]", {
      timeout: 30_000,
    });

    // The OCR page's citation: a badge with the confidence, and a title that says what it means.
    const signed = page.locator("[data-testid=verdict-TR_SIGNED] .citations li");
    expect(await signed.count()).toBe(2);
    expect(await signed.nth(0).getAttribute("data-source")).toBe("ocr");
    const badge = signed.nth(0).locator("[data-testid=ocr-badge]");
    expect(await badge.innerText()).toBe("OCR 93%");
    expect(await badge.getAttribute("title")).toBe(
      "Page 3 was read by OCR (a scan or photo, no text layer) at 93% confidence",
    );
    expect(await signed.nth(0).innerText()).toBe(`Open page 3 of ${scan} OCR 93%: ${hostile}`);
    // The text page's citation beside it is shown as always, unmarked.
    expect(await signed.nth(1).getAttribute("data-source")).toBeNull();
    expect(await signed.nth(1).innerText()).toBe("Open page 2 of rm-conditions/1120-signed.pdf: Sign Here");
    // Without a confidence it is still marked as an OCR read.
    expect(await page.innerText("[data-testid=verdict-TR_COMPLETE] [data-testid=ocr-badge]")).toBe("OCR");
    expect(await page.locator("img[src=x]").count()).toBe(0);
    expect(await page.evaluate("window.injected")).toBeUndefined();

    // Conditions AI's step: how the scan was read, and the field read from its OCR page.
    await page.click("[data-testid=step-E3]");
    const report = page.locator(`[data-testid=document-report][data-document="${scan}"]`);
    expect(await report.getAttribute("data-ocr-engine")).toBe("tesseract");
    expect(await report.locator("[data-testid=document-ocr]").innerText()).toBe(
      "Read by OCR (tesseract): pages 1–3, 2.4 s, mean confidence 91%",
    );
    const ein = report.locator("[data-testid=field-ein]");
    expect(await ein.getAttribute("data-ocr-confidence")).toBe("88");
    expect(await ein.locator("[data-testid=ocr-badge]").getAttribute("title")).toBe(
      "Page 1 was read by OCR (a scan or photo, no text layer) at 88% confidence",
    );
    expect(await ein.innerText()).toMatch(/12-3456789[\s\S]*p\.1 OCR 88%/);
    expect(await report.locator("[data-testid=field-schedule_l] [data-testid=ocr-badge]").count()).toBe(0);
    // The text PDF read beside it says nothing about OCR.
    const text = page.locator('[data-testid=document-report][data-document="rm-conditions/1120-signed.pdf"]');
    expect(await text.locator("[data-testid=document-ocr]").count()).toBe(0);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-ocr.png"), fullPage: true });
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});

/** Starts a run through the twin's API, as a loan system would; the page is opened on it after. */
async function startRun(request: unknown): Promise<string> {
  const response = await fetch(new URL("/v1/evaluate-conditions", twin.urls.api), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { run_id: string }).run_id;
}

const statusOf = async (runId: string) => (await getJson<RunRecord>(`/v1/runs/${runId}`)).status;

/** The text of the activity log line of the first stored event that matches. */
async function logLineOf(page: Page, runId: string, match: (event: ProgressEvent) => boolean) {
  const { events } = await getJson<{ events: ProgressEvent[] }>(`/v1/runs/${runId}/events?after_seq=0`);
  const event = events.find(match);
  expect(event).toBeDefined();
  return page.innerText(`[data-testid=event-${event?.seq}]`);
}

const stepStatuses = (page: Page) =>
  page.$$eval("[data-testid^=step-][data-level]", (els) =>
    els.map((el) => `${el.getAttribute("data-step")}=${el.getAttribute("data-status")}`).sort(),
  );

const INCOME = "borrower_info.monthly_income";
const APPROVAL_REQUIRED = { ...SAMPLE, options: { ...SAMPLE.options, approval: "required" } };

describe("runs that wait for a person", () => {
  it("asks for the missing monthly income, shows the API's error next to the field, and runs on once answered", async () => {
    const runId = await startRun(bankRequestWithoutIncome());
    const page = await openPage(
      withToken(`#/runs/${runId}`),
      undefined,
      (url, status) => url.pathname === `/v1/runs/${runId}/input` && status === 400,
    );
    const question = page.locator(`[data-testid="question-${INCOME}"]`);
    await question.waitFor({ timeout: 30_000 });

    // The panel says what is asked, why, what an answer looks like, for which condition, until when.
    expect(await page.innerText("#waiting-heading")).toBe("Needs your answer");
    const asked = await question.innerText();
    expect(asked).toContain("What is the borrower's gross monthly income?");
    expect(asked).toContain("cannot verify BS_LARGE_DEPOSITS");
    expect(asked).toContain("BS_LARGE_DEPOSITS");
    expect(asked).toContain("Expected: a positive amount in US dollars");
    const record = await getJson<RunRecord>(`/v1/runs/${runId}`);
    expect(record.status).toBe("AWAITING_INPUT");
    expect(await page.getAttribute("[data-testid=waiting-deadline]", "datetime")).toBe(
      record.clarification?.deadline,
    );
    // Status in words, in the header and in the run list (marked as waiting there too).
    const badge = page.locator("[data-testid=run-status]");
    expect(await badge.getAttribute("data-status")).toBe("AWAITING_INPUT");
    expect(await badge.innerText()).toContain("Waiting for input");
    const listed = page.locator(`[data-testid=run-item-${runId}]`);
    await expect.poll(() => listed.innerText()).toContain("Waiting for input");
    expect(await listed.getAttribute("class")).toContain("run-item-waiting");
    expect(await page.innerText("[data-testid=runs-waiting]")).toMatch(/^\d+ runs? waits? for a person$/);
    expect(await logLineOf(page, runId, (event) => event.stage === "question")).toContain(
      `Asked for ${INCOME} (for BS_LARGE_DEPOSITS)`,
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-question.png"), fullPage: true });

    // "abc" is not an amount: the API's message under the field, which is marked invalid.
    const input = page.getByLabel(`Your answer for ${INCOME}`);
    await input.fill("abc");
    await page.click("[data-testid=submit-answer]");
    const fieldError = page.locator(`[data-testid="answer-error-${INCOME}"]`);
    await fieldError.waitFor();
    expect(await fieldError.innerText()).toContain(
      'expected a positive amount in US dollars, e.g. 8000 or "$8,000.00", got "abc"',
    );
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    expect(await statusOf(runId)).toBe("AWAITING_INPUT");

    // An amount, submitted from the keyboard: the panel goes, the run goes on live and succeeds.
    await input.fill("8000");
    await input.press("Enter");
    await page.waitForSelector("[data-testid=waiting]", { state: "hidden" });
    await expectFinishedRunShown(page, runId);
    expect(await logLineOf(page, runId, (event) => event.stage === "answer")).toContain(
      `Answered: ${INCOME}; the run continues`,
    );
    // With the income known, the large-deposit condition is decided from the statements.
    expect(await page.getAttribute("[data-testid=verdict-BS_LARGE_DEPOSITS]", "data-status")).toMatch(
      /^(fulfilled|not_fulfilled)$/,
    );
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("shows the plan waiting for approval; a reject needs a reason, a refused edit is shown, Approve runs it", async () => {
    const runId = await startRun(APPROVAL_REQUIRED);
    const decisions: unknown[] = [];
    const page = await openPage(
      withToken(`#/runs/${runId}`),
      (p) =>
        p.on("request", (request) => {
          if (request.method() === "POST" && request.url().endsWith(`/v1/runs/${runId}/approval`))
            decisions.push(request.postDataJSON());
        }),
      (url, status) => url.pathname === `/v1/runs/${runId}/approval` && status === 400,
    );
    await page.waitForSelector("[data-testid=approve-plan]", { timeout: 30_000 });
    expect(await page.innerText("#waiting-heading")).toBe("Plan waits for your approval");
    const badge = page.locator("[data-testid=run-status]");
    expect(await badge.getAttribute("data-status")).toBe("AWAITING_APPROVAL");
    expect(await badge.innerText()).toContain("Waiting for approval");
    expect(await page.innerText(`[data-testid=run-item-${runId}]`)).toContain("Waiting for approval");
    // The pending plan is drawn, no step has run.
    const waiting = await getJson<RunRecord>(`/v1/runs/${runId}`);
    const steps = waiting.plan?.steps ?? [];
    expect(steps.length).toBeGreaterThan(0);
    await expect.poll(() => stepStatuses(page)).toEqual(steps.map((step) => `${step.id}=pending`).sort());
    expect(await logLineOf(page, runId, (event) => event.stage === "approval")).toContain(
      "Plan waits for approval until",
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-approval.png"), fullPage: true });

    // Reject without a reason: the page asks for one and sends nothing; the focus is in the field.
    await page.click("[data-testid=reject-plan]");
    expect(await page.evaluate("document.activeElement && document.activeElement.id")).toBe("reject-reason");
    await page.click("[data-testid=confirm-reject]");
    expect(await page.innerText("[data-testid=reject-error]")).toContain("a reason is required to reject");
    expect(await page.getAttribute("[data-testid=reject-reason]", "aria-invalid")).toBe("true");
    expect(decisions).toEqual([]);
    expect(await statusOf(runId)).toBe("AWAITING_APPROVAL");

    // Edit: the box holds the pending plan's steps; a plan calling an unknown tool is refused by the
    // API, its message shown under the box, and the run keeps waiting.
    await page.click("[data-testid=edit-plan]");
    expect(await page.isHidden("[data-testid=reject-form]")).toBe(true);
    const box = page.getByLabel("Plan steps (JSON: id, tool, args, depends_on, description)");
    const prefilled = JSON.parse(await box.inputValue()) as Array<Record<string, unknown>>;
    expect(prefilled).toEqual(
      steps.map(({ id, tool, args, depends_on, description }) => ({
        id,
        tool,
        args,
        depends_on,
        ...(description ? { description } : {}),
      })),
    );
    await box.fill(JSON.stringify([{ id: "E1", tool: "drop_tables", args: {}, depends_on: [] }]));
    await page.click("[data-testid=submit-edit]");
    const editError = page.locator("[data-testid=edit-error]");
    await editError.waitFor();
    expect(await editError.innerText()).toContain("drop_tables");
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    expect(await statusOf(runId)).toBe("AWAITING_APPROVAL");

    // Approve: the panel goes, the plan runs as it was, the run succeeds.
    await page.click("[data-testid=approve-plan]");
    await page.waitForSelector("[data-testid=waiting]", { state: "hidden" });
    await expectFinishedRunShown(page, runId);
    expect(decisions).toEqual([
      { decision: "edit", plan: [{ id: "E1", tool: "drop_tables", args: {}, depends_on: [] }] },
      { decision: "approve" },
    ]);
    expect(
      await logLineOf(page, runId, (event) => event.stage === "approval" && event.status === "approved"),
    ).toContain("Plan approved");
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("rejects a plan with a reason: the run ends Rejected, says why, and no step ran", async () => {
    const runId = await startRun(APPROVAL_REQUIRED);
    const page = await openPage(withToken(`#/runs/${runId}`));
    await page.waitForSelector("[data-testid=reject-plan]", { timeout: 30_000 });
    await page.click("[data-testid=reject-plan]");
    await page.getByLabel("Why do you reject the plan? (required)").fill("Wrong borrower on this file");
    await page.click("[data-testid=confirm-reject]");

    await page.waitForSelector("[data-testid=run-status][data-status=REJECTED]", { timeout: 30_000 });
    expect(await page.innerText("[data-testid=run-status]")).toBe("Rejected");
    await expect
      .poll(() => page.innerText("[data-testid=run-rejection]"))
      .toContain("An operator rejected the plan: Wrong borrower on this file");
    expect(await page.isHidden("[data-testid=waiting]")).toBe(true);
    // The solver never ran, nothing was judged (not "all fulfilled").
    expect(await page.getAttribute("[data-testid=stage-solver]", "data-status")).toBe("skipped");
    await expect.poll(() => page.innerText("[data-testid=kpi-verdicts]")).toContain("nothing judged");
    expect(await page.locator("[data-testid=verdicts]").count()).toBe(0);
    const record = await getJson<RunRecord>(`/v1/runs/${runId}`);
    expect(record.status).toBe("REJECTED");
    expect(record.evidence).toEqual([]);
    await expect
      .poll(() => stepStatuses(page))
      .toEqual((record.plan?.steps ?? []).map((step) => `${step.id}=skipped`).sort());
    await expect.poll(() => page.innerText(`[data-testid=run-item-${runId}]`)).toContain("Rejected");
    expect(
      await logLineOf(page, runId, (event) => event.stage === "approval" && event.status === "rejected"),
    ).toContain("Plan rejected: Wrong borrower on this file");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-rejected.png"), fullPage: true });
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
