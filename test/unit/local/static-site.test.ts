// The twin's static site on its own (no gateway): which file a path names, what may never be served, and
// StaticSite on a plain HTTP server answering with content types, HEAD and 405.
import { mkdir, mkdtemp, realpath, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpError, sendJson } from "../../../infra/local/http-common.ts";
import { defaultVendorFiles, StaticSite } from "../../../infra/local/static-site.ts";

let root: string;
let outside: string;
let site: StaticSite;

beforeAll(async () => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "rewoo-site-")));
  root = join(dir, "site");
  outside = join(dir, "secret.txt");
  await mkdir(join(root, "js"), { recursive: true });
  await writeFile(join(root, "index.html"), "<!doctype html><title>home</title>");
  await writeFile(join(root, "js", "app.js"), "export const answer = 42;\n");
  await writeFile(join(root, "js", "index.html"), "nested index");
  await writeFile(join(root, ".env"), "SECRET=1");
  await writeFile(outside, "outside the site");
  await symlink(outside, join(root, "escape.txt"));
  site = new StaticSite({ root, vendorFiles: { "/vendor/lib.js": outside } });
});

async function refusal(path: string): Promise<number> {
  try {
    await site.resolveFile(path);
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
  return 200;
}

describe("resolveFile", () => {
  it("names the folder's files, index.html for a folder", async () => {
    expect(await site.resolveFile("/")).toBe(join(root, "index.html"));
    expect(await site.resolveFile("/js/app.js")).toBe(join(root, "js", "app.js"));
    expect(await site.resolveFile("/js/")).toBe(join(root, "js", "index.html"));
    expect(await site.resolveFile("/js%2Fapp.js")).toBe(join(root, "js", "app.js"));
  });

  it("serves the vendor files wherever they are", async () => {
    expect(await site.resolveFile("/vendor/lib.js")).toBe(outside);
  });

  it("refuses traversal (encoded or not), dotfiles, NULs and symlinks out of the folder; 404 for the rest", async () => {
    expect(await refusal("/../secret.txt")).toBe(403);
    expect(await refusal("/js/%2e%2e/%2e%2e/secret.txt")).toBe(403);
    expect(await refusal("/..%5csecret.txt")).toBe(403);
    expect(await refusal("/.env")).toBe(403);
    expect(await refusal("/index.html%00.js")).toBe(403);
    expect(await refusal("/escape.txt")).toBe(403);
    expect(await refusal("/missing.js")).toBe(404);
    expect(await refusal("/%E0%A4%A")).toBe(400);
  });

  it("has only the vendor files without a folder", async () => {
    const bare = new StaticSite({ vendorFiles: {} });
    await expect(bare.resolveFile("/")).rejects.toMatchObject({ status: 404 });
  });
});

it("knows where dagre's, pdf.js's and aws4fetch's files are in node_modules", () => {
  expect(Object.keys(defaultVendorFiles())).toEqual([
    "/vendor/dagre.js",
    "/vendor/dagre.min.js.map",
    "/vendor/dagre.esm.js",
    "/vendor/dagre.esm.js.map",
    "/vendor/pdf.min.mjs",
    "/vendor/pdf.worker.min.mjs",
    // A package whose `exports` do not list its package.json is found all the same.
    "/vendor/aws4fetch.esm.js",
  ]);
});

describe("StaticSite on an HTTP server", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      site.handle(req, res, req.method ?? "GET", req.url ?? "/").catch((error: unknown) => {
        if (error instanceof HttpError) sendJson(res, error.status, { message: error.message });
        else sendJson(res, 500, { message: String(error) });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it("serves files with their content type, uncached; HEAD without the body", async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await page.text()).toBe("<!doctype html><title>home</title>");
    const script = await fetch(`${base}/js/app.js`, { method: "HEAD" });
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("content-length")).toBe("26");
    expect(await script.text()).toBe("");
  });

  it("answers 405 with Allow for other methods", async () => {
    const response = await fetch(`${base}/`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});
