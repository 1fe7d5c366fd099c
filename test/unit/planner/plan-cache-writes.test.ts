// What the first plan review stores in the plan cache: only a planner's plan that passed review as it
// was written, with no replan, no approval to wait for and nothing of its request left in its template;
// a cached plan that fails review is forgotten.
import type { Logger } from "@aws-lambda-powertools/logger";
import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../../lambdas/core/types.ts";
import { rememberReviewedPlan } from "../../../lambdas/planner/plan-cache.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { buildServices, type Services } from "../../../lambdas/runtime/services.ts";
import { taxReturnRequest } from "../../integration/twin-fixture.ts";

const ENV = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };
const base = buildServices(parseConfig({ ...ENV, REWOO_PLAN_CACHE: "on" }));
const quiet = { info() {}, warn() {} } as unknown as Logger;

/** The services with a DynamoDB client that records what it is sent. */
function recording(): { services: Services; sent: unknown[] } {
  const sent: unknown[] = [];
  const ddb = {
    send: async (command: unknown) => {
      sent.push(command);
      return {};
    },
  };
  return { services: { ...base, clients: { ...base.clients, ddb } } as unknown as Services, sent };
}

const DOCUMENT = "rm-conditions/1120-signed.pdf";
const request = taxReturnRequest([DOCUMENT]);
const plan: Plan = {
  steps: [
    {
      id: "E1",
      tool: "call_preconditions_api",
      args: { metadata: request.metadata },
      depends_on: [],
      description: "Predict the deficient conditions",
    },
    {
      id: "E2",
      tool: "call_conditions_ai_api",
      args: { conditions: "{{E1.conditions}}", documents: [DOCUMENT] },
      depends_on: ["E1"],
      description: `Judge each predicted condition against ${DOCUMENT}`,
    },
  ],
  levels: [["E1"], ["E2"]],
  repairs: [],
};
const meta = { run_id: "run-1", request, mode: "rewoo" as const, plan_source: "planner" as const };
const passed = { plan, approved: true, replanned: false };

async function remember(
  run: Parameters<typeof rememberReviewedPlan>[0],
  reviewed: Parameters<typeof rememberReviewedPlan>[1],
) {
  const { services, sent } = recording();
  await rememberReviewedPlan(run, reviewed, services, quiet);
  return sent;
}

describe("rememberReviewedPlan", () => {
  it("stores a planner's plan that passed review as it was written, as a template only", async () => {
    const sent = await remember(meta, passed);
    expect(sent).toHaveLength(1);
    const put = sent[0] as PutCommand;
    expect(put).toBeInstanceOf(PutCommand);
    expect(put.input.Item?.source_run_id).toBe("run-1");
    expect(put.input.Item?.pk).toMatch(/^PLANCACHE#[0-9a-f]{64}$/);
    expect(put.input.Item?.expires_at).toBeGreaterThan(Date.now() / 1000);
    const stored = JSON.stringify(put.input.Item?.template);
    for (const value of ["Jane", "Acme", "8000", "1120-signed", "rm-conditions"]) {
      expect(stored).not.toContain(value);
    }
  });

  it("stores nothing for a plan whose review failed, a replan, or a plan a person decides on", async () => {
    expect(await remember(meta, { ...passed, approved: false })).toEqual([]);
    expect(await remember(meta, { ...passed, replanned: true })).toEqual([]);
    expect(await remember({ ...meta, replans: 1 }, passed)).toEqual([]);
    const approval = { status: "edited" as const, requested_at: "", deadline: "" };
    expect(await remember({ ...meta, approval }, passed)).toEqual([]);
    const required = { ...meta, request: { ...request, options: { approval: "required" as const } } };
    expect(await remember(required, passed)).toEqual([]);
  });

  it("stores nothing when the request or the environment turned the cache off", async () => {
    const off = { ...meta, request: { ...request, options: { plan_cache: false } } };
    expect(await remember(off, passed)).toEqual([]);
    const { services, sent } = recording();
    const switchedOff = { ...services, config: { ...services.config, planCache: false } };
    await rememberReviewedPlan(meta, passed, switchedOff, quiet);
    expect(sent).toEqual([]);
  });

  it("stores nothing for a plan whose template would keep the borrower's name", async () => {
    const named = structuredClone(plan);
    (named.steps[0] as Plan["steps"][number]).description = "Predict the conditions of Ms. Doe's company";
    expect(await remember(meta, { ...passed, plan: named })).toEqual([]);
  });

  it("forgets a cached plan that failed review, and keeps one that passed", async () => {
    const fromCache = { ...meta, plan_source: "cache" as const };
    const sent = await remember(fromCache, { ...passed, approved: false });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(DeleteCommand);
    expect(await remember(fromCache, passed)).toEqual([]);
  });
});

describe("a cache that cannot be written", () => {
  it("is logged and does not fail the review", async () => {
    const warnings: string[] = [];
    const log = { info() {}, warn: (message: string) => warnings.push(message) } as unknown as Logger;
    const ddb = {
      send: async () => {
        throw new Error("ProvisionedThroughputExceededException");
      },
    };
    const failing = { ...base, clients: { ...base.clients, ddb } } as unknown as Services;
    await expect(rememberReviewedPlan(meta, passed, failing, log)).resolves.toBeUndefined();
    expect(warnings).toEqual(["plan cache not written"]);
  });
});
