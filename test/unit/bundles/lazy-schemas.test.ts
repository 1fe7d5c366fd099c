// Module-level work runs on every cold start of every function whose bundle holds the module, so the
// schemas below are built on first use (lambdas/core/lazy.ts), not when their module loads. zod is
// replaced by a copy that counts schema constructions; each module is imported fresh, then used.
import { beforeEach, describe, expect, it, vi } from "vitest";

const built = vi.hoisted(() => ({ count: 0, sites: new Set<string>() }));

/** The module of lambdas/ that asked for a schema (the first such frame of the stack). */
function callerModule(): string {
  const frames = new Error().stack?.split("\n") ?? [];
  return frames.map((frame) => /(lambdas\/[\w/.-]+\.ts)/.exec(frame)?.[1]).find(Boolean) ?? "(elsewhere)";
}

vi.mock("zod", async (importOriginal) => {
  const zod = await importOriginal<Record<string, unknown>>();
  const counted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(zod)) {
    // The schema factories (z.object, z.string, …) and the coercing ones (z.coerce.number, …).
    if (typeof value === "function" && /^[a-z]/.test(name)) {
      counted[name] = (...args: unknown[]) => {
        built.count++;
        built.sites.add(callerModule());
        return (value as (...a: unknown[]) => unknown)(...args);
      };
    } else if (name === "coerce") {
      counted[name] = Object.fromEntries(
        Object.entries(value as Record<string, (...a: unknown[]) => unknown>).map(([key, factory]) => [
          key,
          (...args: unknown[]) => {
            built.count++;
            built.sites.add(callerModule());
            return factory(...args);
          },
        ]),
      );
    } else counted[name] = value;
  }
  return counted;
});

const ENV = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };

beforeEach(() => {
  vi.resetModules();
  built.count = 0;
  built.sites.clear();
});

// Lambda defines the global before it loads a handler; the event stream's entry calls it at import.
vi.stubGlobal("awslambda", {
  streamifyResponse: (handler: unknown) => handler,
  HttpResponseStream: { from: (s: unknown) => s },
});

describe("schemas built on first use", () => {
  it("the configuration's (lambdas/runtime/config.ts) and the price table's (lambdas/core/cost.ts)", async () => {
    const { parseConfig } = await import("../../../lambdas/runtime/config.ts");
    expect(built.count).toBe(0);
    const config = parseConfig({
      ...ENV,
      REWOO_PRICE_TABLE: JSON.stringify({ lambda_per_request: 0.0000003 }),
    });
    expect(config.runsTable).toBe("runs");
    expect(config.prices.lambda_per_request).toBe(0.0000003);
    const afterFirst = built.count;
    expect(afterFirst).toBeGreaterThan(0);
    // Built once: a second parse builds nothing more.
    parseConfig(ENV);
    expect(built.count).toBe(afterFirst);
    expect(() => parseConfig({ ...ENV, RUNS_TABLE: "" })).toThrow(
      /RUNS_TABLE must name the DynamoDB runs table/,
    );
  });

  it("the banking assistant's: the model's reading of a message and its tools' arguments", async () => {
    const { readPlannerEnvelope } = await import("../../../lambdas/agents/banking/profile.ts");
    const { describeBankingToolCatalog } = await import(
      "../../../lambdas/agents/banking/banking-tool-catalog.ts"
    );
    const tools = describeBankingToolCatalog(() => {
      throw new Error("no runner is asked for here");
    });
    expect(tools.map((tool) => tool.name)).toContain("transfer_funds");
    expect(built.count).toBe(0);

    const read = readPlannerEnvelope(
      '{"intent":"check_balance","slots":{"account":{"kind":"savings"}},"plan":[]}',
    );
    expect(read.understanding).toEqual({ intent: "check_balance", slots: { account: { kind: "savings" } } });
    const transfer = tools.find((tool) => tool.name === "transfer_funds");
    const refused = transfer?.args.safeParse({
      from_account_id: "acc_1",
      amount_minor: 100,
      currency: "USD",
    });
    expect(refused?.success).toBe(false);
    expect(built.count).toBeGreaterThan(0);
  });

  it("none at all when the event stream's, the WebSocket functions' and the authorizer's entries load", async () => {
    for (const entry of ["stream/index.ts", "ws/index.ts", "ws/push.ts", "ws/authorizer.ts"]) {
      vi.resetModules();
      await import(`../../../lambdas/${entry}`);
      expect([...built.sites], entry).toEqual([]);
    }
  });

  it("in the planner, the solver, the API and the worker, by the loan agent's modules alone when their entries load", async () => {
    for (const entry of ["planner/index.ts", "solver/index.ts", "api/index.ts", "worker/index.ts"]) {
      vi.resetModules();
      built.sites.clear();
      await import(`../../../lambdas/${entry}`);
      expect(
        [...built.sites].filter((site) => !site.startsWith("lambdas/agents/loan/")),
        entry,
      ).toEqual([]);
    }
  });
});
