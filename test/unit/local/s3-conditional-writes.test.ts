// S3's conditional writes in the twin: s3rver 3.7.1 ignores `If-None-Match: *` on PUT Object (shown
// below on a bare s3rver), so the twin's S3 layer honours it as S3 does; and the result store's
// write-once on top of it (a run's own earlier write accepted, anyone else's object never replaced).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import { localS3ClientConfig, provisionResources } from "../../../infra/local/provision.ts";
import { ResultExistsError } from "../../../lambdas/core/destinations.ts";
import { BlobStore, WRITER_METADATA } from "../../../lambdas/store/blobs.ts";

const REGION = "us-east-1";
const BUCKET = "rewoo-artifacts";

async function bodyOf(s3: S3Client, key: string): Promise<string> {
  const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return (await got.Body?.transformToString()) ?? "";
}

const put = (s3: S3Client, key: string, body: string, condition?: string) =>
  s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: key,
      Body: body,
      ...(condition !== undefined ? { IfNoneMatch: condition } : {}),
    }),
  );

/** The error a send ends with, or undefined when it succeeds. */
async function failureOf(send: Promise<unknown>): Promise<{ name?: string; status?: number } | undefined> {
  try {
    await send;
    return undefined;
  } catch (error) {
    const failed = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return { name: failed.name, status: failed.$metadata?.httpStatusCode };
  }
}

describe("s3rver 3.7.1 on its own", () => {
  let server: S3rver;
  let dir: string;
  let s3: S3Client;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "rewoo-bare-s3rver-"));
    server = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await server.run();
    s3 = new S3Client({
      region: REGION,
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  });

  afterAll(async () => {
    s3?.destroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("ignores If-None-Match: * and overwrites (why the twin's S3 layer exists)", async () => {
    await put(s3, "results/a.json", "first", "*");
    expect(await failureOf(put(s3, "results/a.json", "second", "*"))).toBeUndefined();
    expect(await bodyOf(s3, "results/a.json")).toBe("second");
  });
});

describe("the twin's S3 honours conditional writes", () => {
  let emulators: Emulators;
  let s3: S3Client;

  beforeAll(async () => {
    emulators = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
    await provisionResources({
      dynamodbEndpoint: emulators.dynamodbEndpoint,
      s3Endpoint: emulators.s3Endpoint,
      region: REGION,
      runsTable: "rewoo-runs",
      connectionsTable: "rewoo-connections",
      buckets: [BUCKET],
    });
    s3 = new S3Client(localS3ClientConfig(emulators.s3Endpoint, REGION));
  });

  afterAll(async () => {
    s3?.destroy();
    await emulators?.stop();
  });

  it("writes where no object is, and answers 412 PreconditionFailed where one is, leaving it as it was", async () => {
    expect(await failureOf(put(s3, "results/b.json", "first", "*"))).toBeUndefined();
    expect(await failureOf(put(s3, "results/b.json", "second", "*"))).toEqual({
      name: "PreconditionFailed",
      status: 412,
    });
    expect(await bodyOf(s3, "results/b.json")).toBe("first");
    // A key with characters a URL escapes is the same key.
    expect(await failureOf(put(s3, "results/loan 42/é.json", "first", "*"))).toBeUndefined();
    expect((await failureOf(put(s3, "results/loan 42/é.json", "second", "*")))?.status).toBe(412);
  });

  it("leaves unconditional writes as S3 has them: they replace", async () => {
    await put(s3, "results/c.json", "first");
    await put(s3, "results/c.json", "second");
    expect(await bodyOf(s3, "results/c.json")).toBe("second");
  });

  it("lets exactly one of ten racing conditional writes of one key succeed", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        failureOf(put(s3, "results/race.json", `writer ${index}`, "*")),
      ),
    );
    const winners = outcomes.flatMap((outcome, index) => (outcome === undefined ? [index] : []));
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome?.status === 412)).toHaveLength(9);
    expect(await bodyOf(s3, "results/race.json")).toBe(`writer ${winners[0]}`);
  });

  it("refuses If-None-Match with anything but * on a PUT, as S3 does (501)", async () => {
    expect(await failureOf(put(s3, "results/d.json", "x", '"0123456789abcdef"'))).toMatchObject({
      status: 501,
    });
  });

  describe("a run's result, written once", () => {
    let blobs: BlobStore;
    const location = { bucket: BUCKET, key: "results/loan-7.json" };

    beforeAll(() => {
      blobs = new BlobStore(s3);
    });

    it("is written with its run's id, and a retry of the same run keeps it as it is", async () => {
      expect(await blobs.exists(location)).toBe(false);
      expect(await blobs.putJsonOnce(location, { run_id: "run-1", n: 1 }, "run-1")).toEqual({
        uri: `s3://${BUCKET}/results/loan-7.json`,
        written: true,
      });
      expect(await blobs.exists(location)).toBe(true);
      const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: location.key }));
      expect(head.Metadata?.[WRITER_METADATA]).toBe("run-1");
      const first = await bodyOf(s3, location.key);
      expect(await blobs.putJsonOnce(location, { run_id: "run-1", n: 1 }, "run-1")).toMatchObject({
        written: false,
      });
      expect(await bodyOf(s3, location.key)).toBe(first);
    });

    it("is never written over another run's result, nor over an object no run wrote", async () => {
      const before = await bodyOf(s3, location.key);
      const other = blobs.putJsonOnce(location, { run_id: "run-2" }, "run-2");
      await expect(other).rejects.toBeInstanceOf(ResultExistsError);
      await expect(other).rejects.toThrow(
        `s3://${BUCKET}/results/loan-7.json already holds an object written by run run-1; results are never overwritten, so run run-2 wrote nothing there`,
      );
      expect(await bodyOf(s3, location.key)).toBe(before);

      await put(s3, "results/someone-elses.json", "not a result");
      await expect(
        blobs.putJsonOnce({ bucket: BUCKET, key: "results/someone-elses.json" }, {}, "run-3"),
      ).rejects.toThrow(/already holds an object that this run did not write/);
      expect(await bodyOf(s3, "results/someone-elses.json")).toBe("not a result");
    });
  });
});
