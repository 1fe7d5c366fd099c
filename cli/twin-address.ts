// One local twin serves a data folder at a time (its DynamoDB files are locked). A command that
// boots one (`rewoo dev`, `rewoo evaluate --local`, …) leaves its API's address in the folder, so
// that `rewoo runs … --local` from another terminal goes through that twin's API instead of failing
// on the lock: the answer reaches the run where it waits.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";

const ADDRESS_FILE = "api.json";
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * serving: `rewoo dev` / `rewoo start`, until Ctrl-C. following: a command that stops its twin as soon
 * as the run it follows ends (`rewoo evaluate --local`, a `rewoo runs … --local` that booted one), so
 * another process cannot count on following a run through it to the end.
 */
export type TwinLifetime = "serving" | "following";

const loopbackUrl = () => z.url({ protocol: /^http$/, hostname: /^127\.0\.0\.1$/ });

const TwinAddress = z.object({
  api: loopbackUrl(),
  pid: z.number().int().positive(),
  lifetime: z.enum(["serving", "following"]),
  /**
   * The twin's S3 endpoint and documents bucket: where another process (`rewoo batch --local`)
   * uploads PDFs from disk before its requests name them.
   */
  documents: z.object({ s3_endpoint: loopbackUrl(), bucket: z.string().min(1) }).optional(),
});

export type RunningTwin = z.infer<typeof TwinAddress>;

/** The data folder the twin of this process uses (REWOO_DATA_DIR, else `.rewoo`). */
export function localDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.REWOO_DATA_DIR || ".rewoo";
}

/** Records `api` as the address of the twin serving `dataDir`; the returned function takes it back. */
export async function publishTwinApi(
  dataDir: string,
  api: string,
  lifetime: TwinLifetime,
  documents?: RunningTwin["documents"],
): Promise<() => Promise<void>> {
  const file = join(dataDir, ADDRESS_FILE);
  const address: RunningTwin = { api, pid: process.pid, lifetime, ...(documents ? { documents } : {}) };
  await writeFile(file, `${JSON.stringify(address)}\n`, { mode: 0o600 });
  return async () => {
    // Only our own: a twin booted after ours stopped may have written its address meanwhile.
    const current = await readAddress(file);
    if (current?.pid === process.pid) await rm(file, { force: true });
  };
}

/**
 * The twin that serves `dataDir` in another process, or undefined when none does (no address, its
 * process is gone, or it does not answer GET /health).
 */
export async function runningTwin(dataDir: string): Promise<RunningTwin | undefined> {
  const address = await readAddress(join(dataDir, ADDRESS_FILE));
  if (!address || address.pid === process.pid || !processAlive(address.pid)) return undefined;
  try {
    const response = await fetch(`${address.api}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    return response.ok ? address : undefined;
  } catch {
    return undefined;
  }
}

async function readAddress(file: string): Promise<RunningTwin | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = TwinAddress.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
