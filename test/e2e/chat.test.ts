// The banking assistant in the dashboard, in a real browser against the real twin: the Chat page
// (#/chat) signed in with ?customer_token=, the conversation held with the keyboard through POST
// /v1/chat, the API's refusal shown with the field it names, and a banking run's Conversation panel.
// Leaves test-results/chat.png and chat-run.png behind as artifacts of what the pages looked like.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { mintToken } from "../../lambdas/auth/tokens.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { CoreBankingStore } from "../../lambdas/store/core-banking.ts";
import { launchChromium } from "./browser.ts";

const ARTIFACTS = "test-results";

let twin: Twin;
let context: BrowserContext;
let userDataDir: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0 });
  userDataDir = mkdtempSync(join(tmpdir(), "rewoo-e2e-chat-"));
  context = await launchChromium(userDataDir, {
    viewport: { width: 1280, height: 900 },
  });
});

afterAll(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  await twin?.stop();
});

const customerToken = (customer: string, key = twin.tokenKeys.customer.current) =>
  mintToken({ customer: { current: key } }, { kind: "customer", customer_id: customer }, 3600);

/** `provoked`: refusals the test asks for, not counted as the page's errors. */
async function openPage(path: string, provoked: (url: URL, status: number) => boolean = () => false) {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("response", (response) => {
    const url = new URL(response.url());
    const optional = url.pathname === "/config.json" && response.status() === 404;
    if (response.status() >= 400 && !optional && !provoked(url, response.status())) {
      pageErrors.push(`${response.status()} ${response.url()}`);
    }
  });
  await page.goto(new URL(path, twin.urls.dashboard).href);
  return page;
}

/** The conversation as the page shows it: who, what, and the line under each reply. */
const shownMessages = (page: Page, scope = "[data-testid=chat-log]") =>
  page.$$eval(`${scope} [data-role]`, (items) =>
    items.map((item) => ({
      role: item.getAttribute("data-role"),
      who: item.querySelector(".chat-who")?.textContent ?? "",
      text: item.querySelector(".chat-text")?.textContent ?? "",
      state: item.getAttribute("data-state"),
      meta: item.querySelector("[data-testid=chat-meta]")?.textContent ?? "",
    })),
  );

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(new URL(path, twin.urls.api));
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

describe("the Chat page", () => {
  it("without a customer token says how to get one and offers no message box", async () => {
    const page = await openPage("/#/chat");
    const note = page.locator("[data-testid=chat-no-token]");
    await note.waitFor();
    expect(await note.innerText()).toMatch(/customer_token=<token>[\s\S]*npx rewoo dev[\s\S]*Chat link/);
    expect(await page.locator("[data-testid=chat-input]").count()).toBe(0);
    // The sidebar link says which page is open, in words for assistive technology.
    expect(await page.getAttribute("[data-testid=chat-link]", "aria-current")).toBe("page");
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("holds the lost-card conversation by keyboard, each reply with its state and scores, then shows its run's conversation", async () => {
    const page = await openPage(`/?customer_token=${encodeURIComponent(customerToken("cust_alice"))}#/chat`);
    expect(await page.innerText("[data-testid=chat-customer]")).toBe("Signed in as cust_alice");

    // The first request is held back until the page has shown that it waits for the answer.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      "**/v1/chat",
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    const box = page.getByLabel("Your message");
    await box.focus();
    await page.keyboard.type("I lost my card");
    await page.keyboard.press("Enter");
    await page.locator("[data-testid=chat-busy]").waitFor({ state: "visible" });
    expect(await page.innerText("[data-testid=chat-send]")).toBe("Sending…");
    expect(await page.getAttribute("[data-testid=chat-log]", "aria-busy")).toBe("true");
    expect(await shownMessages(page)).toEqual([
      { role: "user", who: "You", text: "I lost my card", state: null, meta: "" },
    ]);
    release();

    await expect.poll(async () => (await shownMessages(page)).length, { timeout: 30_000 }).toBe(2);
    const asked = (await shownMessages(page))[1];
    expect(asked).toMatchObject({ role: "assistant", who: "Assistant", state: "awaiting_clarification" });
    expect(asked?.text).toMatch(/which card/i);
    expect(asked?.meta).toMatch(/^Waiting for your answer · plan review \d+\/10 · run …[0-9a-f]+$/);
    expect(await page.locator("[data-testid=chat-busy]").isHidden()).toBe(true);
    expect(await page.getAttribute("[data-testid=chat-log]", "aria-busy")).toBeNull();
    // The focus stays in the message box: the next message is typed straight away.
    expect(await box.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await page.keyboard.type("the debit one");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await shownMessages(page)).length, { timeout: 30_000 }).toBe(4);
    const messages = await shownMessages(page);
    expect(messages.map((m) => [m.role, m.state])).toEqual([
      ["user", null],
      ["assistant", "awaiting_clarification"],
      ["user", null],
      ["assistant", "completed"],
    ]);
    expect(messages[2]?.text).toBe("the debit one");
    expect(messages[3]?.text).toMatch(/I've blocked your debit card ending 4321/);
    expect(messages[3]?.meta).toMatch(/^Done · plan review \d+\/10 · execution review \d+\/10 · run …/);
    const bank = new CoreBankingStore(
      twin.services.clients.ddb,
      twin.services.config.coreBankingTable as string,
      () => new Date(),
    );
    expect((await bank.card("cust_alice", "card_alice_debit")).status).toBe("blocked");
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "chat.png"), fullPage: true });

    // A reload reads the conversation back from the session (this tab remembers its id).
    const sessionId = await page.getAttribute("[data-testid=chat-log]", "data-session");
    expect(sessionId).toMatch(/^sess-/);
    await page.reload();
    await expect.poll(async () => shownMessages(page)).toEqual(messages);

    // The reply links to its run: the run view shows the session's conversation and the run's scores.
    await page.locator("[data-testid=chat-run-link]").last().click();
    await page.waitForURL(/#\/runs\/.+/);
    const runId = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/runs\//, ""));
    const record = await getJson<RunRecord>(`/v1/runs/${runId}`);
    expect(record.profile).toBe("banking_assistant");
    expect(record.session_id).toBe(sessionId);
    // The title follows the run record, which the page fetches after the route changes.
    await expect.poll(() => page.innerText("#run-title")).toBe("Banking assistant · lost stolen card");
    const panel = page.locator("[data-testid=conversation]");
    await panel.waitFor({ state: "visible" });
    await expect
      .poll(async () => (await shownMessages(page, "[data-testid=conversation]")).map((m) => m.text))
      .toEqual(messages.map((m) => m.text));
    expect(
      (await shownMessages(page, "[data-testid=conversation]")).map((m) => [m.role, m.who, m.state]),
    ).toEqual(messages.map((m) => [m.role, m.who, m.state]));
    expect(await panel.locator("[data-testid=plan-review-score]").innerText()).toBe(
      `Plan review: ${record.plan_review?.score}/10 ✓ passed`,
    );
    expect(await panel.locator("[data-testid=execution-review-score]").innerText()).toBe(
      `Execution review: ${record.result_review?.score}/10 ✓ passed`,
    );
    expect(await panel.innerText()).toMatch(
      new RegExp(`Customer cust_alice · session ${sessionId} · request: lost stolen card · outcome: done`),
    );
    // The plan is the run view's own: one node per step of the record's plan.
    const steps = record.plan?.steps.map((step) => step.id).sort() ?? [];
    expect(steps.length).toBeGreaterThan(0);
    await expect
      .poll(() =>
        page.$$eval("[data-testid^=step-][data-level]", (els) =>
          els.map((el) => el.getAttribute("data-step")).sort(),
        ),
      )
      .toEqual(steps);
    await page.screenshot({ path: join(ARTIFACTS, "chat-run.png"), fullPage: true });

    // A loan run has no Conversation panel.
    const loan = await twin.startRun(JSON.parse(readFileSync("examples/sample-tax-return.json", "utf8")));
    await page.evaluate(`window.location.hash = "#/runs/${loan.run_id}"`);
    await expect.poll(() => page.innerText("[data-testid=run-id]")).toBe(loan.run_id);
    await expect.poll(() => page.getAttribute("[data-testid=run-status]", "data-status")).not.toBe("PENDING");
    expect(await panel.isHidden()).toBe(true);

    // Back on the Chat page, "New conversation" starts over, also after a reload.
    await page.click("[data-testid=chat-link]");
    await expect.poll(async () => (await shownMessages(page)).length).toBe(4);
    await page.getByRole("button", { name: "New conversation" }).press("Enter");
    expect(await shownMessages(page)).toEqual([]);
    expect(await page.getAttribute("[data-testid=chat-log]", "data-session")).toBeNull();
    await page.reload();
    await page.locator("[data-testid=chat-log] .chat-empty").waitFor();
    expect(await shownMessages(page)).toEqual([]);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it("shows the API's refusal with the field it names, and keeps the message to send again", async () => {
    const forged = customerToken("cust_alice", "another-secret-0123456789abcdef0123");
    const page = await openPage(
      `/?customer_token=${encodeURIComponent(forged)}#/chat`,
      (url, status) => url.pathname === "/v1/chat" && status === 401,
    );
    const box = page.getByLabel("Your message");
    await box.fill("what's my balance");
    await page.click("[data-testid=chat-send]");
    const error = page.locator("[data-testid=chat-error]");
    await error.waitFor({ state: "visible", timeout: 30_000 });
    expect(await error.innerText()).toMatch(
      /The message was not sent: 401 customer_unauthenticated: unknown key id \(kid\) "[\w-]{16}": neither the current nor the previous customer token key\s+X-Customer-Token: unknown key id/,
    );
    expect(await box.inputValue()).toBe("what's my balance");
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    expect(await box.getAttribute("aria-describedby")).toContain("chat-error");
    expect(await shownMessages(page)).toEqual([]);

    // An empty message is named without asking the API.
    await box.fill("   ");
    await box.press("Enter");
    expect(await error.innerText()).toBe("The message was not sent: write a message first");
    await page.close();
    expect(pageErrors).toEqual([]);
  });
});
