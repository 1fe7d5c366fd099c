// The dashboard's Batches view in a real browser against the real twin: a small batch started through
// the API (one line waits for an operator's approval, so the batch is still running when the page
// opens it), opened by id from the keyboard, its counts and lines shown, refreshed on its own until
// the batch ends, a line's run opened from the table, and the batch remembered in this browser.
// Leaves test-results/dashboard-batch.png behind.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { launchChromium } from "./browser.ts";

const ARTIFACTS = "test-results";
const sample = (name: string) => JSON.parse(readFileSync(`examples/${name}.json`, "utf8"));
const TAX_RETURN = sample("sample-tax-return");

let twin: Twin;
let context: BrowserContext;
let userDataDir: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0 });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
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

async function openPage(path: string): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    const url = new URL(response.url());
    const optional = url.pathname === "/config.json";
    if (response.status() >= 400 && !(optional && response.status() === 404)) {
      pageErrors.push(`${response.status()} ${response.url()}`);
    }
  });
  await page.goto(new URL(path, twin.urls.dashboard).href);
  return page;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(path, twin.urls.api), {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  const text = await response.text();
  return (
    response.headers.get("content-type")?.includes("ndjson")
      ? text
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : JSON.parse(text)
  ) as T;
}

interface LineResult {
  line: number;
  file?: string;
  documents?: string[];
  status: string;
  run_id?: string;
  verdicts?: { fulfilled: number; not_fulfilled: number; insufficient_evidence: number };
}

describe("the Batches view", () => {
  it("shows a running batch's counts and lines, refreshes until it ends, and links each line's run", async () => {
    const started = await api<{ batch_id: string }>("POST", "/v1/batches", {
      name: "E2E portfolio",
      max_concurrency: 2,
      requests: [
        TAX_RETURN, // 1
        sample("sample-unsigned-return"), // 2
        { ...TAX_RETURN, metadata: undefined }, // 3: invalid, no metadata
        sample("sample-bank-statements"), // 4
        { ...TAX_RETURN, options: { ...TAX_RETURN.options, approval: "required" } }, // 5: waits for an operator
      ],
    });
    const batchId = started.batch_id;
    // Line 5's run waits for approval: the batch keeps running until an operator decides.
    let waiting: LineResult | undefined;
    await expect
      .poll(
        async () => {
          const lines = await api<LineResult[]>("GET", `/v1/batches/${batchId}/results`);
          waiting = lines.find((line) => line.line === 5);
          const run = waiting?.run_id
            ? await api<{ status: string }>("GET", `/v1/runs/${waiting.run_id}`)
            : null;
          return [
            lines.filter((line) => line.line !== 5 && line.status !== "RUNNING" && line.status !== "PENDING")
              .length,
            run?.status,
          ];
        },
        { timeout: 90_000, interval: 250 },
      )
      .toEqual([4, "AWAITING_APPROVAL"]);

    // Opened from the sidebar and the labelled id field, by keyboard.
    const page = await openPage("/");
    await page.getByRole("link", { name: "Batches" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/#\/batches$/);
    const idField = page.getByLabel("Open a batch by id");
    await idField.fill("not-a-batch");
    await idField.press("Enter");
    expect(await page.innerText("#open-batch-error")).toContain('"not-a-batch" is not a batch id');
    expect(await idField.getAttribute("aria-invalid")).toBe("true");
    await idField.fill(batchId);
    await idField.press("Enter");
    await page.waitForURL(new RegExp(`#/batches/${batchId}$`));

    // Running: 4 of 5 processed, in words and on the progress bar; the waiting line still RUNNING.
    const status = page.locator("[data-testid=batch-status]");
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 20_000 }).toBe("RUNNING");
    expect(await status.innerText()).toBe("Running");
    expect(await page.innerText("[data-testid=batch-id]")).toBe(batchId);
    expect(await page.innerText("#batch-title")).toBe("E2E portfolio");
    await expect
      .poll(() => page.innerText("[data-testid=batch-progress-text]"))
      .toBe("4 of 5 lines processed (80 %)");
    const bar = page.locator("[data-testid=batch-progress]");
    expect(await bar.getAttribute("role")).toBe("progressbar");
    expect(await bar.getAttribute("aria-valuenow")).toBe("4");
    expect(await bar.getAttribute("aria-valuemax")).toBe("5");
    expect(await page.innerText("[data-testid=batch-refresh]")).toContain("Refreshing every 2 s");
    const running = await api<{ counts: Record<string, number> }>("GET", `/v1/batches/${batchId}`);
    expect(await shownCounts(page)).toEqual(running.counts);
    expect(await page.getAttribute("[data-testid=batch-line-5]", "data-status")).toBe("RUNNING");
    const invalid = page.locator("[data-testid=batch-line-3]");
    expect(await invalid.getAttribute("data-status")).toBe("INVALID");
    expect(await invalid.innerText()).toMatch(/no run\s+Invalid\s+metadata: /);

    // The operator approves line 5's plan; the page refreshes on its own until the batch ends.
    await api("POST", `/v1/runs/${waiting?.run_id}/approval`, { decision: "approve" });
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 90_000 }).toBe("SUCCEEDED");
    expect(await status.innerText()).toBe("Finished");
    expect(await page.innerText("[data-testid=batch-progress-text]")).toBe("5 of 5 lines processed (100 %)");
    expect(await bar.getAttribute("aria-valuenow")).toBe("5");
    expect(await page.innerText("[data-testid=batch-refresh]")).toContain("The batch has ended");
    const ended = await api<{ counts: Record<string, number> }>("GET", `/v1/batches/${batchId}`);
    await expect.poll(() => shownCounts(page)).toEqual(ended.counts);
    expect(ended.counts.INVALID).toBe(1);
    // Each count in words, not by colour alone.
    expect(await page.textContent("[data-testid=batch-count-INVALID]")).toBe("Invalid 1");
    const results = await api<LineResult[]>("GET", `/v1/batches/${batchId}/results`);
    for (const result of results) {
      const row = page.locator(`[data-testid=batch-line-${result.line}]`);
      await expect
        .poll(() => row.getAttribute("data-status"), { message: `line ${result.line}` })
        .toBe(result.status);
      if (result.run_id)
        expect(await row.locator("[data-testid=batch-line-run]").innerText()).toBe(result.run_id);
      // The loan each line is, by its request's documents, and how its run judged the conditions.
      expect(await row.locator("[data-testid=batch-line-source]").innerText()).toBe(
        result.documents?.join(", "),
      );
      const { verdicts } = result;
      expect(await row.locator("[data-testid=batch-line-verdicts]").innerText()).toBe(
        verdicts
          ? `${verdicts.fulfilled} fulfilled · ${verdicts.not_fulfilled} not fulfilled · ${verdicts.insufficient_evidence} insufficient evidence`
          : "",
      );
    }
    // The unsigned return (line 2): its signature is not fulfilled, the rest are.
    expect(results.find((result) => result.line === 2)?.verdicts).toEqual({
      fulfilled: 4,
      not_fulfilled: 1,
      insufficient_evidence: 0,
    });
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-batch.png"), fullPage: true });

    // Only the lines that did not succeed, from a labelled checkbox.
    await page.getByLabel("Only lines that did not succeed").check();
    const shownLines = await page.$$eval("[data-testid=batch-lines] tbody tr", (rows) =>
      rows.map((row) => Number(row.getAttribute("data-testid")?.replace("batch-line-", ""))),
    );
    expect(shownLines).toEqual(
      results.filter((result) => result.status !== "SUCCEEDED").map((result) => result.line),
    );

    // A line's run opens in the run view; Back returns to the batch.
    const line1 = results.find((result) => result.line === 1) as LineResult;
    await page.getByLabel("Only lines that did not succeed").uncheck();
    await page.locator("[data-testid=batch-line-1] [data-testid=batch-line-run]").click();
    await page.waitForURL(/#\/runs\//);
    await expect.poll(() => page.innerText("[data-testid=run-id]")).toBe(line1.run_id);
    expect(await page.isHidden("#batch-view")).toBe(true);
    await page.goBack();
    await page.waitForURL(new RegExp(`#/batches/${batchId}$`));
    await expect.poll(() => status.getAttribute("data-status")).toBe("SUCCEEDED");

    // Remembered in this browser: a new page lists it with its name and status.
    const again = await openPage("/#/batches");
    const item = again.locator(`[data-testid=batch-item-${batchId}]`);
    await expect.poll(() => item.innerText()).toMatch(/E2E portfolio\s+Finished/);
    expect(await item.innerText()).toContain("5/5 lines");
    await again.close();
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("says so when no batch has the id", async () => {
    const page = await openPage("/#/batches/batch-20260101000000-00000000");
    await page.waitForSelector("[data-testid=batch-error]");
    expect(await page.innerText("[data-testid=batch-error]")).toBe(
      "No batch batch-20260101000000-00000000 on this API.",
    );
    await page.close();
    // The API answered 404 on purpose; nothing else went wrong.
    expect(
      pageErrors.filter((error) => !error.includes("/v1/batches/batch-20260101000000-00000000")),
    ).toEqual([]);
  });
});

/** The counts the page lists, by status: what each legend item says in words and numbers. */
async function shownCounts(page: Page): Promise<Record<string, number>> {
  const items = await page.$$eval("[data-testid^=batch-count-]", (els) =>
    els.map((el) => [el.getAttribute("data-status"), Number(el.getAttribute("data-count"))] as const),
  );
  return Object.fromEntries(items);
}
