// The verdicts as a loan officer reads them, in a real browser against the twin: the signed sample
// Form 1120 uploaded the way the page would (POST /v1/documents, then the presigned PUT), the sample
// evaluation started through the API, the run's verdicts grouped by compartment (highest priority
// first), a citation opened in the pdf.js viewer on its page with the excerpt marked, the JSON export
// and the printable summary. Leaves test-results/verdicts-viewer.png (the viewer on the cited page)
// and verdicts-summary.png (the summary page) behind.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import type { DocumentUpload, RunDocuments } from "../../lambdas/contracts/api-types.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { launchChromium } from "./browser.ts";

const ARTIFACTS = "test-results";
const SAMPLE = JSON.parse(readFileSync("examples/sample-tax-return.json", "utf8"));
const SIGNED_1120 = "rm-conditions/1120-signed.pdf";

let twin: Twin;
let context: BrowserContext;
let userDataDir: string;
let runId: string;
let record: RunRecord;
/** The document path the run was asked to read (the upload's key). */
let documentPath: string;
const pageErrors: string[] = [];

async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(new URL(path, twin.urls.api), {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${twin.operatorToken}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

/** Uploads the signed 1120 as the dashboard does: ask for a presigned PUT, then PUT the bytes. */
async function uploadSigned1120(): Promise<string> {
  const sample = (await generateSampleDocuments()).find((d) => d.key === SIGNED_1120);
  if (!sample) throw new Error(`no sample ${SIGNED_1120}`);
  const bytes = Buffer.from(sample.bytes);
  const response = await api("/v1/documents", {
    method: "POST",
    body: {
      filename: "1120-signed.pdf",
      content_type: "application/pdf",
      size_bytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const upload = (await response.json()) as DocumentUpload;
  const put = await fetch(upload.upload.url, { method: "PUT", headers: upload.upload.headers, body: bytes });
  expect(put.status, await put.clone().text()).toBe(200);
  return upload.s3_pdf_path;
}

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0 });
  documentPath = await uploadSigned1120();
  const started = await api("/v1/evaluate-conditions", {
    method: "POST",
    body: { ...SAMPLE, s3_pdf_paths: [documentPath] },
  });
  expect(started.status).toBe(202);
  runId = ((await started.json()) as { run_id: string }).run_id;
  // (expect.poll works inside tests only.)
  const deadline = Date.now() + 60_000;
  let status = "";
  while (status !== "SUCCEEDED" && Date.now() < deadline) {
    status = ((await (await api(`/v1/runs/${runId}`)).json()) as RunRecord).status;
    if (status !== "SUCCEEDED") await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (status !== "SUCCEEDED") throw new Error(`run ${runId} ended ${status}, not SUCCEEDED`);
  record = (await (await api(`/v1/runs/${runId}`)).json()) as RunRecord;

  userDataDir = mkdtempSync(join(tmpdir(), "rewoo-e2e-chromium-"));
  context = await launchChromium(userDataDir, {
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await twin?.stop();
});

/** `before`: set up the page before it loads; `missing`: paths whose 404 the test provokes. */
async function openPage(
  hash: string,
  { before, missing = [] }: { before?: (page: Page) => Promise<unknown>; missing?: string[] } = {},
): Promise<Page> {
  const page = await context.newPage();
  await before?.(page);
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    const url = new URL(response.url());
    const optional = url.pathname === "/config.json" || missing.includes(url.pathname);
    if (response.status() >= 400 && !(optional && response.status() === 404)) {
      pageErrors.push(`${response.status()} ${response.url()}`);
    }
  });
  await page.goto(
    new URL(`/?token=${encodeURIComponent(twin.operatorToken)}${hash}`, twin.urls.dashboard).href,
  );
  return page;
}

/** Every finding of the result, with the status the lists imply. */
function findings() {
  const result = record.result;
  return [
    ...(result?.unfulfilled_conditions ?? []).map((c) => ({ ...c, status: c.status ?? "not_fulfilled" })),
    ...(result?.fulfilled_conditions ?? []).map((c) => ({ ...c, status: c.status ?? "fulfilled" })),
  ];
}

const RANK: Record<string, number> = { high: 1, medium: 2, low: 3 };
const rank = (priority: unknown) => RANK[String(priority ?? "").toLowerCase()] ?? 9;

describe("verdicts an officer reads", () => {
  it("groups the verdicts by compartment, highest priority first", async () => {
    const page = await openPage(`#/runs/${runId}`);
    await page.waitForSelector("[data-testid=run-status][data-status=SUCCEEDED]", { timeout: 30_000 });
    await page.waitForSelector("[data-testid=verdicts]");

    const all = findings();
    expect(all.length).toBeGreaterThan(0);
    // The groups as drawn: each compartment once, and the most urgent finding of each group no less
    // urgent than the next group's.
    const groups = await page.$$eval("[data-testid=verdicts] tbody", (bodies) =>
      bodies.map((body) => ({
        compartment: body.getAttribute("data-compartment"),
        priorities: (Array.from(body.querySelectorAll("tr[data-priority]")) as typeof bodies).map((row) =>
          row.getAttribute("data-priority"),
        ),
        heading: body.querySelector(".group-name")?.textContent ?? null,
      })),
    );
    const compartments = [...new Set(all.map((c) => c.compartment).filter(Boolean))];
    expect(groups.map((g) => g.compartment).sort()).toEqual([...compartments].sort());
    for (const group of groups) {
      expect(group.heading).toBe(group.compartment);
      const ranks = group.priorities.map(rank);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    }
    const heads = groups.map((g) => rank(g.priorities[0]));
    expect(heads).toEqual([...heads].sort((a, b) => a - b));
    // The same from the record: the compartment of the most urgent finding comes first.
    const mostUrgent = Math.min(...all.map((c) => rank(c.priority)));
    expect(rank(groups[0]?.priorities[0])).toBe(mostUrgent);
    await page.close();
  });

  it("opens a citation's page in the viewer with the excerpt highlighted; Esc gives focus back", async () => {
    const page = await openPage(`#/runs/${runId}`);
    await page.waitForSelector("[data-testid=verdicts]", { timeout: 30_000 });
    // The signed return's EIN citation: its page and excerpt come from the record.
    const cited = findings().find((c) => c.id === "TR_EIN_MATCH")?.citations?.[0];
    expect(cited?.document).toBe(documentPath);
    expect(cited?.page).toBeGreaterThan(0);
    expect(cited?.excerpt).toBeTruthy();

    const button = page.locator("[data-testid=verdict-TR_EIN_MATCH] [data-testid=citation-open]").first();
    await button.waitFor({ timeout: 20_000 });
    expect(await button.innerText()).toBe(`Open page ${cited?.page} of ${documentPath}`);
    await button.focus();
    await page.keyboard.press("Enter");

    const viewer = page.locator("[data-testid=pdf-viewer]");
    await viewer.waitFor({ state: "visible" });
    // Drawn, or an error said in words (which then fails the test with its text).
    await page.waitForSelector(
      "[data-testid=pdf-viewer] .pdf-page[data-rendered=true], [data-testid=pdf-status][data-kind=error]",
      { timeout: 30_000 },
    );
    expect(
      await page.getAttribute("[data-testid=pdf-status]", "data-kind"),
      await page.innerText("[data-testid=pdf-status]"),
    ).toBe("info");
    // The viewer found the run's document through GET /v1/runs/{run_id}/documents.
    const documents = (await (await api(`/v1/runs/${runId}/documents`)).json()) as RunDocuments;
    expect(documents.documents.map((d) => d.path)).toEqual([documentPath]);
    const pages = 3; // the signed sample 1120: the form, Schedules J/K, Schedule L
    expect(await page.innerText("[data-testid=pdf-page-label]")).toBe(`Page ${cited?.page} of ${pages}`);
    expect(await page.innerText("[data-testid=pdf-highlight-note]")).toBe(
      "The cited excerpt is highlighted on the page.",
    );
    // The canvas holds a drawn page (not blank): some pixel is not white.
    const inked = await page.$eval("[data-testid=pdf-canvas]", (canvas) => {
      const c = canvas as unknown as {
        width: number;
        height: number;
        getContext(kind: "2d"): {
          getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
        };
      };
      const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
      for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128) return true;
      return false;
    });
    expect(inked).toBe(true);
    // The marked spans together hold the excerpt (compared without white space and case).
    const marked = await page.$$eval("[data-testid=pdf-highlight]", (spans) =>
      spans.map((s) => s.textContent ?? ""),
    );
    expect(marked.length).toBeGreaterThan(0);
    const fold = (text: string) => text.replace(/[\s-]+/g, "").toLowerCase();
    expect(fold(marked.join(""))).toContain(fold(cited?.excerpt ?? "x"));
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "verdicts-viewer.png") });

    // Next and previous page, in words.
    if ((cited?.page ?? 1) < pages) {
      await page.click("[data-testid=pdf-next]");
      await expect
        .poll(() => page.innerText("[data-testid=pdf-page-label]"))
        .toBe(`Page ${(cited?.page ?? 1) + 1} of ${pages}`);
      await page.click("[data-testid=pdf-prev]");
      await expect
        .poll(() => page.innerText("[data-testid=pdf-page-label]"))
        .toBe(`Page ${cited?.page} of ${pages}`);
    }

    await page.keyboard.press("Escape");
    await viewer.waitFor({ state: "hidden" });
    const focused = await page.evaluate(
      `document.activeElement?.closest("[data-testid=verdict-TR_EIN_MATCH]") !== null && document.activeElement?.dataset.testid`,
    );
    expect(focused).toBe("citation-open");
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("says when the excerpt is not on the page, and that a page read by OCR cannot be highlighted", async () => {
    // The same run, with the EIN finding's citation twice: an excerpt the page does not hold, and the
    // citation marked as read by OCR (as a scanned page's would be).
    const page = await openPage(`#/runs/${runId}`, {
      before: (p) =>
        p.route(`**/v1/runs/${runId}`, async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as RunRecord;
          for (const finding of body.result?.fulfilled_conditions ?? []) {
            const first = finding.citations?.[0];
            if (finding.id !== "TR_EIN_MATCH" || !first) continue;
            finding.citations = [
              { ...first, excerpt: "Nothing like this is printed on the form" },
              { ...first, source: "ocr", confidence: 90 },
            ];
          }
          await route.fulfill({ response, json: body });
        }),
    });
    const buttons = page.locator("[data-testid=verdict-TR_EIN_MATCH] [data-testid=citation-open]");
    await expect.poll(() => buttons.count(), { timeout: 30_000 }).toBe(2);
    const drawn = "[data-testid=pdf-viewer] .pdf-page[data-rendered=true]";

    await buttons.nth(0).click();
    await page.waitForSelector(drawn, { timeout: 30_000 });
    expect(await page.innerText("[data-testid=pdf-highlight-note]")).toBe(
      "Excerpt not found on this page: the page is shown without a mark.",
    );
    expect(await page.locator("[data-testid=pdf-highlight]").count()).toBe(0);
    await page.click("[data-testid=pdf-close]");
    await page.locator("[data-testid=pdf-viewer]").waitFor({ state: "hidden" });

    await buttons.nth(1).click();
    await page.waitForSelector(drawn, { timeout: 30_000 });
    expect(await page.innerText("[data-testid=pdf-highlight-note]")).toBe(
      "This page was read by OCR: it has no text layer, so the excerpt cannot be highlighted.",
    );
    expect(await page.locator("[data-testid=pdf-highlight]").count()).toBe(0);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("shows citations as plain text when the site does not serve pdf.js", async () => {
    const page = await openPage(`#/runs/${runId}`, {
      missing: ["/vendor/pdf.min.mjs"],
      before: (p) => p.route("**/vendor/pdf.min.mjs", (route) => route.fulfill({ status: 404, body: "" })),
    });
    await page.waitForSelector("[data-testid=verdict-TR_EIN_MATCH] .citations li", { timeout: 30_000 });
    // The module's import has failed by the time the page has drawn the run from its record.
    await page.waitForSelector("[data-testid=download-json]");
    expect(await page.locator("[data-testid=citation-open]").count()).toBe(0);
    expect(await page.innerText("[data-testid=verdict-TR_EIN_MATCH] .citations")).toMatch(
      /1120-signed\.pdf p\.\d+: /,
    );
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("downloads the verdicts as JSON with the findings and their citations", async () => {
    const page = await openPage(`#/runs/${runId}`);
    await page.waitForSelector("[data-testid=download-json]", { timeout: 30_000 });
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.click("[data-testid=download-json]"),
    ]);
    expect(download.suggestedFilename()).toBe(`${runId}-verdicts.json`);
    const saved = JSON.parse(readFileSync(await download.path(), "utf8"));
    expect(saved.run_id).toBe(runId);
    expect(saved.status).toBe("SUCCEEDED");
    expect(saved.request.metadata.loan_program).toBe(SAMPLE.metadata.loan_program);
    expect(saved.request.s3_pdf_paths).toEqual([documentPath]);
    expect(saved.result).toEqual(record.result);
    expect(saved.result.fulfilled_conditions.map((c: { id: string }) => c.id)).toContain("TR_SIGNED");
    expect(saved.usage).toEqual(record.usage);
    await page.close();
  });

  it("prints a summary listing every condition with its verdict, priority and citations", async () => {
    const page = await openPage(`#/runs/${runId}`);
    await page.waitForSelector("[data-testid=printable-summary]", { timeout: 30_000 });
    await page.click("[data-testid=printable-summary]");
    await page.waitForURL(/#\/runs\/.+\/summary$/);
    await page.waitForSelector("[data-testid=summary-condition]");
    const listed = await page.$$eval("[data-testid=summary-condition]", (items) =>
      items.map((item) => item.getAttribute("data-condition")),
    );
    expect([...listed].sort()).toEqual(
      findings()
        .map((c) => String(c.id))
        .sort(),
    );
    const ein = await page.innerText("[data-condition=TR_EIN_MATCH]");
    expect(ein).toMatch(/Fulfilled/);
    expect(ein).toContain(`${documentPath}, page `);
    const facts = await page.innerText("[data-testid=summary-facts]");
    expect(facts).toContain(SAMPLE.metadata.loan_program);
    expect(facts).toContain(SAMPLE.metadata.borrower_info.name);
    // The run view is gone; printing shows the summary without the app's bars.
    expect(await page.isVisible("#run-view")).toBe(false);
    await page.emulateMedia({ media: "print" });
    expect(await page.isVisible(".sidebar")).toBe(false);
    expect(await page.isVisible("[data-testid=summary-print]")).toBe(false);
    expect(await page.isVisible("[data-testid=summary-condition]")).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "verdicts-summary.png"), fullPage: true });
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
