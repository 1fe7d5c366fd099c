// The dashboard's static files, as a bucket behind a CDN would serve them in AWS: GET and HEAD only,
// content types by extension, nothing outside the folder (no `..`, no dotfiles, no symlink leading out),
// plus the few library files the dashboard loads from node_modules (the twin is offline, no CDN).
import { createReadStream, existsSync, readFileSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { extname, join, resolve, sep } from "node:path";
import { HttpError } from "./http-common.ts";

const require = createRequire(import.meta.url);

/** What dashboard/vendor.json lists: a URL path under the site, and the package file that answers it. */
export interface VendorFile {
  path: string;
  package: string;
  file: string;
}

/** dashboard/vendor.json: the one list of library files the page loads, read by the twin and the CDK site. */
export function vendorFileList(dashboardDir = resolve(import.meta.dirname, "../../dashboard")): VendorFile[] {
  return (JSON.parse(readFileSync(join(dashboardDir, "vendor.json"), "utf8")) as { files: VendorFile[] })
    .files;
}

/**
 * The library files the dashboard loads (dagre draws the plan), served from node_modules rather than
 * a CDN: the twin is offline. A package that is not installed is left out (the page falls back).
 */
export function defaultVendorFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of vendorFileList()) {
    // Found in the node_modules folders themselves: a package whose `exports` do not list its
    // package.json (aws4fetch) cannot be resolved as `<package>/package.json`.
    const root = (require.resolve.paths(entry.package) ?? [])
      .map((folder) => join(folder, entry.package))
      .find((folder) => existsSync(join(folder, "package.json")));
    if (root === undefined) continue;
    files[`/${entry.path}`] = join(root, entry.file);
  }
  return files;
}

export const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".pdf": "application/pdf",
};

export interface StaticSiteOptions {
  /** Folder of the site; `/` serves its index.html. Without it only the vendor files exist. */
  root?: string;
  /** URL path → file, served whatever the folder holds. */
  vendorFiles?: Record<string, string>;
}

export class StaticSite {
  private readonly vendorFiles: Record<string, string>;

  constructor(private readonly options: StaticSiteOptions = {}) {
    this.vendorFiles = options.vendorFiles ?? defaultVendorFiles();
  }

  /**
   * The file `path` names, or an HttpError: 404 when there is none, 403 for a path that may never name one
   * (traversal, dotfiles, NULs, a symlink out of the folder), 400 for an undecodable path.
   */
  async resolveFile(path: string): Promise<string> {
    const vendor = this.vendorFiles[path];
    if (vendor !== undefined) return vendor;
    const root = this.options.root;
    if (!root) throw new HttpError(404, "Not Found");
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      throw new HttpError(400, "Bad Request");
    }
    const segments = decoded.split(/[/\\]/).filter(Boolean);
    // `..` (also percent-encoded), dotfiles and NULs never name a dashboard file.
    if (decoded.includes("\0") || segments.some((segment) => segment.startsWith("."))) {
      throw new HttpError(403, "Forbidden");
    }
    const rootDir = resolve(root);
    const file = resolve(
      rootDir,
      ...segments,
      ...(decoded.endsWith("/") || segments.length === 0 ? ["index.html"] : []),
    );
    if (!file.startsWith(rootDir + sep)) throw new HttpError(403, "Forbidden");
    let real: string;
    let realRoot: string;
    try {
      [real, realRoot] = await Promise.all([realpath(file), realpath(rootDir)]);
    } catch {
      throw new HttpError(404, "Not Found");
    }
    // A symlink inside the dashboard folder must not lead out of it.
    if (!real.startsWith(realRoot + sep)) throw new HttpError(403, "Forbidden");
    return real;
  }

  async handle(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    if (method !== "GET" && method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      throw new HttpError(405, "Method Not Allowed");
    }
    return this.sendFile(req, res, await this.resolveFile(path));
  }

  private async sendFile(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
    let size: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error("not a file");
      size = info.size;
    } catch {
      throw new HttpError(404, "Not Found");
    }
    res.writeHead(200, {
      "content-type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
      "content-length": size,
      // A development server: the dashboard must pick up edits on reload.
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    await new Promise<void>((resolveSent) => {
      const stream = createReadStream(file);
      stream.on("error", () => {
        res.destroy();
        resolveSent();
      });
      res.on("close", () => resolveSent());
      stream.pipe(res);
    });
  }
}
