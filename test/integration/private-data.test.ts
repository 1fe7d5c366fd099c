// The twin's data folder and the lender's error bodies, end to end: a persisted twin on a data
// folder an earlier version left world-readable, a PreConditions service (a real HTTP server on
// loopback) that answers 400 with the borrower's SSN in its body, and the handlers' real logs.
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateSampleDocuments } from "../../examples/samples.ts";
import { startTwin } from "../../infra/local/twin.ts";
import type { RunRecord } from "../../lambdas/core/types.ts";
import { type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { taxReturnRequest } from "./twin-fixture.ts";

const SSN = "123-45-6789";
const ACCOUNT = "004417239981";

interface Entry {
  path: string;
  mode: number;
  directory: boolean;
}

async function tree(root: string): Promise<Entry[]> {
  const stats = await lstat(root);
  const entries: Entry[] = [{ path: root, mode: stats.mode & 0o777, directory: stats.isDirectory() }];
  if (stats.isDirectory()) {
    for (const name of await readdir(root)) entries.push(...(await tree(join(root, name))));
  }
  return entries;
}

const readableByOthers = (entries: Entry[]) =>
  entries
    .filter((entry) => (entry.mode & 0o077) !== 0)
    .map((entry) => `${entry.path} ${entry.mode.toString(8)}`);

let dataDir: string;
let lender: RecordingServer;
let run: RunRecord;
let whileRunning: Entry[];
let afterStop: Entry[];
let logged = "";
let umaskBefore: number;
let umaskAfter: number;
/** A run key an earlier session left, world-readable. */
const RUN_KEY = "s".repeat(43);
let runKeyInUse = "";

beforeAll(async () => {
  // A permissive umask, as on most desktops: without the twin's own care its files would be 0644.
  umaskBefore = process.umask(0o022);
  dataDir = await mkdtemp(join(tmpdir(), "rewoo-private-"));
  // What an earlier version left: a world-readable folder and files.
  await chmod(dataDir, 0o755);
  await mkdir(join(dataDir, "s3"), { mode: 0o755 });
  await writeFile(join(dataDir, "s3", "left-over.json"), "{}", { mode: 0o644 });
  await mkdir(join(dataDir, "token-keys"), { mode: 0o755 });
  await writeFile(join(dataDir, "token-keys", "run"), `${RUN_KEY}\n`, { mode: 0o644 });

  lender = await startRecordingServer(() => ({
    status: 400,
    body: JSON.stringify({
      message: `borrower record with SSN ${SSN} does not match account ${ACCOUNT}`,
      borrower: { ssn: SSN, account_number: ACCOUNT },
    }),
  }));

  const writes: string[] = [];
  const capture = (chunk: unknown) => {
    writes.push(String(chunk));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture);
  try {
    const twin = await startTwin({
      dataDir,
      persist: true,
      env: { PRECONDITIONS_API_URL: `${lender.origin}/lender`, POWERTOOLS_LOG_LEVEL: "INFO" },
    });
    const bucket = twin.services.config.documentsBucket;
    for (const document of await generateSampleDocuments()) {
      await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
    }
    const { run_id } = await twin.startRun(taxReturnRequest(["rm-conditions/1120-signed.pdf"]));
    run = await twin.waitForRun(run_id);
    runKeyInUse = twin.tokenKeys.run.current;
    await twin.settled();
    whileRunning = await tree(dataDir);
    await twin.stop();
    afterStop = await tree(dataDir);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    umaskAfter = process.umask(umaskBefore);
  }
  logged = writes.join("");
});

afterAll(async () => {
  await lender?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("a lender error with the borrower's SSN in its body", () => {
  it("reaches the service, and its evidence names the status and a scrubbed reason", () => {
    expect(lender.received.length).toBeGreaterThanOrEqual(1);
    const evidence = run.evidence.find((entry) => entry.tool === "call_preconditions_api");
    expect(evidence?.status).toBe("error");
    expect(evidence?.error).toContain("HTTP 400");
    expect(evidence?.error).toContain("borrower record with SSN [REDACTED:ssn] does not match account");
  });

  it("puts the SSN and the account number nowhere in the run record", () => {
    const record = JSON.stringify(run);
    expect(record).not.toContain(SSN);
    expect(record).not.toContain(ACCOUNT);
  });

  it("puts them nowhere in the logs, which do report the failed tool", () => {
    expect(logged).toContain('"message":"tool failed"');
    expect(logged).toContain("[REDACTED:ssn]");
    expect(logged).not.toContain(SSN);
    expect(logged).not.toContain(ACCOUNT);
  });
});

describe("the twin's data folder", () => {
  it("holds the emulators' data and one token key per audience, reusing the one it found", () => {
    const paths = afterStop.map((entry) => entry.path);
    expect(paths.filter((path) => path.startsWith(join(dataDir, "dynamodb"))).length).toBeGreaterThan(2);
    expect(paths.some((path) => path.includes(join(dataDir, "s3", "rewoo-documents")))).toBe(true);
    for (const audience of ["customer", "run", "operator"]) {
      expect(paths).toContain(join(dataDir, "token-keys", audience));
    }
    expect(runKeyInUse).toBe(RUN_KEY);
  });

  it("is readable by its owner only while the twin runs, including what existed before", () => {
    expect(readableByOthers(whileRunning)).toEqual([]);
    expect(whileRunning.find((entry) => entry.path === dataDir)?.mode).toBe(0o700);
    for (const audience of ["customer", "run", "operator"]) {
      expect(whileRunning.find((entry) => entry.path === join(dataDir, "token-keys", audience))?.mode).toBe(
        0o600,
      );
    }
    expect(whileRunning.find((entry) => entry.path === join(dataDir, "token-keys"))?.mode).toBe(0o700);
    expect(whileRunning.find((entry) => entry.path.endsWith("left-over.json"))?.mode).toBe(0o600);
  });

  it("stays so after the twin stops, and the process umask is given back", () => {
    expect(readableByOthers(afterStop)).toEqual([]);
    for (const entry of afterStop) expect(entry.mode, entry.path).toBe(entry.directory ? 0o700 : 0o600);
    expect(umaskAfter).toBe(0o022);
  });
});
