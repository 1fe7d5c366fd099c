// The twin's emulation of what its interpreter lacks (infra/local/distributed-map.ts), on small workflow
// files written here: a Distributed Map (ItemReader over a JSON Lines object, ItemSelector, concurrency,
// tolerated failures, ResultWriter files, child workflow executions) and startExecution.sync:2 (output,
// failure, stops reaching the child). S3 is an in-memory bucket that records what the emulation reads
// and writes.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DistributedWorkflow, loadDistributedWorkflow } from "../../../infra/local/distributed-map.ts";
import { LocalStepFunctions } from "../../../infra/local/step-functions.ts";

/** Objects by `bucket/key`; GetObject and PutObject only, as the emulation uses S3. */
class MemoryS3 {
  readonly objects = new Map<string, string>();
  async send(command: unknown): Promise<unknown> {
    if (command instanceof GetObjectCommand) {
      const text = this.objects.get(`${command.input.Bucket}/${command.input.Key}`);
      if (text === undefined)
        throw Object.assign(new Error("The specified key does not exist."), { name: "NoSuchKey" });
      return { Body: { transformToString: async () => text } };
    }
    if (command instanceof PutObjectCommand) {
      this.objects.set(`${command.input.Bucket}/${command.input.Key}`, String(command.input.Body));
      return {};
    }
    throw new Error(`unexpected S3 command ${(command as object).constructor.name}`);
  }
  json(bucket: string, key: string): unknown {
    return JSON.parse(this.objects.get(`${bucket}/${key}`) ?? "null");
  }
}

const FAN_OUT = {
  StartAt: "Fan",
  States: {
    Fan: {
      Type: "Map",
      Label: "Fan",
      ItemReader: {
        Resource: "arn:aws:states:::s3:getObject",
        ReaderConfig: { InputType: "JSONL" },
        Parameters: { "Bucket.$": "$.bucket", "Key.$": "$.key" },
      },
      ItemSelector: { "n.$": "$$.Map.Item.Value.n", "index.$": "$$.Map.Item.Index", "tag.$": "$.tag" },
      MaxConcurrencyPath: "$.concurrency",
      ToleratedFailurePercentagePath: "$.tolerated",
      ItemProcessor: {
        ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" },
        StartAt: "Work",
        States: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a definition substitution, as in the ASL file
          Work: { Type: "Task", Resource: "${WorkFunctionArn}", End: true },
        },
      },
      ResultWriter: {
        Resource: "arn:aws:states:::s3:putObject",
        Parameters: { "Bucket.$": "$.bucket", "Prefix.$": "$.prefix" },
      },
      ResultPath: "$.map",
      Catch: [{ ErrorEquals: ["States.ALL"], ResultPath: "$.error", Next: "Caught" }],
      End: true,
    },
    Caught: { Type: "Pass", End: true },
  },
};

const NESTED = {
  StartAt: "Fan",
  States: {
    Fan: {
      Type: "Map",
      ItemReader: {
        Resource: "arn:aws:states:::s3:getObject",
        ReaderConfig: { InputType: "JSONL" },
        Parameters: { "Bucket.$": "$.bucket", "Key.$": "$.key" },
      },
      MaxConcurrency: 2,
      ItemProcessor: {
        ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" },
        StartAt: "RunChild",
        States: {
          RunChild: {
            Type: "Task",
            Resource: "arn:aws:states:::states:startExecution.sync:2",
            Parameters: {
              // biome-ignore lint/suspicious/noTemplateCurlyInString: a definition substitution, as in the ASL file
              StateMachineArn: "${ChildArn}",
              "Name.$": "$.name",
              Input: { "wait.$": "$.wait" },
            },
            ResultSelector: { "status.$": "$.Status", "output.$": "$.Output" },
            End: true,
          },
        },
      },
      End: true,
    },
  },
};

/** The child: waits `wait` seconds (long enough to be stopped), then answers. */
const CHILD = {
  StartAt: "Hold",
  States: {
    Hold: { Type: "Wait", SecondsPath: "$.wait", Next: "Answer" },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a definition substitution, as in the ASL file
    Answer: { Type: "Task", Resource: "${AnswerFunctionArn}", End: true },
  },
};

let dir: string;
const s3 = new MemoryS3();
let fanOut: DistributedWorkflow;
let nested: DistributedWorkflow;
let child: LocalStepFunctions;
let concurrent = 0;
let mostConcurrent = 0;
const seen: unknown[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rewoo-distributed-map-"));
  await writeFile(join(dir, "fan.asl.json"), JSON.stringify(FAN_OUT));
  await writeFile(join(dir, "nested.asl.json"), JSON.stringify(NESTED));
  await writeFile(join(dir, "child.asl.json"), JSON.stringify(CHILD));
  fanOut = await loadDistributedWorkflow(
    join(dir, "fan.asl.json"),
    {
      Work: async (input) => {
        seen.push(input);
        concurrent += 1;
        mostConcurrent = Math.max(mostConcurrent, concurrent);
        await new Promise((resolve) => setImmediate(resolve));
        concurrent -= 1;
        const { n } = input as { n: number };
        if (n % 5 === 0) throw Object.assign(new Error(`no ${n}`), { name: "Boom" });
        return { double: n * 2 };
      },
    },
    { s3: s3 as unknown as S3Client, stateMachineName: "fan" },
  );
  child = await LocalStepFunctions.fromFile(join(dir, "child.asl.json"), {
    Answer: async () => ({ answered: true }),
  });
  nested = await loadDistributedWorkflow(
    join(dir, "nested.asl.json"),
    {},
    {
      s3: s3 as unknown as S3Client,
      stateMachineName: "nested",
      substitutions: { ChildArn: child.stateMachineArn },
      targets: [child],
    },
  );
}, 60_000);

afterAll(async () => {
  await nested?.close();
  await fanOut?.close();
  await child?.close();
  await rm(dir, { recursive: true, force: true });
});

function lines(values: number[]): string {
  return values.map((n) => JSON.stringify({ n })).join("\n");
}

async function run(workflow: DistributedWorkflow, input: Record<string, unknown>) {
  const { executionArn } = workflow.root.startExecution({ input });
  return workflow.root.waitForExecution(executionArn);
}

describe("a Distributed Map", () => {
  it("runs one child workflow execution per item, as ItemSelector builds it, at most MaxConcurrency at once", async () => {
    s3.objects.set("items/ok.jsonl", lines([1, 2, 3, 4, 6, 7]));
    mostConcurrent = 0;
    seen.length = 0;
    const ended = await run(fanOut, {
      bucket: "items",
      key: "ok.jsonl",
      prefix: "out/ok",
      tag: "t1",
      concurrency: 2,
      tolerated: 0,
    });
    expect(ended.status).toBe("SUCCEEDED");
    expect(mostConcurrent).toBe(2);
    expect(seen).toContainEqual({ n: 6, index: 4, tag: "t1" });
    expect(seen).toHaveLength(6);

    const { MapRunArn, ResultWriterDetails } = (
      ended.output as { map: { MapRunArn: string; ResultWriterDetails: { Bucket: string; Key: string } } }
    ).map;
    expect(MapRunArn).toMatch(/^arn:aws:states:us-east-1:123456789012:mapRun:fan\/Fan:[0-9a-f-]{36}$/);
    expect(ResultWriterDetails.Bucket).toBe("items");
    expect(ResultWriterDetails.Key).toMatch(/^out\/ok\/[0-9a-f-]{36}\/manifest\.json$/);
    const manifest = s3.json("items", ResultWriterDetails.Key) as {
      MapRunArn: string;
      ResultFiles: Record<string, Array<{ Key: string; Size: number }>>;
    };
    expect(manifest.MapRunArn).toBe(MapRunArn);
    expect(manifest.ResultFiles.FAILED).toEqual([]);
    const succeeded = s3.json("items", manifest.ResultFiles.SUCCEEDED?.[0]?.Key ?? "") as Array<{
      Status: string;
      Input: string;
      Output: string;
    }>;
    expect(succeeded.map((entry) => JSON.parse(entry.Output).double).sort((a, b) => a - b)).toEqual([
      2, 4, 6, 8, 12, 14,
    ]);
    expect(JSON.parse(succeeded[0]?.Input ?? "{}")).toHaveProperty("tag", "t1");

    // The child workflow executions are executions of the item processor's own machine.
    const items = fanOut.machines[1] as LocalStepFunctions;
    expect(items.stateMachineArn).toBe("arn:aws:states:us-east-1:123456789012:stateMachine:fan/Fan");
    expect(items.listExecutions().filter((execution) => execution.status === "SUCCEEDED")).toHaveLength(6);
  });

  it("fails with States.ExceedToleratedFailureThreshold when more items fail than tolerated, still writing the results", async () => {
    s3.objects.set("items/some-fail.jsonl", lines([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    const failing = await run(fanOut, {
      bucket: "items",
      key: "some-fail.jsonl",
      prefix: "out/fail",
      tag: "t2",
      concurrency: 1,
      tolerated: 10,
    });
    expect(failing.status).toBe("SUCCEEDED");
    expect((failing.output as { error: { Error: string } }).error.Error).toBe(
      "States.ExceedToleratedFailureThreshold",
    );

    const tolerated = await run(fanOut, {
      bucket: "items",
      key: "some-fail.jsonl",
      prefix: "out/tolerated",
      tag: "t3",
      concurrency: 3,
      tolerated: 20,
    });
    const { ResultWriterDetails } = (tolerated.output as { map: { ResultWriterDetails: { Key: string } } })
      .map;
    const manifest = s3.json("items", ResultWriterDetails.Key) as {
      ResultFiles: Record<string, Array<{ Key: string }>>;
    };
    const failed = s3.json("items", manifest.ResultFiles.FAILED?.[0]?.Key ?? "") as Array<{
      Status: string;
      Error: string;
    }>;
    expect(failed.map((entry) => [entry.Status, entry.Error])).toEqual([
      ["FAILED", "Boom"],
      ["FAILED", "Boom"],
    ]);
  });

  it("fails with States.ItemReaderFailed when the object cannot be read", async () => {
    const ended = await run(fanOut, {
      bucket: "items",
      key: "missing.jsonl",
      prefix: "x",
      tag: "",
      concurrency: 1,
      tolerated: 0,
    });
    expect((ended.output as { error: { Error: string; Cause: string } }).error).toMatchObject({
      Error: "States.ItemReaderFailed",
      Cause: expect.stringContaining("NoSuchKey"),
    });
  });
});

describe("startExecution.sync:2", () => {
  it("waits for the child and returns its output as JSON", async () => {
    s3.objects.set(
      "items/children.jsonl",
      [1, 2].map((n) => JSON.stringify({ name: `quick-${n}`, wait: 0 })).join("\n"),
    );
    const ended = await run(nested, { bucket: "items", key: "children.jsonl" });
    expect(ended.status).toBe("SUCCEEDED");
    expect(ended.output).toEqual([
      { status: "SUCCEEDED", output: { answered: true } },
      { status: "SUCCEEDED", output: { answered: true } },
    ]);
    expect(
      child.describeExecution(`${child.stateMachineArn.replace(":stateMachine:", ":execution:")}:quick-1`)
        .status,
    ).toBe("SUCCEEDED");
  });

  it("stops the children when the execution that waits for them is stopped, and starts no more items", async () => {
    s3.objects.set(
      "items/slow.jsonl",
      [1, 2, 3].map((n) => JSON.stringify({ name: `slow-${n}`, wait: 3600 })).join("\n"),
    );
    const { executionArn } = nested.root.startExecution({ input: { bucket: "items", key: "slow.jsonl" } });
    const childArn = (n: number) =>
      `${child.stateMachineArn.replace(":stateMachine:", ":execution:")}:slow-${n}`;
    for (let attempt = 0; attempt < 500; attempt++) {
      const running = child.listExecutions().filter((execution) => execution.name.startsWith("slow-"));
      if (running.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    nested.root.stopExecution(executionArn, { error: "Stop", cause: "test" });
    await child.waitForExecution(childArn(1));
    await child.waitForExecution(childArn(2));
    expect(child.describeExecution(childArn(1)).status).toBe("ABORTED");
    expect(child.describeExecution(childArn(2)).status).toBe("ABORTED");
    expect(() => child.describeExecution(childArn(3))).toThrow(/Execution Does Not Exist/);
    const items = nested.machines[1] as LocalStepFunctions;
    const aborted = items.listExecutions().filter((execution) => execution.status === "ABORTED");
    expect(aborted).toHaveLength(2);
  });

  it("fails the waiting state when the child's name is taken (StepFunctions.ExecutionAlreadyExistsException)", async () => {
    s3.objects.set("items/again.jsonl", JSON.stringify({ name: "quick-1", wait: 0 }));
    const ended = await run(nested, { bucket: "items", key: "again.jsonl" });
    expect(ended.status).toBe("FAILED");
    expect(ended.error).toBe("States.ExceedToleratedFailureThreshold");
    const items = nested.machines[1] as LocalStepFunctions;
    const failed = items.listExecutions().find((execution) => execution.status === "FAILED");
    expect(failed?.error).toBe("StepFunctions.ExecutionAlreadyExistsException");
  });
});
