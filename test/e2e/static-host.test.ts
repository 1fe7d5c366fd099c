// The dashboard served as static files from a host of its own, as CloudFront serves the deployed site:
// a plain node:http server on another port serves exactly what the CDK app deploys (the dashboard's
// files and vendor files, staged by infra/constructs/dashboard-site.ts), a config.json naming the
// twin's REST and WebSocket URLs, and the site's Content-Security-Policy. In chromium the page loads
// the run list from the twin, starts the sample and shows its verdicts: REST through CORS and the
// WebSocket both work cross-origin, and nothing the page does is blocked by its CSP.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { contentSecurityPolicy, stageSiteFiles } from "../../infra/constructs/dashboard-site.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { taxReturnRequest } from "../integration/twin-fixture.ts";
import { launchChromium } from "./browser.ts";

const TAX_RETURN_CONDITIONS = ["TR_SIGNED", "TR_TAX_YEAR", "TR_EIN_MATCH", "TR_NAME_MATCH", "TR_COMPLETE"];
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
};

let twin: Twin;
let site: Server;
let siteRoot: string;
let siteOrigin: string;
let context: BrowserContext;
let userDataDir: string;

/** A CDN in miniature: files from one folder, the site's security headers, nothing else. */
function serveStatic(root: string, headers: Record<string, string>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://static").pathname;
    const file = normalize(join(root, path === "/" ? "index.html" : decodeURIComponent(path)));
    if (!file.startsWith(root) || req.method !== "GET") {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, {
        ...headers,
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      });
      res.end(body);
    } catch {
      res.writeHead(404, headers).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0 });
  const bucket = twin.services.config.documentsBucket;
  for (const document of await generateSampleDocuments()) {
    await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
  }
  siteRoot = stageSiteFiles();
  writeFileSync(
    join(siteRoot, "config.json"),
    JSON.stringify({ api: twin.urls.api, ws: twin.urls.websocket.replace(/\?.*$/, "") }),
  );
  const api = new URL(twin.urls.api).origin;
  const ws = new URL(twin.urls.websocket).origin;
  const documents = new URL(twin.services.config.endpoints.s3 as string).origin;
  site = await serveStatic(siteRoot, {
    "content-security-policy": contentSecurityPolicy({ api, ws, documents }),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
  });
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  userDataDir = mkdtempSync(join(tmpdir(), "rewoo-e2e-static-"));
  context = await launchChromium(userDataDir, {
    viewport: { width: 1440, height: 900 },
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => site?.close(resolve));
  for (const dir of [userDataDir, siteRoot]) if (dir) rmSync(dir, { recursive: true, force: true });
  await twin?.stop();
});

describe("the dashboard on a static host of its own", () => {
  it("lists the twin's runs, starts the sample and shows its verdicts, across origins", async () => {
    expect(new URL(siteOrigin).port).not.toBe(new URL(twin.urls.api).port);
    // A run started before the page opens: the run list is read from the twin over REST.
    const earlier = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
    await twin.waitForRun(earlier.run_id);

    const page = await context.newPage();
    const problems: string[] = [];
    const crossOrigin: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      // CORS refusals and CSP violations are reported on the console, not as failed responses.
      if (message.type() === "error" && /CORS|Content Security Policy|blocked/i.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    page.on("requestfailed", (request) =>
      problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
    );
    page.on("request", (request) => {
      if (request.url().startsWith(twin.urls.api))
        crossOrigin.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });

    await page.goto(`${siteOrigin}/?token=${encodeURIComponent(twin.operatorToken)}`);
    await page.waitForSelector(`[data-testid="run-item-${earlier.run_id}"]`, { timeout: 20_000 });

    await page.click("[data-testid=run-sample]");
    await page.waitForURL(/#\/runs\/.+/);
    const runId = decodeURIComponent(new URL(page.url()).hash.replace(/^#\/runs\//, ""));
    expect(runId).not.toBe(earlier.run_id);
    // Live over the twin's WebSocket, from the static host's origin.
    await page.waitForSelector("[data-testid=connection-status][data-state=live]", { timeout: 20_000 });
    await page.waitForSelector("[data-testid=run-status][data-status=SUCCEEDED]", { timeout: 60_000 });
    const record = (await (await fetch(new URL(`/v1/runs/${runId}`, twin.urls.api))).json()) as RunRecord;
    expect(record.status).toBe("SUCCEEDED");
    for (const id of TAX_RETURN_CONDITIONS) {
      await expect
        .poll(() => page.locator(`[data-testid=verdict-${id}]`).getAttribute("data-status"), { message: id })
        .toBe("fulfilled");
    }

    // The page is the static host's; its API calls went to the twin, a POST among them (preflighted).
    expect(new URL(page.url()).origin).toBe(siteOrigin);
    expect(crossOrigin).toEqual(expect.arrayContaining(["GET /v1/runs", "POST /v1/evaluate-conditions"]));
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
