// The dashboard's Evaluations page in a real browser against the real twin: `rewoo eval --api` scores
// the example loan files (one label deliberately wrong) through the twin, the summary it prints is
// opened from a file on the page, which shows its totals, the table by condition and the mismatch
// linked to its run; the run opens from there, and the evaluation is still listed after a reload.
// A file that is not a summary is refused, naming what is wrong. Leaves test-results/dashboard-evaluation.png.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEval } from "../../cli/eval.ts";
import type { EvalSummary } from "../../cli/eval-score.ts";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { launchChromium } from "./browser.ts";

const ARTIFACTS = "test-results";
let twin: Twin;
let context: BrowserContext;
let userDataDir: string;
const pageErrors: string[] = [];
const work = mkdtempSync(join(tmpdir(), "rewoo-e2e-eval-"));

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0 });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  userDataDir = mkdtempSync(join(tmpdir(), "rewoo-e2e-chromium-"));
  context = await launchChromium(userDataDir, { viewport: { width: 1440, height: 900 } });
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
    const optional = new URL(response.url()).pathname === "/config.json";
    if (response.status() >= 400 && !(optional && response.status() === 404)) {
      pageErrors.push(`${response.status()} ${response.url()}`);
    }
  });
  await page.goto(new URL(path, twin.urls.dashboard).href);
  return page;
}

describe("the Evaluations page", () => {
  it("opens a rewoo eval summary, shows it with its mismatch linked to the run, and keeps it", async () => {
    // The examples, the unsigned return labelled as signed.
    const folder = join(work, "loans");
    mkdirSync(folder);
    for (const file of readdirSync("examples/eval")) {
      const request = JSON.parse(readFileSync(join("examples/eval", file), "utf8"));
      if (file.startsWith("loan-2")) request.expected.TR_SIGNED = "fulfilled";
      writeFileSync(join(folder, file), JSON.stringify(request));
    }
    let printed = "";
    const code = await runEval(folder, {
      api: twin.urls.api,
      json: true,
      maxFalseFulfilled: 0,
      stdout: (text) => {
        printed += text;
      },
    });
    expect(code).toBe(0);
    const summary = JSON.parse(printed) as EvalSummary;
    expect(summary.mismatches.map((mismatch) => `${mismatch.file} ${mismatch.condition}`)).toEqual([
      "loan-2-unsigned-return.json TR_SIGNED",
    ]);
    const summaryFile = join(work, "summary.json");
    writeFileSync(summaryFile, printed);
    const notSummary = join(work, "batch.json");
    writeFileSync(notSummary, JSON.stringify({ batch_id: "batch-x", results: [] }));

    const page = await openPage("/");
    await page.getByRole("link", { name: "Evaluations" }).click();
    await page.waitForURL(/#\/evaluations$/);
    expect(await page.innerText("[data-testid=evaluation-list]")).toContain("No evaluation opened");

    // A file that is not a summary: refused at the field, nothing stored.
    const input = page.getByLabel("Open a summary");
    await input.setInputFiles(notSummary);
    await expect
      .poll(() => page.innerText("#evaluation-file-error"))
      .toMatch(/^batch\.json is not a rewoo eval summary: total: /);
    expect(await input.getAttribute("aria-invalid")).toBe("true");

    await input.setInputFiles(summaryFile);
    await page.waitForURL(new RegExp(`#/evaluations/${summary.batch_id}$`));
    const detail = page.locator("[data-testid=evaluation-detail]");
    expect(await detail.locator("#evaluation-title").innerText()).toBe(`Evaluation of ${folder}`);
    expect(await detail.locator("[data-testid=evaluation-outcome]").innerText()).toBe("Passed");
    const totals = await detail.locator("[data-testid=evaluation-totals]").innerText();
    expect(totals).toContain("90.9%");
    expect(totals).toContain("10 of 11 labelled verdicts right");
    const signed = detail.locator("[data-testid=evaluation-conditions] tr[data-id=TR_SIGNED]");
    expect((await signed.innerText()).split("\t").map((cell) => cell.trim())).toEqual([
      "TR_SIGNED",
      "2",
      "1",
      "50.0%",
      "0",
      "fulfilled → not_fulfilled 1",
    ]);
    const mismatches = detail.locator("[data-testid=evaluation-mismatches] tbody tr");
    expect(await mismatches.count()).toBe(1);
    const mismatch = summary.mismatches[0];
    expect(await mismatches.first().innerText()).toContain(mismatch?.reason as string);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-evaluation.png"), fullPage: true });

    // The mismatch's run, from its link.
    await mismatches
      .first()
      .getByRole("link", { name: mismatch?.run_id as string })
      .click();
    await page.waitForURL(new RegExp(`#/runs/${mismatch?.run_id}$`));
    await expect.poll(() => page.locator("#run-view").isVisible()).toBe(true);

    // Kept in this browser: listed after a reload, and shown again from the list.
    await page.goto(new URL("/#/evaluations", twin.urls.dashboard).href);
    await page.reload();
    const item = page.locator(`[data-testid=evaluation-item-${summary.batch_id}]`);
    expect(await item.innerText()).toContain("90.9% right");
    await item.click();
    await page.waitForURL(new RegExp(`#/evaluations/${summary.batch_id}$`));
    expect(await detail.locator("#evaluation-title").innerText()).toBe(`Evaluation of ${folder}`);
    expect(pageErrors).toEqual([]);
  });
});
