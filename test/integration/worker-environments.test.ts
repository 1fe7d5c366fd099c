// Work in environments of its own (twin option workerEnvironments, worker threads as Lambda runs
// concurrent invocations): the same handler and the same answers as in the twin's thread, and no
// tool runs on the twin's thread.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Twin } from "../../infra/local/twin.ts";
import {
  bankRequestWithoutIncome,
  bootTwinWithSamples,
  taxReturnRequest,
  verdictOf,
} from "./twin-fixture.ts";

let twin: Twin;
let inThread = 0;

beforeAll(async () => {
  twin = await bootTwinWithSamples({ REWOO_CLARIFICATION: "never" }, { workerEnvironments: 2 });
  for (const tool of twin.services.tools.names().map((name) => twin.services.tools.get(name))) {
    const run = tool.run;
    tool.run = (...args: Parameters<typeof run>) => {
      inThread += 1;
      return run.apply(tool, args);
    };
  }
}, 120_000);

afterAll(async () => {
  await twin?.stop();
});

describe("Work in environments of its own", () => {
  it("runs concurrent runs to the same verdicts without a tool call on the twin's thread", async () => {
    const [signed, unsigned, bank] = await Promise.all(
      [
        taxReturnRequest(["rm-conditions/1120-signed.pdf"]),
        taxReturnRequest(["rm-conditions/1120-unsigned.pdf"]),
        bankRequestWithoutIncome(),
      ].map(async (request) => twin.waitForRun((await twin.startRun(request)).run_id)),
    );
    for (const record of [signed, unsigned, bank]) {
      expect(record?.status).toBe("SUCCEEDED");
      expect(record?.evidence.every((item) => item.status === "ok")).toBe(true);
    }
    expect(verdictOf(signed as never, "TR_SIGNED")).toBe("fulfilled");
    expect(verdictOf(unsigned as never, "TR_SIGNED")).toBe("not_fulfilled");
    expect(verdictOf(bank as never, "BS_NO_NSF")).toBe("not_fulfilled");
    expect(inThread).toBe(0);
  });
});
