// The banking tools as the worker runs them, against dynalite with the twin's transactions layer:
// a retried step (same run, same step) never moves money twice, the customer is the run's and no
// argument reaches another customer's holdings, and the customer's words resolve to one product.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMERS } from "../../../examples/banking/customers.ts";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import { coreBankingTableDefinition, localDynamoDbClientConfig } from "../../../infra/local/provision.ts";
import { describeBankingTools } from "../../../lambdas/agents/banking/banking-tools.ts";
import { CoreBankingStore } from "../../../lambdas/store/core-banking.ts";
import type { ToolContext, ToolDefinition } from "../../../lambdas/tools/registry.ts";
import { createActiveTable } from "../../support/tables.ts";

let emulators: Emulators;
let client: DynamoDBClient;
let store: CoreBankingStore;
let tools: Map<string, ToolDefinition>;

beforeAll(async () => {
  emulators = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
  client = new DynamoDBClient(localDynamoDbClientConfig(emulators.dynamodbEndpoint, "us-east-1"));
  await createActiveTable(client, coreBankingTableDefinition("banking-tools"));
  store = new CoreBankingStore(DynamoDBDocumentClient.from(client), "banking-tools", () => new Date());
  await store.seed(DEMO_CUSTOMERS);
  tools = new Map(describeBankingTools(() => store).map((tool) => [tool.name, tool]));
});

afterAll(async () => {
  client?.destroy();
  await emulators?.stop();
});

function context(step: string, customer: string | undefined, run = "run-tools-1"): ToolContext {
  return {
    run_id: run,
    step_id: step,
    signal: new AbortController().signal,
    recordLlmUsage: () => undefined,
    ...(customer ? { customer_id: customer } : {}),
  };
}

async function run(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
  const tool = tools.get(name) as ToolDefinition;
  return tool.run(tool.args.parse(args), ctx);
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal");
}

describe("banking tools", () => {
  it("a retried transfer step moves the money once", async () => {
    const before = (await store.account("cust_alice", "acc_alice_chk")).balance_minor;
    const args = {
      from_account_id: "acc_alice_chk",
      payee_id: "payee_alice_sam",
      amount_minor: 1_234,
      currency: "USD",
    };
    const first = (await run("transfer_funds", args, context("E3", "cust_alice"))) as Record<string, unknown>;
    const retried = (await run("transfer_funds", args, context("E3", "cust_alice"))) as Record<
      string,
      unknown
    >;
    expect(first.created).toBe(true);
    expect(retried.created).toBe(false);
    expect(retried.transfer_id).toBe(first.transfer_id);
    expect((await store.account("cust_alice", "acc_alice_chk")).balance_minor).toBe(before - 1_234);
    expect(
      (await store.transfers("cust_alice")).filter((t) => t.transfer_id === first.transfer_id),
    ).toHaveLength(1);

    // The same step of another run is another request.
    await run("transfer_funds", args, context("E3", "cust_alice", "run-tools-2"));
    expect((await store.account("cust_alice", "acc_alice_chk")).balance_minor).toBe(before - 2_468);
  });

  it("a replanned step (another step id) of the same confirmed transfer finds it, and sends nothing twice", async () => {
    const before = (await store.account("cust_alice", "acc_alice_chk")).balance_minor;
    const args = {
      from_account_id: "acc_alice_chk",
      payee_id: "payee_alice_sam",
      amount_minor: 321,
      currency: "USD",
    };
    const first = (await run("transfer_funds", args, context("E3", "cust_alice", "run-replan"))) as Record<
      string,
      unknown
    >;
    const replanned = (await run(
      "transfer_funds",
      args,
      context("E7", "cust_alice", "run-replan"),
    )) as Record<string, unknown>;
    expect(replanned.transfer_id).toBe(first.transfer_id);
    expect(replanned.created).toBe(false);
    expect((await store.account("cust_alice", "acc_alice_chk")).balance_minor).toBe(before - 321);
  });

  it("settles a transfer whose call was aborted: fenced off before it commits, or found done after", async () => {
    const tool = tools.get("transfer_funds") as ToolDefinition;
    /**
     * A store whose transaction request is already sent when the call times out (no clock: the test
     * orders the two). `committed`: the transaction commits, then the timeout fires; otherwise the
     * timeout fires first and the transaction reaches DynamoDB only when released, after the tool
     * has settled the call.
     */
    const late: Array<Promise<unknown>> = [];
    const releases: Array<() => void> = [];
    const timingOutStore = (controller: AbortController, committed: boolean) =>
      Object.assign(Object.create(store) as CoreBankingStore, {
        transfer(
          customer: string,
          t: Parameters<CoreBankingStore["transfer"]>[1],
          options: { signal?: AbortSignal } = {},
        ) {
          const gate = committed ? Promise.resolve() : new Promise<void>((release) => releases.push(release));
          const commit = gate.then(() => store.transfer(customer, t));
          late.push(commit.catch((error: unknown) => error));
          return new Promise((resolve, reject) => {
            options.signal?.addEventListener("abort", () => reject(options.signal?.reason), { once: true });
            const timeout = () => controller.abort(new Error("transfer_funds timed out"));
            if (committed) commit.then(timeout, timeout);
            else timeout();
            commit.then(resolve, reject);
          });
        },
      });
    const args = {
      from_account_id: "acc_alice_chk",
      payee_id: "payee_alice_sam",
      amount_minor: 77,
      currency: "USD",
    };
    const timedOut = async (
      committed: boolean,
      runId: string,
    ): Promise<{ output?: Record<string, unknown>; error?: Error }> => {
      const controller = new AbortController();
      const runners = new Map(
        describeBankingTools(() => timingOutStore(controller, committed)).map((t) => [t.name, t]),
      );
      const transferTool = runners.get("transfer_funds") as ToolDefinition;
      return transferTool
        .run(transferTool.args.parse(args), {
          ...context("E3", "cust_alice", runId),
          signal: controller.signal,
        })
        .then(
          (output) => ({ output: output as Record<string, unknown> }),
          (error: Error) => ({ error }),
        );
    };
    const balance = async () => (await store.account("cust_alice", "acc_alice_chk")).balance_minor;

    // Aborted before the transaction reached the store: fenced off, and the late transaction cannot commit.
    const before = await balance();
    const fenced = await timedOut(false, "run-fence-1");
    expect(fenced.error?.name).toBe("TransferNotMade");
    // The late transaction arrives after the fence, and is refused.
    for (const release of releases) release();
    expect(await late[0]).toMatchObject({ name: "TransferNotMade" });
    expect(await balance()).toBe(before);
    expect(
      (await store.transfers("cust_alice")).some((t) => t.transfer_id.length > 0 && t.amount_minor === 77),
    ).toBe(false);
    // Retried (the same run and details), it is still not made: the fence stands.
    const retried = await tool.run(tool.args.parse(args), context("E3", "cust_alice", "run-fence-1")).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(retried?.name).toBe("TransferNotMade");
    expect(await balance()).toBe(before);

    // Committed before the abort was noticed: the settle finds it done, and says so.
    const done = await timedOut(true, "run-fence-2");
    expect(done.output?.created).toBe(true);
    expect(await balance()).toBe(before - 77);
  });

  it("acts only for the run's customer, whatever the arguments name", async () => {
    const before = (await store.account("cust_sam", "acc_sam_chk")).balance_minor;
    // Alice's run naming Sam's account as the source: to Alice, it does not exist.
    const stolen = await refusal(
      run(
        "transfer_funds",
        { from_account_id: "acc_sam_chk", payee_id: "payee_alice_bob", amount_minor: 100, currency: "USD" },
        context("E9", "cust_alice"),
      ),
    );
    expect(stolen.name).toBe("NotFoundForCustomer");
    // Told to the customer as is: never with the bank's internal id.
    expect(stolen.message).toBe("that account is not one of yours.");
    expect((await store.account("cust_sam", "acc_sam_chk")).balance_minor).toBe(before);
    expect(
      (await refusal(run("get_balance", { account_id: "acc_sam_chk" }, context("E1", "cust_alice")))).name,
    ).toBe("NotFoundForCustomer");
    expect(
      (
        await refusal(
          run("block_card", { card_id: "card_sam_debit", reason: "lost" }, context("E2", "cust_alice")),
        )
      ).name,
    ).toBe("NotFoundForCustomer");
    expect((await store.card("cust_sam", "card_sam_debit")).status).toBe("active");
    // A run without an authenticated customer touches nothing.
    expect(
      (await refusal(run("find_card", { card: { kind: "debit" } }, context("E1", undefined)))).message,
    ).toMatch(/authenticated customer/);
  });

  it("tells a refused transfer with the accounts as the customer knows them, never their ids", async () => {
    const overdraw = await refusal(
      run(
        "transfer_funds",
        {
          from_account_id: "acc_alice_chk",
          payee_id: "payee_alice_sam",
          amount_minor: 900_000,
          currency: "USD",
        },
        context("E3", "cust_alice", "run-tools-refusals"),
      ),
    );
    expect(overdraw.name).toBe("InsufficientFunds");
    expect(overdraw.message).toMatch(
      /^your Everyday Checking ending 1234 has [\d,]+\.\d\d USD available, and the transfer needs 9,000\.00 USD\.$/,
    );
    const currency = await refusal(
      run(
        "transfer_funds",
        { from_account_id: "acc_bob_sav", to_account_id: "acc_bob_chk", amount_minor: 100, currency: "USD" },
        context("E4", "cust_bob", "run-tools-refusals"),
      ),
    );
    expect(currency.name).toBe("TransferRefused");
    expect(currency.message).toBe("your Savings ending 2222 holds EUR, not USD.");
    for (const error of [overdraw, currency]) expect(error.message).not.toMatch(/acc_|payee_|cust_/);
  });

  it("resolves what the customer named to exactly one product", async () => {
    expect(await run("find_card", { card: { last4: "9876" } }, context("E1", "cust_alice"))).toMatchObject({
      card_id: "card_alice_credit",
      kind: "credit",
    });
    expect(await run("find_payee", { name: "sammy" }, context("E1", "cust_alice"))).toEqual({
      payee_id: "payee_alice_sam",
      name: "Sam Lee",
    });
    const missing = await refusal(
      run("find_account", { account: { last4: "2468" } }, context("E1", "cust_alice")),
    );
    expect(missing.name).toBe("NoMatch");
    expect(missing.message).toMatch(
      /no account ending 2468 \(yours: checking account ending 1234, savings account ending 5678\)/,
    );
    const several = await refusal(run("find_account", { account: {} }, context("E1", "cust_alice")));
    expect(several.name).toBe("Ambiguous");
    // A detail nobody gave is said, not guessed.
    expect((await refusal(run("find_card", { card: null }, context("E1", "cust_alice")))).message).toMatch(
      /card was never given/,
    );
  });
});
