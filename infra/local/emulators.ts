// Boots the storage emulators of the local twin on loopback: dynalite (DynamoDB) and s3rver (S3).
import { chmod, lstat, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dynalite from "dynalite";
import S3rver from "s3rver";
import s3rverAccounts from "s3rver/lib/models/account.js";
import { releaseDynaliteIterators } from "./dynalite-iterators.ts";
import { attachDynamoDbTransactions } from "./dynamodb-transactions.ts";
import { conditionalWrites } from "./s3-conditional-writes.ts";
import { presignedRequestChecks } from "./s3-presigned.ts";

export interface EmulatorOptions {
  /** Root of the persisted state: `<dataDir>/dynamodb` (LevelDB) and `<dataDir>/s3` (s3rver files). */
  dataDir: string;
  /** false: DynamoDB in memory and S3 in a temporary folder removed by stop(); `dataDir` is untouched. */
  persist?: boolean;
  /** Loopback by default; the emulators have no authentication worth the name. */
  host?: string;
}

export interface Emulators {
  dynamodbEndpoint: string;
  /** dynalite's HTTP server, for the twin's DynamoDB Streams emulation to attach to. */
  dynamodbServer: Server;
  s3Endpoint: string;
  stop(): Promise<void>;
}

/** Dummy credentials accepted by both emulators (dynalite ignores signatures; s3rver is taught this key below). */
export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" } as const;

/** How long stop() lets in-flight requests finish before it cuts their sockets. */
const CLOSE_GRACE_MS = 2_000;

export async function startEmulators(options: EmulatorOptions): Promise<Emulators> {
  const { dataDir, persist = true, host = "127.0.0.1" } = options;
  const cleanups: Array<() => Promise<void>> = [];
  const runCleanups = async () => {
    const errors: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length) throw new AggregateError(errors, "Stopping the local emulators failed");
  };

  try {
    // Documents, runs and evidence are borrowers' personal data, and the token secret sits beside
    // them: the data folder is its owner's alone (folders 0700, files 0600), including what an
    // earlier version left readable; the sweep at stop catches files made without the umask.
    cleanups.push(holdPrivateUmask());
    if (persist) {
      await mkdir(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      await makeOwnerOnly(dataDir);
      cleanups.push(() => makeOwnerOnly(dataDir));
    }

    // --- DynamoDB ---
    let dynamoPath: string | undefined;
    if (persist) {
      dynamoPath = join(dataDir, "dynamodb");
      await mkdir(dynamoPath, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      await assertLevelDbUnlocked(dynamoPath);
    }
    releaseDynaliteIterators();
    const dynamoServer = dynalite({
      ...(dynamoPath ? { path: dynamoPath } : {}),
      // Real tables are ACTIVE within seconds; dynalite's default 500 ms CREATING phase only slows boots.
      createTableMs: 0,
      deleteTableMs: 0,
      updateTableMs: 0,
    });
    // dynalite has no TransactWriteItems / TransactGetItems; the layer answers them on its endpoint.
    attachDynamoDbTransactions(dynamoServer);
    await listen(dynamoServer, host);
    cleanups.push(() => closeServer(dynamoServer, (done) => dynamoServer.close(done)));
    const dynamoPort = (dynamoServer.address() as AddressInfo).port;

    // --- S3 ---
    let s3Dir: string;
    if (persist) {
      s3Dir = join(dataDir, "s3");
      await mkdir(s3Dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    } else {
      s3Dir = await mkdtemp(join(tmpdir(), "rewoo-s3-"));
      const dir = s3Dir;
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
    }
    // s3rver rejects every access key but its hard-coded "S3RVER" with InvalidAccessKeyId (it does not
    // verify SigV4 signatures, only the key id), so the twin's dummy key must be registered; the
    // signatures of presigned URLs are verified by the middleware added below.
    s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(
      LOCAL_CREDENTIALS.accessKeyId,
      LOCAL_CREDENTIALS.secretAccessKey,
    );
    const s3 = new S3rver({ address: host, port: 0, silent: true, directory: s3Dir });
    // First in s3rver's Koa chain: presigned URLs' signatures, expiry and SHA-256 checksums are
    // checked as S3 checks them (s3rver itself checks only the key id), so a browser upload of
    // another size or content is refused here as in AWS.
    // (s3rver is a Koa application; its type declarations leave Koa's middleware list out.)
    // Then S3's conditional writes (PUT with If-None-Match: *), which s3rver ignores.
    (s3 as unknown as { middleware: unknown[] }).middleware.unshift(
      presignedRequestChecks(LOCAL_CREDENTIALS),
      conditionalWrites(),
    );
    const s3Address = await s3.run();
    const s3Server = s3.httpServer;
    cleanups.push(() =>
      s3Server ? closeServer(s3Server, (done) => s3Server.close(done)) : s3.close().catch(() => undefined),
    );

    let stopped: Promise<void> | undefined;
    return {
      dynamodbEndpoint: `http://${urlHost(host)}:${dynamoPort}`,
      dynamodbServer: dynamoServer,
      s3Endpoint: `http://${urlHost(host)}:${s3Address.port}`,
      stop() {
        stopped ??= runCleanups();
        return stopped;
      },
    };
  } catch (error) {
    await runCleanups().catch(() => undefined);
    throw error;
  }
}

const PRIVATE_FOLDER_MODE = 0o700;
/** The permission bits of group and others. */
const SHARED_BITS = 0o077;
let umaskHolders = 0;
let umaskBefore: number | undefined;

/**
 * dynalite (LevelDB) and s3rver create files whenever they write, with the process umask, and take
 * no mode option: while emulators run, the umask denies group and others. Returns its release.
 */
function holdPrivateUmask(): () => Promise<void> {
  try {
    if (umaskHolders === 0) {
      const previous = process.umask(SHARED_BITS);
      process.umask(previous | SHARED_BITS);
      umaskBefore = previous;
    }
    umaskHolders += 1;
  } catch {
    // Worker threads may not change the umask; the sweep at stop still tightens what was written.
    return async () => undefined;
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    umaskHolders -= 1;
    if (umaskHolders === 0 && umaskBefore !== undefined) process.umask(umaskBefore);
  };
}

/** Removes group and other permissions from `path` and everything under it; symlinks are not followed. */
async function makeOwnerOnly(path: string): Promise<void> {
  const stats = await lstat(path).catch(ignoreMissing);
  if (!stats || stats.isSymbolicLink()) return;
  if ((stats.mode & SHARED_BITS) !== 0)
    await chmod(path, stats.mode & 0o777 & ~SHARED_BITS).catch(ignoreMissing);
  if (!stats.isDirectory()) return;
  const entries = (await readdir(path).catch(ignoreMissing)) ?? [];
  for (const entry of entries) await makeOwnerOnly(join(path, entry));
}

/** LevelDB deletes files as it compacts: one gone between listing and chmod is not an error. */
function ignoreMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  throw error;
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

function listen(server: Server, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(0, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/**
 * server.close() only resolves once every connection is gone, and SDK clients keep sockets alive
 * (possibly mid-request from a handler that outlived its execution). Idle sockets are closed at once,
 * busy ones after a grace period, so stop() cannot hang.
 */
function closeServer(server: Server, close: (done: (error?: Error) => void) => void): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    timer.unref();
    close((error) => {
      clearTimeout(timer);
      if (error && (error as NodeJS.ErrnoException).code !== "ERR_SERVER_NOT_RUNNING") reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/** Another process's twin holds the data folder (its DynamoDB files are locked while it runs). */
export class DataFolderInUseError extends Error {
  override name = "DataFolderInUseError";
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(
      `The DynamoDB data folder ${path} is in use by another process (is another local twin running on the same data folder?)`,
      { cause },
    );
  }
}

/**
 * A second dynalite on a LevelDB folder that another process holds does not fail at start: it crashes
 * the whole process with an uncaught LEVEL_DATABASE_NOT_OPEN on its first request. Opening the folder
 * once up front turns that into a clear error.
 */
async function assertLevelDbUnlocked(path: string): Promise<void> {
  // `level` is dynalite's dependency, not ours: resolve it from dynalite's own location.
  const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve("dynalite"));
  const { Level } = requireFromDynalite("level") as {
    Level: new (location: string) => { open(): Promise<void>; close(): Promise<void> };
  };
  const db = new Level(path);
  try {
    await db.open();
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === "LEVEL_LOCKED") throw new DataFolderInUseError(path, error);
    throw error;
  } finally {
    await db.close().catch(() => undefined);
  }
}
