// Money moves once, on the customer's own yes: the banking assistant through the twin, for each way
// it could move money wrongly — an answer that is more than a yes, a transfer that outlives its
// timeout, a cancel while it is being sent, an operator's approval, another customer's session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { mintToken } from "../../lambdas/auth/tokens.ts";
import { CoreBankingStore } from "../../lambdas/store/core-banking.ts";

let twin: Twin;
let bank: CoreBankingStore;

beforeAll(async () => {
  twin = await startTwin({
    persist: false,
    env: {
      // A transfer of exactly 7.77 times out before it starts; one of 8.88 is slow but in time.
      REWOO_TOOL_TIMEOUT_MS: "transfer_funds=2000",
      REWOO_CHAT_TRANSCRIPTS: "customer_only",
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

const tokenOf = (customer: string) =>
  mintToken(twin.tokenKeys, { kind: "customer", customer_id: customer }, 3600);

interface Reply {
  session_id: string;
  reply: string;
  state: string;
  run_id?: string;
}

async function say(message: string, session?: string, customer = "cust_sam"): Promise<Reply> {
  const response = await fetch(new URL("/v1/chat", twin.urls.api), {
    method: "POST",
    headers: { "content-type": "application/json", "x-customer-token": tokenOf(customer) },
    body: JSON.stringify({ message, ...(session ? { session_id: session } : {}) }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Reply;
}

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(new URL(path, twin.urls.api), {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const samChecking = async () => (await bank.account("cust_sam", "acc_sam_chk")).balance_minor;
const samTransfers = async () => (await bank.transfers("cust_sam")).length;

/** A transfer from Sam's checking to Alice, waiting for Sam's confirmation. */
async function pendingTransfer(amount: string): Promise<Reply> {
  const asked = await say(`send ${amount} to Alice from my checking`);
  expect(asked.state).toBe("awaiting_approval");
  expect(asked.reply).toMatch(/Please confirm/);
  return asked;
}

describe("money moves once, on the customer's own yes", () => {
  it.each(["ok stop", "sure, but wait", "yes no", "ok hold on"])(
    '"%s" does not confirm a transfer',
    async (answer) => {
      const before = await samChecking();
      const asked = await pendingTransfer("$10");
      const reply = await say(answer, asked.session_id);
      expect(reply.state).not.toBe("completed");
      expect(await samChecking()).toBe(before);
      await say("cancel", asked.session_id);
      expect(await samChecking()).toBe(before);
    },
  );

  it('"ok wait, make it 20 dollars instead" asks again for 20 and sends only 20, once', async () => {
    const before = await samChecking();
    const transfers = await samTransfers();
    const asked = await pendingTransfer("$10");
    const changed = await say("ok wait, make it 20 dollars instead", asked.session_id);
    expect(changed.state).toBe("awaiting_approval");
    expect(changed.reply).toMatch(/send 20\.00 USD/);
    expect(changed.run_id).not.toBe(asked.run_id);
    expect(await samChecking()).toBe(before);
    expect((await twin.waitForRun(asked.run_id as string)).status).toBe("CANCELLED");

    const sent = await say("yes", asked.session_id);
    expect(sent.state).toBe("completed");
    expect(sent.reply).toMatch(/sent 20\.00 USD to Alice Martin/);
    expect(await samChecking()).toBe(before - 2_000);
    expect(await samTransfers()).toBe(transfers + 1);
  });

  it('"sure, but first what is my savings balance?" answers the question and sends nothing', async () => {
    const before = await samChecking();
    const asked = await pendingTransfer("$10");
    const reply = await say("sure, but first what is my savings balance?", asked.session_id);
    expect(reply.reply).not.toMatch(/sent/i);
    expect(await samChecking()).toBe(before);
    expect((await twin.waitForRun(asked.run_id as string)).status).toBe("CANCELLED");
  });

  it("an operator cannot answer or confirm a customer's request, nor cancel it through the session", async () => {
    const asked = await pendingTransfer("$10");
    const runId = asked.run_id as string;
    const approval = await api("POST", `/v1/runs/${runId}/approval`, { decision: "approve" });
    expect(approval.status).toBe(409);
    expect((approval.body.error as { code: string }).code).toBe("customer_decision_required");
    const edit = await api("POST", `/v1/runs/${runId}/approval`, { decision: "edit", plan: [] });
    expect(edit.status).toBe(409);
    const input = await api("POST", `/v1/runs/${runId}/input`, { answers: { "slots.to": "Bob" } });
    expect(input.status).toBe(409);
    // The session is the customer's: read only with their token, cancelled only by them.
    expect((await api("GET", `/v1/sessions/${asked.session_id}`)).status).toBe(403);
    expect((await api("POST", `/v1/sessions/${asked.session_id}/cancel`)).status).toBe(403);
    const own = await api("GET", `/v1/sessions/${asked.session_id}`, undefined, {
      "x-customer-token": tokenOf("cust_sam"),
    });
    expect(own.status).toBe(200);
    // A loan evaluation cannot join the customer's conversation (its "yes" would approve it).
    const loan = await api("POST", "/v1/evaluate-conditions", {
      session_id: asked.session_id,
      metadata: { loan_program: "Flex Supreme", classification: "1120 Corporate Tax Return" },
      s3_pdf_paths: ["samples/tax-return.pdf"],
    });
    expect(loan.status).toBe(409);
    expect(JSON.stringify(loan.body)).toMatch(/session_id/);
    // Still waiting for the customer, and nothing moved.
    expect((await twin.services.runs.getMeta(runId)).status).toBe("AWAITING_APPROVAL");
    await say("no", asked.session_id);
  });
});

describe("a transfer that outlives its timeout", () => {
  it("is sent at most once, never replanned into a second transfer, and the reply matches the store", async () => {
    const before = await samChecking();
    const transfers = await samTransfers();
    twin.services.config.toolLatencyMs.transfer_funds = 2_500;
    try {
      const asked = await pendingTransfer("$7.77");
      const reply = await say("yes", asked.session_id);
      expect(reply.state).toBe("completed");
      const run = await twin.waitForRun(asked.run_id as string);
      // The step timed out before the transfer began: nothing was sent, and it was not planned again.
      expect(run.replans ?? 0).toBe(0);
      expect(run.plan?.steps.filter((step) => step.tool === "transfer_funds")).toHaveLength(1);
      expect(await samTransfers()).toBe(transfers);
      expect(await samChecking()).toBe(before);
      expect(reply.reply).toMatch(/couldn't make the transfer/i);
      expect(reply.reply).toMatch(/nothing was sent/i);
    } finally {
      delete twin.services.config.toolLatencyMs.transfer_funds;
    }
  });

  it('"cancel" while a confirmed transfer is being sent is refused, and the reply says it was sent', async () => {
    const before = await samChecking();
    twin.services.config.toolLatencyMs.transfer_funds = 1_200;
    try {
      const asked = await pendingTransfer("$8.88");
      const confirming = say("yes", asked.session_id);
      const runId = asked.run_id as string;
      await expect
        .poll(async () => (await twin.services.runs.getMeta(runId)).status, { timeout: 10_000, interval: 50 })
        .toBe("RUNNING");
      const cancel = await say("cancel", asked.session_id);
      expect(cancel.reply).toMatch(/couldn't cancel the transfer|can't cancel the transfer/i);
      expect(cancel.reply).not.toMatch(/nothing (else )?was (changed|sent)/i);
      const sent = await confirming;
      expect(sent.reply).toMatch(/sent 8\.88 USD/);
      expect((await twin.waitForRun(runId)).status).toBe("SUCCEEDED");
      expect(await samChecking()).toBe(before - 888);
    } finally {
      delete twin.services.config.toolLatencyMs.transfer_funds;
    }
  });
});

describe("a transfer is checked before the customer is asked to confirm it", () => {
  it("refuses what the balance cannot cover, saying what is available, without asking", async () => {
    const before = await samChecking();
    const reply = await say("send $20,000 to Alice from my checking");
    expect(reply.reply).toMatch(/can't make that transfer/i);
    expect(reply.reply).toMatch(/checking account ending 2468 has [\d,]+\.\d\d USD available/);
    expect(reply.reply).not.toMatch(/Please confirm/);
    const run = await twin.waitForRun(reply.run_id as string);
    expect(run.status).toBe("REJECTED");
    expect(run.approval).toBeUndefined();
    expect(await samChecking()).toBe(before);
  });

  it("refuses a currency the account does not hold", async () => {
    const reply = await say("move 10 euros from my checking to my savings", undefined, "cust_bob");
    expect(reply.reply).toMatch(/holds USD, so it cannot send EUR/);
    expect((await twin.waitForRun(reply.run_id as string)).status).toBe("REJECTED");
  });

  it("asks which payee when the one named is not the customer's, naming theirs", async () => {
    const asked = await say("send $10 to Zed from my checking");
    expect(asked.state).toBe("awaiting_clarification");
    expect(asked.reply).toMatch(/don't see a payee named Zed/);
    expect(asked.reply).toMatch(/Alice Martin/);
    const confirm = await say("Alice", asked.session_id);
    expect(confirm.state).toBe("awaiting_approval");
    expect(confirm.reply).toMatch(/send 10\.00 USD .* to Alice/);
    await say("no", asked.session_id);
  });

  it("asks which account when the customer has two of the kind they named, and asks again if the answer is not one", async () => {
    const account = (account_id: string, last4: string, balance_minor: number) => ({
      account_id,
      type: "savings" as const,
      name: "Savings",
      last4,
      currency: "USD",
      balance_minor,
      status: "open" as const,
      opened_at: "2026-01-01T00:00:00.000Z",
    });
    await bank.seed([
      {
        customer_id: "cust_dana",
        name: "Dana Reyes",
        accounts: [account("acc_dana_sav1", "2001", 10_000), account("acc_dana_sav2", "2002", 90_000)],
        cards: [],
        payees: [
          {
            payee_id: "payee_dana_sam",
            name: "Sam Lee",
            aliases: [],
            to_customer_id: "cust_sam",
            to_account_id: "acc_sam_chk",
          },
        ],
      },
    ]);
    const asked = await say("send $50 to Sam from my savings", undefined, "cust_dana");
    expect(asked.state).toBe("awaiting_clarification");
    expect(asked.reply).toMatch(/more than one savings account/);
    expect(asked.reply).toMatch(/ending 2001 or .* ending 2002/);
    const again = await say("the one ending 9999", asked.session_id, "cust_dana");
    expect(again.state).toBe("awaiting_clarification");
    expect(again.reply).toMatch(/ending 9999/);
    const confirm = await say("ending 2002", asked.session_id, "cust_dana");
    expect(confirm.state).toBe("awaiting_approval");
    expect(confirm.reply).toMatch(/send 50\.00 USD from your savings account ending 2002 to Sam/);
    const sent = await say("yes", asked.session_id, "cust_dana");
    expect(sent.reply).toMatch(/sent 50\.00 USD to Sam Lee/);
    expect((await bank.account("cust_dana", "acc_dana_sav2")).balance_minor).toBe(85_000);
    expect((await bank.account("cust_dana", "acc_dana_sav1")).balance_minor).toBe(10_000);
  });
});
