// The deployed page's officer sign-in, end to end in chromium without AWS: the site is served from a
// static host of its own (the files the CDK app deploys) with a config.json whose auth block points
// at a local fake of the hosted UI (authorize and token endpoints, node:http); Cognito Identity's
// endpoint is answered in the browser (playwright route). The page's REST calls reach the twin
// through a small recording proxy, so the test reads the Authorization header the twin received.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stageSiteFiles } from "../../infra/constructs/dashboard-site.ts";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { launchChromium } from "./browser.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
};
const FAKE_KEY = "ASIAFAKEOFFICER00001";
const EMAIL = "officer@lender.example";

let twin: Twin;
let site: Server;
let hostedUi: Server;
let proxy: Server;
let siteRoot: string;
let siteOrigin: string;
let context: BrowserContext;
let userDataDir: string;
/** What reached the twin through the proxy: method, path and the SigV4 headers. */
const received: Array<{ method: string; path: string; headers: IncomingHttpHeaders }> = [];

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

function serveStatic(root: string): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://static").pathname;
    const file = normalize(join(root, path === "/" ? "index.html" : decodeURIComponent(path)));
    try {
      if (!file.startsWith(root)) throw new Error("outside");
      const body = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
}

const jwt = (claims: Record<string, unknown>) =>
  `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

/** The hosted UI in miniature: authorize sends the browser straight back with a code; token trades it. */
function fakeHostedUi(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://hosted-ui");
    const cors = {
      "access-control-allow-origin": siteOrigin,
      "access-control-allow-headers": "content-type",
    };
    if (url.pathname === "/oauth2/authorize") {
      const back = new URL(url.searchParams.get("redirect_uri") as string);
      back.searchParams.set("code", "the-code");
      back.searchParams.set("state", url.searchParams.get("state") as string);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === "/oauth2/token" && req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-methods": "POST" }).end();
      return;
    }
    if (url.pathname === "/oauth2/token") {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const form = new URLSearchParams(body);
        const ok = form.get("code") === "the-code" && (form.get("code_verifier") ?? "").length >= 43;
        res.writeHead(ok ? 200 : 400, { ...cors, "content-type": "application/json" }).end(
          JSON.stringify(
            ok
              ? {
                  id_token: jwt({ email: EMAIL, exp: Math.floor(Date.now() / 1000) + 3600 }),
                  refresh_token: "refresh",
                }
              : { error: "invalid_grant" },
          ),
        );
      });
      return;
    }
    res.writeHead(404).end();
  });
}

/** Forwards everything to the twin's REST API and records what it forwarded. */
function recordingProxy(target: URL): Server {
  return createServer((req, res) => {
    received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
}

beforeAll(async () => {
  twin = await startTwin({ persist: false, port: 0 });
  const twinApi = new URL(twin.urls.api);
  proxy = recordingProxy(twinApi);
  const proxyOrigin = await listen(proxy);
  hostedUi = fakeHostedUi();
  const hostedUiOrigin = await listen(hostedUi);
  siteRoot = stageSiteFiles();
  site = serveStatic(siteRoot);
  siteOrigin = await listen(site);
  writeFileSync(
    join(siteRoot, "config.json"),
    JSON.stringify({
      api: `${proxyOrigin}${twinApi.pathname.replace(/\/+$/, "")}`,
      ws: twin.urls.websocket.replace(/\?.*$/, ""),
      auth: {
        region: "eu-west-1",
        userPoolClientId: "dashboard-client",
        domain: hostedUiOrigin,
        identityPoolId: "eu-west-1:00000000-pool",
        userPoolProviderName: "cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Officers",
      },
    }),
  );
  userDataDir = mkdtempSync(join(tmpdir(), "rewoo-e2e-officer-"));
  context = await launchChromium(userDataDir, { viewport: { width: 1440, height: 900 } });
  // Cognito Identity: GetId and GetCredentialsForIdentity, answered in the browser.
  await context.route(/^https:\/\/cognito-identity\.eu-west-1\.amazonaws\.com\//, async (route) => {
    const req = route.request();
    const cors = {
      "access-control-allow-origin": siteOrigin,
      "access-control-allow-headers": "content-type,x-amz-target",
      "access-control-allow-methods": "POST",
    };
    if (req.method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    const target = req.headers()["x-amz-target"];
    const body = JSON.parse(req.postData() ?? "{}");
    const signedIn =
      typeof body.Logins?.["cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Officers"] === "string";
    if (!signedIn)
      return route.fulfill({ status: 400, headers: cors, json: { __type: "NotAuthorizedException" } });
    if (target === "AWSCognitoIdentityService.GetId")
      return route.fulfill({ headers: cors, json: { IdentityId: "eu-west-1:officer-1" } });
    return route.fulfill({
      headers: cors,
      json: {
        IdentityId: body.IdentityId,
        Credentials: {
          AccessKeyId: FAKE_KEY,
          SecretKey: "fake-secret",
          SessionToken: "fake-session-token",
          Expiration: Math.floor(Date.now() / 1000) + 3600,
        },
      },
    });
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  for (const server of [site, hostedUi, proxy]) await new Promise((resolve) => server?.close(resolve));
  for (const dir of [userDataDir, siteRoot]) if (dir) rmSync(dir, { recursive: true, force: true });
  await twin?.stop();
});

describe("an officer on the deployed page", () => {
  it("sees only Sign in, signs in through the hosted UI, and every REST call reaches the API signed", async () => {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));

    await page.goto(`${siteOrigin}/#/find`);
    const signIn = page.locator("[data-testid=sign-in]");
    await signIn.waitFor({ state: "visible", timeout: 20_000 });
    await expect.poll(() => page.locator("#layout").isHidden()).toBe(true);
    // Signed out, the page asked the API nothing.
    expect(received).toEqual([]);

    await signIn.press("Enter");
    await page.locator("[data-testid=officer-email]").waitFor({ state: "visible", timeout: 20_000 });
    expect(await page.locator("[data-testid=officer-email]").textContent()).toBe(EMAIL);
    expect(await page.locator("[data-testid=sign-out]").textContent()).toBe("Sign out");
    // Back where the officer was, and no code in the address bar.
    expect(new URL(page.url()).search).toBe("");
    expect(new URL(page.url()).hash).toBe("#/find");
    await expect.poll(() => page.locator("#layout").isVisible()).toBe(true);

    await expect
      .poll(() => received.filter((r) => r.method === "GET").length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const gets = received.filter((r) => r.method === "GET");
    for (const call of gets) {
      expect(call.headers.authorization, call.path).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${FAKE_KEY}/\\d{8}/eu-west-1/execute-api/aws4_request, SignedHeaders=`,
        ),
      );
      expect(call.headers["x-amz-security-token"]).toBe("fake-session-token");
      expect(call.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    }
    expect(gets.map((r) => new URL(r.path, "http://x").pathname)).toContain("/v1/runs");
    // Tokens stay in the tab's sessionStorage, never localStorage.
    expect(await page.evaluate<number>("localStorage.length")).toBe(0);
    expect(await page.evaluate<string[]>("Object.keys(sessionStorage)")).toContain("rewoo.officer");
    await page.screenshot({ path: "test-results/officer-sign-in.png", fullPage: true });
    expect(problems).toEqual([]);
  });
});
