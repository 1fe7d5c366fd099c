// The banking assistant with a hosted planner model (a scripted one standing in for it): the model
// writes its reading of the message ({intent, slots}) and the plan; its reading fills what the
// patterns missed, and an unusable reading leaves the patterns' reading in place.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { mintToken } from "../../lambdas/auth/tokens.ts";
import type { ScriptedProvider } from "../../lambdas/llm/scripted.ts";
import { CoreBankingStore } from "../../lambdas/store/core-banking.ts";

const SECRET = "banking-model-test-secret-0123456789abcdef";
let twin: Twin;
let bank: CoreBankingStore;

const transferPlan = [
  { id: "E1", tool: "find_account", args: { account: { kind: "checking" } } },
  { id: "E2", tool: "find_payee", args: { name: "Sam" } },
  {
    id: "E3",
    tool: "transfer_funds",
    args: {
      from_account_id: "{{E1.account_id}}",
      payee_id: "{{E2.payee_id}}",
      amount_minor: 5000,
      currency: "USD",
    },
  },
  { id: "E4", tool: "get_balance", args: { account_id: "{{E1.account_id}}" }, depends_on: ["E3"] },
];

function withAmount(amount: number | null, currency: string | null = "USD") {
  return transferPlan.map((step) =>
    step.tool === "transfer_funds"
      ? { ...step, args: { ...step.args, amount_minor: amount, currency } }
      : step,
  );
}

beforeAll(async () => {
  const file = join(tmpdir(), `banking-model-${process.pid}.json`);
  writeFileSync(
    file,
    JSON.stringify([
      {
        purpose: "planner",
        match: "fifty bucks to sam",
        text: JSON.stringify({
          intent: "transfer",
          slots: { amount: 5000, currency: "USD", from_account: { kind: "checking" }, to: "Sam", card: null },
          plan: transferPlan,
        }),
      },
      {
        purpose: "planner",
        match: "a tenner to sam",
        // An amount as text: not a reading the assistant may act on.
        text: JSON.stringify({ intent: "transfer", slots: { amount: "10" }, plan: withAmount(null, null) }),
      },
      {
        purpose: "planner",
        match: "twenty dollars to sam",
        // The reading says 20.00, the plan would move 5,000.00: the customer would confirm the one
        // and be charged the other.
        text: JSON.stringify({
          intent: "transfer",
          slots: { amount: 2000, currency: "USD", from_account: { kind: "checking" }, to: "Sam" },
          plan: withAmount(500_000),
        }),
      },
    ]),
  );
  twin = await startTwin({
    persist: false,
    env: {
      REWOO_CUSTOMER_TOKEN_SECRET: SECRET,
      REWOO_LLM_PROVIDER: "scripted",
      REWOO_SCRIPTED_RESPONSES: file,
    },
  });
  bank = new CoreBankingStore(
    twin.services.clients.ddb,
    twin.services.config.coreBankingTable as string,
    () => new Date(),
  );
});

afterAll(async () => {
  await twin?.stop();
});

async function say(message: string, session?: string) {
  const response = await fetch(new URL("/v1/chat", twin.urls.api), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-customer-token": mintToken(
        { customer: { current: SECRET } },
        { kind: "customer", customer_id: "cust_alice" },
        600,
      ),
    },
    body: JSON.stringify({ message, ...(session ? { session_id: session } : {}) }),
  });
  return (await response.json()) as { session_id: string; reply: string; state: string; run_id?: string };
}

describe("the banking assistant with a hosted planner", () => {
  it("takes the model's reading where the patterns missed the amount", async () => {
    const before = (await bank.account("cust_alice", "acc_alice_chk")).balance_minor;
    const first = await say("send fifty bucks to sam from checking");
    // The patterns read no amount; the model did, so nothing is asked and the transfer waits for "yes".
    expect(first.state).toBe("awaiting_approval");
    // The confirmation names what will move, as the customer's holdings name it.
    expect(first.reply).toMatch(/send 50\.00 USD from your checking account ending 1234 to Sam Lee/);
    const run = await twin.services.runs.getMeta(first.run_id as string);
    expect(run.request.metadata).toMatchObject({
      intent: "transfer",
      slots: { amount: 5000, currency: "USD" },
    });

    const planner = twin.services.llm.planner.provider as ScriptedProvider;
    const prompt = planner.received.find((call) => call.purpose === "planner")?.prompt ?? "";
    expect(prompt).toContain("transfer_funds");
    expect(prompt).not.toContain("call_preconditions_api");

    const done = await say("yes", first.session_id);
    expect(done.reply).toMatch(/sent 50\.00 USD to Sam Lee/);
    expect((await bank.account("cust_alice", "acc_alice_chk")).balance_minor).toBe(before - 5_000);
  });

  it("keeps the patterns' reading when the model's is unusable, and asks", async () => {
    const first = await say("send a tenner to sam from checking");
    expect(first.state).toBe("awaiting_clarification");
    expect(first.reply).toMatch(/how much/i);
    const run = await twin.services.runs.getMeta(first.run_id as string);
    expect((run.request.metadata as { slots: Record<string, unknown> }).slots.amount).toBeUndefined();
  });

  it("never runs a plan whose transfer differs from what the customer would confirm", async () => {
    const before = (await bank.account("cust_alice", "acc_alice_chk")).balance_minor;
    const first = await say("send twenty dollars to sam from checking");
    expect(first.state).toBe("completed");
    expect(first.reply).toMatch(/A colleague will double-check this request/);
    const run = await twin.waitForRun(first.run_id as string);
    expect(run.status).toBe("NEEDS_REVIEW");
    expect(run.evidence).toEqual([]);
    expect(run.plan_review?.issues.some((issue) => /would move 500000 USD/.test(issue.message))).toBe(true);
    expect((await bank.account("cust_alice", "acc_alice_chk")).balance_minor).toBe(before);
  });
});
