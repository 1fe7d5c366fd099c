// Find runs and "Needs you" in a real browser against the real twin: runs started through the API with
// different programs, classifications and loan numbers, found by status, program, classification, loan
// number and run id, paged with a small limit; the run that waits for an answer and the failed runs
// listed under Needs you with their actions, one resumed and one refused (409). Leaves
// test-results/run-finder.png and test-results/needs-you.png behind.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import {
  bankRequestWithoutIncome,
  post,
  taxReturnRequest,
  untilStatus,
} from "../integration/twin-fixture.ts";
import { launchChromium } from "./browser.ts";

const ARTIFACTS = "test-results";
const BANK_STATEMENTS = JSON.parse(readFileSync("examples/sample-bank-statements.json", "utf8"));

let twin: Twin;
let context: BrowserContext;
let userDataDir: string;
const pageErrors: string[] = [];

/** The runs of this file, by what tells them apart. */
const runs = { taxReturn: "", jumbo: "", waiting: "", failed: "", failedToo: "" };

const withLoan = (request: { metadata: Record<string, unknown> }, loanNumber: string, extra = {}) => ({
  ...request,
  metadata: { ...request.metadata, loan_number: loanNumber, ...extra },
});

async function start(body: unknown): Promise<string> {
  const started = await post(twin.urls.api, "/v1/evaluate-conditions", body);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return started.body.run_id as string;
}

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0, retryIntervalOverrides: { Work: 0 } });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  // Two runs that fail: the Conditions AI step's worker dies every time (an infrastructure failure,
  // not retried), the run ends FAILED and may be resumed once the fault is gone.
  twin.services.faults.configure("call_conditions_ai_api=1:crash");
  const signed = () => taxReturnRequest(["rm-conditions/1120-signed.pdf"]);
  runs.failed = await start(withLoan(signed(), "LN-4004"));
  runs.failedToo = await start(withLoan(signed(), "LN-5005"));
  expect((await twin.waitForRun(runs.failed)).status).toBe("FAILED");
  expect((await twin.waitForRun(runs.failedToo)).status).toBe("FAILED");
  twin.services.faults.configure(undefined);

  runs.taxReturn = await start(withLoan(signed(), "LN-1001"));
  runs.jumbo = await start(withLoan(BANK_STATEMENTS, "LN-2002", { loan_program: "Jumbo Prime" }));
  runs.waiting = await start(withLoan(bankRequestWithoutIncome(), "LN-3003"));
  expect((await twin.waitForRun(runs.taxReturn)).status).toBe("SUCCEEDED");
  expect((await twin.waitForRun(runs.jumbo)).status).toBe("SUCCEEDED");
  await untilStatus(twin, runs.waiting, "AWAITING_INPUT");

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

/** Opens the dashboard; `refusals` are answers the test provokes on purpose (a 400, a 409). */
async function openPage(
  hash: string,
  refusals: (url: URL, status: number) => boolean = () => false,
): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    const url = new URL(response.url());
    const status = response.status();
    // config.json is optional; the catalog answers 501 until it is built (the finder falls back).
    const optional =
      (url.pathname === "/config.json" && status === 404) ||
      (url.pathname === "/v1/catalog" && status === 501);
    // What this page asks of the API, and its own files (the dashboard's other pages have their tests).
    const ours = url.pathname.startsWith("/v1/") || url.pathname.startsWith("/run-finder.");
    if (status >= 400 && ours && !optional && !refusals(url, status))
      pageErrors.push(`${status} ${response.url()}`);
  });
  await page.goto(
    new URL(`/?token=${encodeURIComponent(twin.operatorToken)}${hash}`, twin.urls.dashboard).href,
  );
  return page;
}

/** The run ids of the finder's table, in page order, once the search has answered. */
async function shownRuns(page: Page): Promise<string[]> {
  await page.waitForSelector("[data-testid=finder-results]:not([aria-busy])");
  return page.$$eval("[data-testid=finder-row]", (rows) =>
    rows.map((row) => row.getAttribute("data-run-id") ?? ""),
  );
}

const sorted = (ids: string[]) => [...ids].sort();
/** Reading the runs of many days takes the API a moment (one day after the other). */
const POLL = { timeout: 20_000 };

describe("Find runs", () => {
  it("filters by status from a shared link, then by program, classification, loan number and run id through the form", async () => {
    const page = await openPage("#/find?status=AWAITING_INPUT");
    await expect.poll(() => shownRuns(page), POLL).toEqual([runs.waiting]);
    // The link's filters are in the form; the status is in words with an icon, and the row links the run.
    expect(await page.isChecked("[data-testid=finder-status-AWAITING_INPUT]")).toBe(true);
    const row = page.locator(`[data-testid=finder-row][data-run-id="${runs.waiting}"]`);
    expect((await row.locator("[data-status]").innerText()).replace(/\s+/g, " ")).toBe("‖ Waiting for input");
    expect(await row.locator("[data-testid=finder-loan-number]").innerText()).toBe("LN-3003");
    expect(await row.locator(`a[href="#/runs/${runs.waiting}"]`).innerText()).toBe(runs.waiting);

    // By keyboard: Tab goes from the search box to the first status box.
    await page.focus("[data-testid=finder-q]");
    await page.keyboard.press("Tab");
    expect(await page.$eval(":focus", (el) => el.getAttribute("data-testid"))).toBe(
      "finder-status-AWAITING_INPUT",
    );

    // By program: untick the status, type the program, Enter submits the form; the address follows.
    await page.uncheck("[data-testid=finder-status-AWAITING_INPUT]");
    await page.fill("[data-testid=finder-program]", "Jumbo Prime");
    await page.press("[data-testid=finder-program]", "Enter");
    await page.waitForURL(/#\/find\?program=Jumbo\+Prime$/);
    await expect.poll(() => shownRuns(page), POLL).toEqual([runs.jumbo]);

    // By classification (a text input while GET /v1/catalog is not built, a select once it is).
    await page.fill("[data-testid=finder-program]", "");
    const classification = page.locator("[data-testid=finder-classification]");
    if ((await classification.evaluate((el) => el.tagName)) === "SELECT")
      await classification.selectOption("Bank Statements");
    else await classification.fill("Bank Statements");
    await page.click("[data-testid=finder-submit]");
    await expect
      .poll(async () => sorted(await shownRuns(page)), POLL)
      .toEqual(sorted([runs.jumbo, runs.waiting]));

    // By loan number, and by run id.
    await page.goto(new URL(`/?token=${twin.operatorToken}#/find?q=LN-1001`, twin.urls.dashboard).href);
    await expect.poll(() => shownRuns(page), POLL).toEqual([runs.taxReturn]);
    await page.fill("[data-testid=finder-q]", runs.failed);
    await page.press("[data-testid=finder-q]", "Enter");
    await expect.poll(() => shownRuns(page), POLL).toEqual([runs.failed]);

    // Back returns to the previous search.
    await page.goBack();
    await expect.poll(() => shownRuns(page), POLL).toEqual([runs.taxReturn]);
    expect(await page.inputValue("[data-testid=finder-q]")).toBe("LN-1001");

    // Nothing found: said in words, with the filters.
    await page.fill("[data-testid=finder-q]", "LN-none");
    await page.check("[data-testid=finder-status-SUCCEEDED]");
    await page.press("[data-testid=finder-q]", "Enter");
    await expect
      .poll(() => page.innerText("[data-testid=finder-empty]"), POLL)
      .toBe("No runs match “LN-none”, status Succeeded in the recent runs.");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.goto(new URL(`/?token=${twin.operatorToken}#/find`, twin.urls.dashboard).href);
    await expect.poll(async () => (await shownRuns(page)).length, POLL).toBe(5);
    await page.screenshot({ path: join(ARTIFACTS, "run-finder.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("pages with a small limit: Next follows next_cursor, Previous goes back", async () => {
    const page = await openPage("#/find?limit=2");
    const first = await (async () => {
      await expect.poll(async () => (await shownRuns(page)).length, POLL).toBe(2);
      return shownRuns(page);
    })();
    expect(await page.innerText("[data-testid=finder-page]")).toBe("Page 1");
    expect(await page.isDisabled("[data-testid=finder-previous]")).toBe(true);
    await page.click("[data-testid=finder-next]");
    await expect.poll(() => page.innerText("[data-testid=finder-page]"), POLL).toBe("Page 2");
    const second = await shownRuns(page);
    expect(second).toHaveLength(2);
    await page.click("[data-testid=finder-next]");
    await expect.poll(() => page.innerText("[data-testid=finder-page]"), POLL).toBe("Page 3");
    const third = await shownRuns(page);
    // Five runs, newest first, each on exactly one page.
    expect(sorted([...first, ...second, ...third])).toEqual(sorted(Object.values(runs)));
    await page.click("[data-testid=finder-previous]");
    await expect.poll(() => page.innerText("[data-testid=finder-page]"), POLL).toBe("Page 2");
    expect(await shownRuns(page)).toEqual(second);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("shows a refused filter next to the field: dates checked in the page, the API's 400 by the field it names", async () => {
    const page = await openPage(
      "#/find?limit=1000",
      (url, status) => url.pathname === "/v1/runs" && status === 400,
    );
    const limitError = page.locator("[data-testid=finder-error-limit]");
    await limitError.waitFor();
    expect(await limitError.innerText()).toMatch(/limit|1 to 100/i);

    // A search text the API refuses (too long for a run id or a loan number): under the search box.
    await page.goto(
      new URL(`/?token=${twin.operatorToken}#/find?q=${"x".repeat(250)}`, twin.urls.dashboard).href,
    );
    const qError = page.locator("[data-testid=finder-error-q]");
    await qError.waitFor();
    expect(await qError.innerText()).toMatch(/at most \d+ characters/);
    expect(await page.getAttribute("[data-testid=finder-q]", "aria-invalid")).toBe("true");

    await page.goto(new URL(`/?token=${twin.operatorToken}#/find`, twin.urls.dashboard).href);
    await page.fill("[data-testid=finder-from]", "2026-11-20");
    await page.fill("[data-testid=finder-to]", "2026-11-01");
    await page.press("[data-testid=finder-to]", "Enter");
    const fromError = page.locator("[data-testid=finder-error-from]");
    await fromError.waitFor();
    expect(await fromError.innerText()).toBe('must be on or before the "to" date (2026-11-01)');
    expect(await page.getAttribute("[data-testid=finder-from]", "aria-invalid")).toBe("true");
    expect(new URL(page.url()).hash).toBe("#/find");
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});

describe("Needs you", () => {
  it("counts and lists the runs that need a person, each with why and its action", async () => {
    const page = await openPage(
      "#/needs-you",
      (url, status) => url.pathname.endsWith("/resume") && status === 409,
    );
    await expect.poll(() => page.innerText("[data-testid=needs-you-count]"), POLL).toBe("3");
    expect(await page.getAttribute("[data-testid=needs-you-link]", "aria-label")).toBe("Needs you: 3 runs");
    expect(await page.innerText("[data-testid=needs-you-summary]")).toBe("1 to answer · 2 to resume");

    const waiting = page.locator(`[data-testid=needs-you-${runs.waiting}]`);
    expect(await waiting.getAttribute("data-kind")).toBe("input");
    expect(await waiting.locator("[data-testid=needs-you-why]").innerText()).toContain(
      "waits for your answer",
    );
    expect(await waiting.innerText()).toContain("loan LN-3003");
    const failed = page.locator(`[data-testid=needs-you-${runs.failed}]`);
    expect(await failed.locator("[data-testid=needs-you-why]").innerText()).toMatch(
      /^It failed before it finished/,
    );
    await page.screenshot({ path: join(ARTIFACTS, "needs-you.png"), fullPage: true });

    // A run resumed meanwhile (elsewhere) cannot be resumed again: the 409 says why.
    const elsewhere = await fetch(`${twin.urls.api}/v1/runs/${runs.failedToo}/resume`, { method: "POST" });
    expect(elsewhere.status).toBe(202);
    await page.click(`[data-testid=needs-you-resume-${runs.failedToo}]`);
    await expect
      .poll(() => page.innerText("[data-testid=needs-you-refusal]"), POLL)
      .toMatch(new RegExp(`It cannot be resumed: run ${runs.failedToo} is \\w+; only FAILED or INTERRUPTED`));

    // Resume: the run continues from where it stopped, and the page opens it.
    await page.click(`[data-testid=needs-you-resume-${runs.failed}]`);
    await page.waitForURL(new RegExp(`#/runs/${runs.failed}$`));
    expect((await twin.waitForRun(runs.failed)).status).toBe("SUCCEEDED");
    expect((await twin.waitForRun(runs.failedToo)).status).toBe("SUCCEEDED");
    await expect.poll(() => page.innerText("[data-testid=needs-you-count]"), { timeout: 30_000 }).toBe("1");

    // Answer questions: opens the run, whose waiting panel asks.
    await page.click("[data-testid=needs-you-link]");
    await page.click(`[data-testid=needs-you-action-${runs.waiting}]`);
    await page.waitForURL(new RegExp(`#/runs/${runs.waiting}$`));
    await page.waitForSelector("[data-testid=waiting]:not([hidden])");

    // The Recent runs list names each run's loan number.
    await expect
      .poll(() => page.innerText(`[data-testid=run-loan-${runs.waiting}]`), POLL)
      .toBe("Loan LN-3003");
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
