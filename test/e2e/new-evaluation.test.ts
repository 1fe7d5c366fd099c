// The New evaluation page (#/new) in a real browser against the real twin: the classifications come
// from GET /v1/catalog, the sample signed Form 1120 is uploaded through POST /v1/documents and a
// presigned PUT to the twin's S3 emulator, the form starts the run and the page lands on its verdicts.
// Also: what the form refuses before sending, the API's own 400 shown where it names a field, and the
// drop zone and submit reached by keyboard. Leaves test-results/new-evaluation.png (the filled form)
// and new-evaluation-errors.png (an API refusal placed at its fields) behind.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { launchChromium } from "./browser.ts";

const ARTIFACTS = "test-results";
const TAX = "1120 Corporate Tax Return";
const TAX_RETURN_CONDITIONS = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"];

let twin: Twin;
let context: BrowserContext;
let workDir: string;
let signedReturn: string;
/** Errors the pages reported; answers a test provokes on purpose are left out by that test. */
const pageErrors: string[] = [];

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0 });
  workDir = mkdtempSync(join(tmpdir(), "rewoo-e2e-new-evaluation-"));
  const sample = (await generateSampleDocuments()).find((d) => d.key.endsWith("1120-signed.pdf"));
  if (!sample) throw new Error("the samples have no signed Form 1120");
  // The officer's file on disk: the browser uploads it, nothing is put in the bucket beforehand.
  signedReturn = join(workDir, "1120-signed.pdf");
  writeFileSync(signedReturn, sample.bytes);
  context = await launchChromium(join(workDir, "profile"), {
    viewport: { width: 1440, height: 1000 },
  });
});

afterAll(async () => {
  await context?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  await twin?.stop();
});

/** The dashboard on #/new, without an operator token: the page follows the runs it starts by their own token. */
async function openForm(provoked: (url: URL, status: number) => boolean = () => false): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    const url = new URL(response.url());
    const optional = url.pathname === "/config.json" && response.status() === 404;
    if (response.status() >= 400 && !optional && !provoked(url, response.status())) {
      pageErrors.push(`${response.status()} ${response.url()}`);
    }
  });
  await page.goto(new URL("/#/new", twin.urls.dashboard).href);
  await page.waitForSelector("[data-testid=new-evaluation-form]");
  // The catalog has arrived when the classification can be chosen.
  await expect.poll(() => page.locator("#ne-metadata-classification option").allInnerTexts()).toContain(TAX);
  return page;
}

const fieldError = (page: Page, field: string) => page.locator(`[data-testid="ne-error-${field}"]`);

/** Fills the form for the signed sample return and uploads it; resolves once the upload is done. */
async function fillSignedReturn(page: Page): Promise<void> {
  await page.fill("#ne-metadata-loan_program", "Flex Supreme");
  await page.selectOption("#ne-metadata-classification", { label: TAX });
  await page.fill("#ne-metadata-loan_number", "LN-2025-0042");
  await page.fill("#ne-metadata-as_of_date", "2025-04-15");
  await page.getByLabel("Business name").fill("Acme Widgets Inc");
  await page.getByLabel("EIN").fill("12-3456789");
  await page.getByLabel("Tax year").fill("2024");
  await page.click("text=Evaluate all loan conditions");
  await page.setInputFiles("[data-testid=ne-file-input]", signedReturn);
  const item = page.locator("[data-testid=ne-document]");
  await expect.poll(() => item.getAttribute("data-status"), { timeout: 20_000 }).toBe("uploaded");
}

describe("the New evaluation page", () => {
  it("reaches the drop zone's file button and submit by keyboard, and opens the file chooser (clicks the file input) with Enter", async () => {
    const page = await openForm();
    // From the page's heading (focused when the page opens), Tab through the form.
    expect(await page.evaluate("document.activeElement.id")).toBe("ne-title");
    const reached: string[] = [];
    for (let i = 0; i < 40 && !reached.includes("ne-submit"); i += 1) {
      await page.keyboard.press("Tab");
      reached.push(
        String(await page.evaluate("document.activeElement.dataset.testid ?? document.activeElement.id")),
      );
    }
    expect(reached).toContain("ne-choose-files");
    expect(reached).toContain("ne-submit");
    expect(reached.indexOf("ne-choose-files")).toBeLessThan(reached.indexOf("ne-submit"));

    // Enter on the button must open the file chooser, i.e. click the (hidden) file input. The click is
    // counted and its native dialog prevented: whether headless Chromium hands a chooser opened by a key
    // press to Playwright raced with enabling its interception (seen failing in CI), the page's part is
    // the click. The file then goes in as a chooser would put it.
    await page.evaluate(`
      document.querySelector("[data-testid=ne-file-input]").addEventListener("click", (event) => {
        event.preventDefault();
        window.chooserOpened = (window.chooserOpened ?? 0) + 1;
      });
    `);
    await page.focus("[data-testid=ne-choose-files]");
    await page.keyboard.press("Enter");
    expect(await page.evaluate("window.chooserOpened")).toBe(1);
    expect(await page.getAttribute("[data-testid=ne-file-input]", "multiple")).not.toBeNull();
    expect(await page.getAttribute("[data-testid=ne-file-input]", "accept")).toContain("pdf");
    await page.setInputFiles("[data-testid=ne-file-input]", signedReturn);
    await expect
      .poll(() => page.locator("[data-testid=ne-document]").getAttribute("data-status"), { timeout: 20_000 })
      .toBe("uploaded");
    // Remove by keyboard: the focus goes back to the file button.
    await page.focus("[data-testid=ne-document] >> text=Remove");
    await page.keyboard.press("Enter");
    expect(await page.locator("[data-testid=ne-document]").count()).toBe(0);
    expect(await page.evaluate("document.activeElement.dataset.testid")).toBe("ne-choose-files");
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("asks the classification's fields, uploads the PDF, starts the run and shows its verdicts", async () => {
    const page = await openForm();
    // The sidebar's link says where the page is.
    expect(await page.getAttribute("[data-testid=new-evaluation-link]", "aria-current")).toBe("page");

    await page.selectOption("#ne-metadata-classification", { label: TAX });
    // Exactly the fields the 1120 conditions read (the as-of date is asked once, above).
    const labels = await page.locator("[data-testid=ne-inputs] label").allInnerTexts();
    expect(labels).toEqual(["EIN", "Business name", "Tax year"]);
    const ein = page.getByLabel("EIN");
    const described = (await ein.getAttribute("aria-describedby"))?.split(" ") ?? [];
    const description = await Promise.all(described.map((id) => page.locator(`#${id}`).innerText()));
    expect(description.join(" ")).toContain("What is the business's Employer Identification Number (EIN)?");
    expect(description.join(" ")).toContain('nine digits in the NN-NNNNNNN form, e.g. "12-3456789"');
    expect(await page.innerText("#ne-classification-info")).toContain("IRS Form 1120");

    await fillSignedReturn(page);
    const item = page.locator("[data-testid=ne-document]");
    expect(await item.locator("progress").getAttribute("value")).toBe("100");
    expect(await item.locator("[data-testid=ne-doc-status]").innerText()).toBe("✓ Uploaded 1120-signed.pdf");
    expect(await page.innerText("#ne-instructions-count")).toBe("28 of 4,000 characters");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "new-evaluation.png"), fullPage: true });

    await page.click("[data-testid=ne-submit]");
    await page.waitForURL(/#\/runs\/.+/);
    const runId = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/runs\//, ""));

    // The run was started with what the form holds: metadata at its dotted paths, the uploaded key.
    const response = await fetch(new URL(`/v1/runs/${encodeURIComponent(runId)}`, twin.urls.api));
    const record = (await response.json()) as RunRecord;
    expect(record.request.metadata).toEqual({
      loan_program: "Flex Supreme",
      classification: TAX,
      loan_number: "LN-2025-0042",
      as_of_date: "2025-04-15",
      borrower_info: { business_name: "Acme Widgets Inc" },
      extracted_entities: { ein: "12-3456789", tax_year: 2024 },
    });
    expect(record.request.instructions).toBe("Evaluate all loan conditions");
    expect(record.request.s3_pdf_paths).toEqual([
      expect.stringMatching(/^uploads\/[0-9a-f]{16}\/1120-signed\.pdf$/),
    ]);
    expect(record.request.options).toEqual({ parallel: true });

    // The run view follows it to its verdicts: the signed return fulfils every tax-return condition.
    await page.waitForSelector("[data-testid=run-status][data-status=SUCCEEDED]", { timeout: 60_000 });
    for (const id of TAX_RETURN_CONDITIONS) {
      await expect
        .poll(() => page.locator(`[data-testid=verdict-${id}]`).getAttribute("data-status"), { message: id })
        .toBe("fulfilled");
    }
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("says what is missing before sending anything, next to each field, and focuses the first", async () => {
    const page = await openForm();
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    await page.click("[data-testid=ne-submit]");
    await expect.poll(() => fieldError(page, "metadata.loan_program").innerText()).toContain("required");
    expect(await fieldError(page, "metadata.classification").innerText()).toContain("required");
    expect(await fieldError(page, "s3_pdf_paths").innerText()).toContain("add at least one PDF document");
    expect(await page.getAttribute("#ne-metadata-loan_program", "aria-invalid")).toBe("true");
    expect(await page.getAttribute("#ne-metadata-loan_program", "aria-describedby")).toContain(
      "ne-metadata-loan_program-error",
    );
    expect(await page.evaluate("document.activeElement.id")).toBe("ne-metadata-loan_program");
    // Typing clears that field's error, not the others'.
    await page.fill("#ne-metadata-loan_program", "Flex Supreme");
    expect(await page.getAttribute("#ne-metadata-loan_program", "aria-invalid")).toBeNull();
    expect(await page.getAttribute("#ne-metadata-classification", "aria-invalid")).toBe("true");
    expect(posts).toEqual([]);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("shows the API's 400 next to the fields it names: the instructions, a document, the rest above the form", async () => {
    const page = await openForm(
      (url, status) => url.pathname === "/v1/evaluate-conditions" && status === 400,
    );
    await fillSignedReturn(page);
    // A second file in the list, so `s3_pdf_paths[1]` has a document to be shown at.
    const second = join(workDir, "statement.pdf");
    writeFileSync(second, Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from("second document")]));
    await page.setInputFiles("[data-testid=ne-file-input]", second);
    const items = page.locator("[data-testid=ne-document]");
    await expect.poll(() => items.nth(1).getAttribute("data-status"), { timeout: 20_000 }).toBe("uploaded");

    // The requests leave the page valid; on their way they are tampered with, as a proxy or a stale
    // page might, and the API's own validation refuses them, each problem by its field. First:
    // instructions past the API's limit and a field the API does not know (both refused by its schema).
    const tamper: Array<(body: Record<string, unknown>) => void> = [
      (body) => {
        body.instructions = "Evaluate all loan conditions. ".repeat(140);
        body.priority = "rush";
      },
      // Then: the second document swapped for one outside the allowed locations (the API's policy).
      (body) => {
        (body.s3_pdf_paths as string[])[1] = "s3://someone-elses-bucket/statement.pdf";
      },
    ];
    await page.route("**/v1/evaluate-conditions", async (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}");
      tamper.shift()?.(body);
      await route.continue({ postData: JSON.stringify(body) });
    });

    await page.click("[data-testid=ne-submit]");
    await expect.poll(() => fieldError(page, "instructions").innerText()).toMatch(/4000|4,000/);
    expect(await page.getAttribute("#ne-instructions", "aria-invalid")).toBe("true");
    // A field the form has no control for is listed above the form, which takes the focus (it comes first).
    const formError = page.locator("[data-testid=ne-form-error]");
    expect(await formError.innerText()).toMatch(
      /The API refused the request \(400 invalid_request\)[\s\S]*priority: unknown field/,
    );
    expect(await page.evaluate("document.activeElement.id")).toBe("ne-form-error");
    await page.screenshot({ path: join(ARTIFACTS, "new-evaluation-errors.png"), fullPage: true });

    await page.click("[data-testid=ne-submit]");
    // s3_pdf_paths[1]: the second document of the request, which is the second in the list.
    await expect
      .poll(() => items.nth(1).locator(".field-error").innerText())
      .toContain("outside the allowed document locations");
    expect(await items.nth(1).getAttribute("aria-invalid")).toBe("true");
    expect(await items.nth(0).getAttribute("aria-invalid")).toBeNull();
    expect(await page.evaluate("document.activeElement.dataset.testid")).toBe("ne-document");
    // The earlier refusal's errors are gone.
    expect(await page.getAttribute("#ne-instructions", "aria-invalid")).toBeNull();
    expect(await formError.isHidden()).toBe(true);
    // Nothing was started: the page stays on the form.
    expect(new URL(page.url()).hash).toBe("#/new");
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
