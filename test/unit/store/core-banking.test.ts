// The core-banking store against dynalite with the twin's transactions layer, through the real SDK.
import { DynamoDBClient, TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_CUSTOMERS } from "../../../examples/banking/customers.ts";
import { type Emulators, startEmulators } from "../../../infra/local/emulators.ts";
import { coreBankingTableDefinition, localDynamoDbClientConfig } from "../../../infra/local/provision.ts";
import {
  CoreBankingStore,
  formatMinor,
  InsufficientFundsError,
  InvalidBankingRequestError,
  last4Of,
  NotFoundForCustomerError,
  TransferRefusedError,
  withConflictRetries,
} from "../../../lambdas/store/core-banking.ts";
import { createActiveTable } from "../../support/tables.ts";

const REGION = "us-east-1";
const NOW = new Date("2025-03-01T12:00:00.000Z");

async function rejectionOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("expected the call to be refused, but it succeeded");
}

describe("CoreBankingStore", () => {
  let emulators: Emulators;
  let client: DynamoDBClient;
  let ddb: DynamoDBDocumentClient;
  let store: CoreBankingStore;
  let tables = 0;
  let table: string;

  beforeAll(async () => {
    emulators = await startEmulators({ dataDir: "/nonexistent-because-not-persisted", persist: false });
    client = new DynamoDBClient(localDynamoDbClientConfig(emulators.dynamodbEndpoint, REGION));
    ddb = DynamoDBDocumentClient.from(client);
  });

  afterAll(async () => {
    client?.destroy();
    await emulators?.stop();
  });

  // A fresh table per test: every test starts from the demo customers as seeded.
  beforeEach(async () => {
    tables += 1;
    table = `core-banking-${tables}`;
    await createActiveTable(client, coreBankingTableDefinition(table));
    store = new CoreBankingStore(ddb, table, () => NOW);
    await store.seed(DEMO_CUSTOMERS);
  });

  const balance = async (customerId: string, accountId: string) =>
    (await store.account(customerId, accountId)).balance_minor;
  const allBalances = async () => {
    let sum = 0;
    for (const customer of DEMO_CUSTOMERS) {
      for (const account of (await store.holdings(customer.customer_id)).accounts) {
        if (account.currency === "USD") sum += account.balance_minor;
      }
    }
    return sum;
  };
  const partitionSize = async (customerId: string) =>
    (
      await ddb.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": `CUSTOMER#${customerId}` },
          ConsistentRead: true,
        }),
      )
    ).Count;

  const aliceToSam = (transferId: string, amountMinor: number) => ({
    transfer_id: transferId,
    from_account_id: "acc_alice_chk",
    to_customer_id: "cust_sam",
    to_account_id: "acc_sam_chk",
    payee_id: "payee_alice_sam",
    amount_minor: amountMinor,
    currency: "USD",
  });

  it("seeds the demo customers idempotently: a reseed resets no balance and adds no item", async () => {
    expect(await store.customer("cust_alice")).toEqual({ customer_id: "cust_alice", name: "Alice Martin" });
    expect(await store.customer("cust_nobody")).toBeUndefined();
    await store.transfer("cust_alice", aliceToSam("t-seed", 10_000));
    const items = await partitionSize("cust_alice");
    await store.seed(DEMO_CUSTOMERS);
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(240_000);
    expect(await balance("cust_sam", "acc_sam_chk")).toBe(40_000);
    expect(await partitionSize("cust_alice")).toBe(items);
  });

  it("lists a customer's holdings, and only theirs", async () => {
    const alice = await store.holdings("cust_alice");
    expect(alice.accounts.map((a) => [a.account_id, a.last4, a.currency, a.balance_minor])).toEqual([
      ["acc_alice_chk", "1234", "USD", 250_000],
      ["acc_alice_sav", "5678", "USD", 1_000_000],
    ]);
    expect(alice.cards.map((c) => [c.card_id, c.kind, c.last4, c.status]).sort()).toEqual([
      ["card_alice_credit", "credit", "9876", "active"],
      ["card_alice_debit", "debit", "4321", "active"],
    ]);
    expect(alice.payees.map((p) => [p.name, p.aliases, p.to_customer_id, p.to_account_id])).toEqual([
      ["Bob Stone", ["Bob"], "cust_bob", "acc_bob_chk"],
      ["Sam Lee", ["Sam", "Sammy"], "cust_sam", "acc_sam_chk"],
    ]);
    for (const item of [...alice.accounts, ...alice.cards, ...alice.payees]) {
      expect(item.customer_id).toBe("cust_alice");
      expect(item).not.toHaveProperty("pk");
      expect(item).not.toHaveProperty("sk");
    }
    const bob = await store.holdings("cust_bob");
    expect(bob.accounts.map((a) => [a.account_id, a.currency])).toEqual([
      ["acc_bob_chk", "USD"],
      ["acc_bob_sav", "EUR"],
    ]);
    expect(bob.payees).toEqual([]);
    expect(await store.holdings("cust_nobody")).toEqual({ accounts: [], cards: [], payees: [] });
  });

  it("reports another customer's account or card exactly like a missing one", async () => {
    const theirs = await rejectionOf(store.account("cust_alice", "acc_sam_chk"));
    const missing = await rejectionOf(store.account("cust_alice", "acc_nobody"));
    expect(theirs).toBeInstanceOf(NotFoundForCustomerError);
    expect(theirs.name).toBe("NotFoundForCustomer");
    expect(theirs.message).toBe(`account "acc_sam_chk" is not one of this customer's accounts`);
    expect(missing.message).toBe(`account "acc_nobody" is not one of this customer's accounts`);
    const card = await rejectionOf(store.card("cust_sam", "card_alice_debit"));
    expect(card.message).toBe(`card "card_alice_debit" is not one of this customer's cards`);
  });

  it("blocks a card once: a repeat changes nothing, another customer's card is refused", async () => {
    const first = await store.blockCard("cust_alice", "card_alice_debit", "lost");
    expect(first).toEqual({
      changed: true,
      card: {
        customer_id: "cust_alice",
        card_id: "card_alice_debit",
        kind: "debit",
        last4: "4321",
        account_id: "acc_alice_chk",
        status: "blocked",
        blocked_reason: "lost",
        blocked_at: NOW.toISOString(),
      },
    });
    const later = new CoreBankingStore(ddb, table, () => new Date("2025-03-02T00:00:00.000Z"));
    const again = await later.blockCard("cust_alice", "card_alice_debit", "stolen");
    expect(again).toEqual({ changed: false, card: first.card });
    const refused = await rejectionOf(store.blockCard("cust_bob", "card_alice_credit", "stolen"));
    expect(refused).toBeInstanceOf(NotFoundForCustomerError);
    expect((await store.card("cust_alice", "card_alice_credit")).status).toBe("active");
    const invalid = await rejectionOf(store.blockCard("cust_alice", "card_alice_credit", "bored" as never));
    expect(invalid).toBeInstanceOf(InvalidBankingRequestError);
    expect(invalid.message).toBe("reason: expected lost, stolen or fraud");
  });

  it("opens a fraud case once per case_id, naming only the customer's own card or account", async () => {
    const first = await store.openFraudCase("cust_alice", {
      case_id: "case-1",
      description: "Two card payments I did not make",
      card_id: "card_alice_credit",
    });
    expect(first).toEqual({
      created: true,
      fraudCase: {
        customer_id: "cust_alice",
        case_id: "case-1",
        description: "Two card payments I did not make",
        card_id: "card_alice_credit",
        status: "open",
        opened_at: NOW.toISOString(),
      },
    });
    const again = await store.openFraudCase("cust_alice", {
      case_id: "case-1",
      description: "said again, in other words",
    });
    expect(again).toEqual({ created: false, fraudCase: first.fraudCase });
    expect(await store.fraudCases("cust_alice")).toEqual([first.fraudCase]);
    const theirs = await rejectionOf(
      store.openFraudCase("cust_alice", { case_id: "case-2", description: "x", account_id: "acc_bob_chk" }),
    );
    expect(theirs).toBeInstanceOf(NotFoundForCustomerError);
    expect(await store.fraudCases("cust_alice")).toHaveLength(1);
  });

  it("opens an account once per account_id, with a zero balance and last four digits from its id", async () => {
    const first = await store.openAccount("cust_sam", {
      account_id: "acc_sam_sav_20250301",
      type: "savings",
      currency: "USD",
    });
    expect(first).toEqual({
      created: true,
      account: {
        customer_id: "cust_sam",
        account_id: "acc_sam_sav_20250301",
        type: "savings",
        name: "Savings",
        last4: "0301",
        currency: "USD",
        balance_minor: 0,
        status: "open",
        opened_at: NOW.toISOString(),
      },
    });
    const again = await store.openAccount("cust_sam", {
      account_id: "acc_sam_sav_20250301",
      type: "checking",
      currency: "EUR",
      name: "Other",
    });
    expect(again).toEqual({ created: false, account: first.account });
    expect((await store.holdings("cust_sam")).accounts).toHaveLength(2);
    expect(last4Of("acc_new")).toMatch(/^\d{4}$/);
    expect(last4Of("acc_new")).toBe(last4Of("acc_new"));
    const invalid = await rejectionOf(
      store.openAccount("cust_sam", { account_id: "acc_x", type: "savings", currency: "usd" }),
    );
    expect(invalid.message).toBe(
      "account.currency: expected an ISO 4217 currency code in capitals, such as USD",
    );
  });

  it("moves money out of one account and into the other in one transfer", async () => {
    const result = await store.transfer("cust_alice", aliceToSam("t-1", 12_345));
    expect(result.created).toBe(true);
    expect(result.transfer).toEqual({
      customer_id: "cust_alice",
      ...aliceToSam("t-1", 12_345),
      status: "completed",
      created_at: NOW.toISOString(),
    });
    expect(result.from).toMatchObject({ account_id: "acc_alice_chk", balance_minor: 237_655 });
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(237_655);
    expect(await balance("cust_sam", "acc_sam_chk")).toBe(42_345);
    expect(await store.transfers("cust_alice")).toEqual([result.transfer]);
    // Between one's own accounts too.
    await store.transfer("cust_alice", {
      transfer_id: "t-own",
      from_account_id: "acc_alice_sav",
      to_customer_id: "cust_alice",
      to_account_id: "acc_alice_chk",
      amount_minor: 100,
      currency: "USD",
    });
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(237_755);
    expect(await balance("cust_alice", "acc_alice_sav")).toBe(999_900);
  });

  it("refuses an overdraft: nothing moves and no transfer is recorded", async () => {
    const error = await rejectionOf(
      store.transfer("cust_bob", {
        transfer_id: "t-over",
        from_account_id: "acc_bob_chk",
        to_customer_id: "cust_sam",
        to_account_id: "acc_sam_chk",
        amount_minor: 4_001,
        currency: "USD",
      }),
    );
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error.name).toBe("InsufficientFunds");
    expect(error.message).toBe(
      'insufficient funds in account "acc_bob_chk": 40.00 USD available, 40.01 USD requested',
    );
    expect(await balance("cust_bob", "acc_bob_chk")).toBe(4_000);
    expect(await balance("cust_sam", "acc_sam_chk")).toBe(30_000);
    expect(await store.transfers("cust_bob")).toEqual([]);
  });

  it("moves money once for a transfer_id, however often the transfer is retried", async () => {
    const first = await store.transfer("cust_alice", aliceToSam("t-retry", 5_000));
    const second = await store.transfer("cust_alice", aliceToSam("t-retry", 5_000));
    const third = await new CoreBankingStore(ddb, table, () => new Date("2025-03-01T12:05:00.000Z")).transfer(
      "cust_alice",
      aliceToSam("t-retry", 5_000),
    );
    expect([first.created, second.created, third.created]).toEqual([true, false, false]);
    expect(second.transfer).toEqual(first.transfer);
    expect(third.transfer).toEqual(first.transfer);
    expect(third.from.balance_minor).toBe(245_000);
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(245_000);
    expect(await balance("cust_sam", "acc_sam_chk")).toBe(35_000);
    expect(await store.transfers("cust_alice")).toHaveLength(1);
  });

  it("refuses another customer's account as the source, like a missing one, and moves nothing", async () => {
    const error = await rejectionOf(
      store.transfer("cust_alice", {
        transfer_id: "t-theirs",
        from_account_id: "acc_sam_chk",
        to_customer_id: "cust_alice",
        to_account_id: "acc_alice_chk",
        amount_minor: 1_000,
        currency: "USD",
      }),
    );
    expect(error).toBeInstanceOf(NotFoundForCustomerError);
    expect(error.message).toBe(`account "acc_sam_chk" is not one of this customer's accounts`);
    expect(await balance("cust_sam", "acc_sam_chk")).toBe(30_000);
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(250_000);
    expect(await store.transfers("cust_alice")).toEqual([]);
  });

  it("refuses a transfer whose currency is not the accounts'", async () => {
    const toEuros = await rejectionOf(
      store.transfer("cust_bob", {
        transfer_id: "t-eur",
        from_account_id: "acc_bob_chk",
        to_customer_id: "cust_bob",
        to_account_id: "acc_bob_sav",
        amount_minor: 1_000,
        currency: "USD",
      }),
    );
    expect(toEuros).toBeInstanceOf(TransferRefusedError);
    expect(toEuros.reason).toBe("destination_currency_mismatch");
    const inEuros = await rejectionOf(
      store.transfer("cust_bob", {
        transfer_id: "t-eur-2",
        from_account_id: "acc_bob_chk",
        to_customer_id: "cust_bob",
        to_account_id: "acc_bob_sav",
        amount_minor: 1_000,
        currency: "EUR",
      }),
    );
    expect(inEuros.name).toBe("TransferRefused");
    expect(inEuros.reason).toBe("currency_mismatch");
    expect(inEuros.message).toBe(`account "acc_bob_chk" holds USD, not EUR`);
    expect(await balance("cust_bob", "acc_bob_chk")).toBe(4_000);
    expect(await balance("cust_bob", "acc_bob_sav")).toBe(50_000);
    expect(await store.transfers("cust_bob")).toEqual([]);
  });

  it("refuses malformed transfers, naming the field, before anything is written", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount_minor: 0 }, "transfer.amount_minor: expected a positive amount"],
      [
        { amount_minor: 10.5 },
        "transfer.amount_minor: expected a whole number of minor units (cents) below 2^53",
      ],
      [
        { amount_minor: 2 ** 53 },
        "transfer.amount_minor: expected a whole number of minor units (cents) below 2^53",
      ],
      [{ amount_minor: "100" }, "transfer.amount_minor: expected a whole number of minor units"],
      [{ currency: "XYZ" }, "transfer.currency: expected an ISO 4217 currency code in capitals, such as USD"],
      [
        { transfer_id: "" },
        "transfer.transfer_id: expected an id: 1 to 128 letters, digits, '_', '.', ':' or '-'",
      ],
    ];
    for (const [patch, message] of cases) {
      const error = await rejectionOf(
        store.transfer("cust_alice", { ...aliceToSam("t-bad", 100), ...patch }),
      );
      expect(error, message).toBeInstanceOf(InvalidBankingRequestError);
      expect(error.message).toBe(message);
    }
    const same = await rejectionOf(
      store.transfer("cust_alice", {
        ...aliceToSam("t-same", 100),
        to_customer_id: "cust_alice",
        to_account_id: "acc_alice_chk",
      }),
    );
    expect(same.reason).toBe("same_account");
    expect(await store.transfers("cust_alice")).toEqual([]);
  });

  it("runs 50 concurrent transfers of 100.00 from 2,500.00: exactly 25 succeed, the rest find no funds", async () => {
    const before = await allBalances();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        store.transfer("cust_alice", aliceToSam(`t-rush-${index}`, 10_000)),
      ),
    );
    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
    expect(succeeded).toHaveLength(25);
    expect(refused).toHaveLength(25);
    for (const error of refused) expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(0);
    expect(await balance("cust_sam", "acc_sam_chk")).toBe(280_000);
    expect(await store.transfers("cust_alice")).toHaveLength(25);
    expect(await allBalances()).toBe(before);
  });

  it("formats minor units in the currency's own decimals", () => {
    expect(formatMinor(250_000, "USD")).toBe("2,500.00 USD");
    expect(formatMinor(5, "EUR")).toBe("0.05 EUR");
    expect(formatMinor(1_234_567, "JPY")).toBe("1,234,567 JPY");
  });
});

describe("withConflictRetries", () => {
  const conflict = () =>
    new TransactionCanceledException({
      message:
        "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]",
      $metadata: {},
      CancellationReasons: [{ Code: "None" }, { Code: "TransactionConflict" }],
    });
  const noPause = async () => undefined;

  it("tries a transaction again while another one holds its items, then gives up with the conflict", async () => {
    let calls = 0;
    const result = await withConflictRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw conflict();
        return "written";
      },
      5,
      noPause,
    );
    expect(result).toBe("written");
    expect(calls).toBe(3);

    let tries = 0;
    const error = await rejectionOf(
      withConflictRetries(
        async () => {
          tries += 1;
          throw conflict();
        },
        5,
        noPause,
      ),
    );
    expect(tries).toBe(5);
    expect(error.name).toBe("TransactionCanceledException");
  });

  it("never retries a refusal (a failed condition is the answer)", async () => {
    let calls = 0;
    const refused = new TransactionCanceledException({
      message: "Transaction cancelled",
      $metadata: {},
      CancellationReasons: [{ Code: "None" }, { Code: "ConditionalCheckFailed" }],
    });
    await rejectionOf(
      withConflictRetries(
        async () => {
          calls += 1;
          throw refused;
        },
        5,
        noPause,
      ),
    );
    expect(calls).toBe(1);
  });
});
