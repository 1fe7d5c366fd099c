// Module-level work runs on every cold start of every function whose bundle holds the module, so the
// schemas below are built on first use (lambdas/core/lazy.ts), not when their module loads. zod is
// replaced by a copy that counts schema constructions; each module is imported fresh, then used.
import { beforeEach, describe, expect, it, vi } from "vitest";

const built = vi.hoisted(() => ({ count: 0 }));

vi.mock("zod", async (importOriginal) => {
  const zod = await importOriginal<Record<string, unknown>>();
  const counted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(zod)) {
    // The schema factories (z.object, z.string, …) and the coercing ones (z.coerce.number, …).
    if (typeof value === "function" && /^[a-z]/.test(name)) {
      counted[name] = (...args: unknown[]) => {
        built.count++;
        return (value as (...a: unknown[]) => unknown)(...args);
      };
    } else if (name === "coerce") {
      counted[name] = Object.fromEntries(
        Object.entries(value as Record<string, (...a: unknown[]) => unknown>).map(([key, factory]) => [
          key,
          (...args: unknown[]) => {
            built.count++;
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
});
