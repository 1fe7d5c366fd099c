// The banking assistant through the twin: POST /v1/chat on the same workflow, API, stores and
// worker as the loan agent, acting on the seeded core-banking store. Every intent, with and without
// its details; the original assistant's example conversations; confirmation before money moves;
// refusals (overdraft, someone else's account); who may continue a session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { mintToken } from "../../lambdas/auth/tokens.ts";
import { CoreBankingStore } from "../../lambdas/store/core-banking.ts";

let twin: Twin;
let bank: CoreBankingStore;

beforeAll(async () => {
  twin = await startTwin({ persist: false });
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
  plan_review_score?: number;
  execution_review_score?: number;
  run_id?: string;
}

async function say(
  message: string,
  options: { session?: string; customer?: string; token?: string | null } = {},
): Promise<{ status: number; body: Reply & { errors?: Array<{ field: string }> } }> {
  const token = options.token === undefined ? tokenOf(options.customer ?? "cust_alice") : options.token;
  const response = await fetch(new URL("/v1/chat", twin.urls.api), {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "x-customer-token": token } : {}) },
    body: JSON.stringify({ message, ...(options.session ? { session_id: options.session } : {}) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as Reply & { errors?: Array<{ field: string }> },
  };
}

async function balance(customer: string, account: string): Promise<number> {
  return (await bank.account(customer, account)).balance_minor;
}

describe("the banking assistant", () => {
  it('"I lost my card" asks which card, then blocks it', async () => {
    const first = await say("I lost my card");
    expect(first.status).toBe(200);
    expect(first.body.state).toBe("awaiting_clarification");
    expect(first.body.reply).toMatch(/which card/i);
    expect(first.body.plan_review_score).toBeGreaterThanOrEqual(5);
    expect(first.body.execution_review_score).toBeUndefined();

    const second = await say("the debit one", { session: first.body.session_id });
    expect(second.body.state).toBe("completed");
    expect(second.body.reply).toMatch(/blocked your debit card ending 4321/);
    expect(second.body.execution_review_score).toBeGreaterThanOrEqual(5);
    expect(second.body.run_id).toBe(first.body.run_id);
    expect((await bank.card("cust_alice", "card_alice_debit")).status).toBe("blocked");
    // The credit card was not touched.
    expect((await bank.card("cust_alice", "card_alice_credit")).status).toBe("active");

    const run = await twin.waitForRun(first.body.run_id as string);
    expect(run.profile).toBe("banking_assistant");
    expect(run.status).toBe("SUCCEEDED");
    expect(run.plan?.steps.map((step) => step.tool)).toEqual(["find_card", "block_card"]);
  });

  it('"send 50 dollars to Sam" asks from which account, asks to confirm, then transfers', async () => {
    const aliceBefore = await balance("cust_alice", "acc_alice_chk");
    const samBefore = await balance("cust_sam", "acc_sam_chk");
    const first = await say("send 50 dollars to Sam");
    expect(first.body.state).toBe("awaiting_clarification");
    expect(first.body.reply).toMatch(/from which account/i);

    const second = await say("from my checking", { session: first.body.session_id });
    expect(second.body.state).toBe("awaiting_approval");
    // The confirmation names what will move: the account and payee the holdings resolved.
    expect(second.body.reply).toMatch(
      /confirm: send 50\.00 USD from your checking account ending 1234 to Sam Lee/i,
    );
    // Nothing moved before the "yes".
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(aliceBefore);

    const third = await say("yes", { session: first.body.session_id });
    expect(third.body.state).toBe("completed");
    expect(third.body.reply).toMatch(/sent 50\.00 USD to Sam Lee/);
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(aliceBefore - 5_000);
    expect(await balance("cust_sam", "acc_sam_chk")).toBe(samBefore + 5_000);
    expect(third.body.reply).toMatch(/balance is now [\d,]+\.\d\d USD/);
    const transfers = await bank.transfers("cust_alice");
    expect(transfers.filter((transfer) => transfer.amount_minor === 5_000)).toHaveLength(1);
  });

  it('a declined confirmation ("no") sends nothing', async () => {
    const before = await balance("cust_alice", "acc_alice_sav");
    const first = await say("transfer $20 from savings to Bob");
    expect(first.body.state).toBe("awaiting_approval");
    const second = await say("no", { session: first.body.session_id });
    expect(second.body.reply).toMatch(/nothing was sent/i);
    expect((await twin.waitForRun(first.body.run_id as string)).status).toBe("REJECTED");
    expect(await balance("cust_alice", "acc_alice_sav")).toBe(before);
  });

  it("refuses a transfer that would overdraw, and nothing moves", async () => {
    const before = await balance("cust_bob", "acc_bob_chk");
    const first = await say("send $500 from checking to Alice", { customer: "cust_bob" });
    // Bob's checking holds 40.00: refused at once, before any payee is asked for, and nothing moves.
    expect(first.body.state).toBe("completed");
    expect(first.body.reply).toMatch(/can't make that transfer: .*40\.00 USD available/);
    expect(await balance("cust_bob", "acc_bob_chk")).toBe(before);

    // An overdraft is refused before the customer is asked to confirm it, saying what is available.
    const aliceBefore = await balance("cust_alice", "acc_alice_chk");
    const big = await say("send $9,000 from checking to Sam");
    expect(big.body.state).toBe("completed");
    expect(big.body.reply).toMatch(/can't make that transfer: .*ending 1234 has [\d,]+\.\d\d USD available/i);
    expect(big.body.reply).toMatch(/nothing was sent/i);
    expect(await balance("cust_alice", "acc_alice_chk")).toBe(aliceBefore);
  });

  it("reads a balance, opens an account and a fraud case", async () => {
    const balanceReply = await say("what's the balance on my savings account?");
    expect(balanceReply.body.state).toBe("completed");
    expect(balanceReply.body.reply).toMatch(/Savings ending 5678 has a balance of [\d,]+\.\d\d USD/);

    const open = await say("I want to open a new account");
    expect(open.body.reply).toMatch(/checking or savings/i);
    const opened = await say("savings please", { session: open.body.session_id });
    expect(opened.body.reply).toMatch(/new savings account ending \d{4} is open/);
    const { accounts } = await bank.holdings("cust_alice");
    expect(accounts.filter((account) => account.type === "savings")).toHaveLength(2);

    const fraud = await say("there are charges on my credit card I didn't make");
    expect(fraud.body.state).toBe("completed");
    expect(fraud.body.reply).toMatch(/opened fraud case fc_[0-9a-f]+ for your card/);
    expect(await bank.fraudCases("cust_alice")).toHaveLength(1);
  });

  it("acts at once when the message names everything, and asks for each missing detail otherwise", async () => {
    const blocked = await say("my credit card ending 9876 was stolen", { customer: "cust_alice" });
    expect(blocked.body.state).toBe("completed");
    expect(blocked.body.reply).toMatch(/blocked your credit card ending 9876/);
    expect((await bank.card("cust_alice", "card_alice_credit")).blocked_reason).toBe("stolen");

    const fraud = await say("I want to report fraud", { customer: "cust_sam" });
    expect(fraud.body.state).toBe("awaiting_clarification");
    expect(fraud.body.reply).toMatch(/what happened/i);
    const reported = await say("two withdrawals of $200 I never made, yesterday at an ATM in Lyon", {
      session: fraud.body.session_id,
      customer: "cust_sam",
    });
    expect(reported.body.state).toBe("completed");
    expect(reported.body.reply).toMatch(/opened fraud case fc_/);
    const [fraudCase] = await bank.fraudCases("cust_sam");
    expect(fraudCase?.description).toMatch(/two withdrawals of \$200/);

    const balance = await say("what's my balance?", { customer: "cust_bob" });
    expect(balance.body.state).toBe("awaiting_clarification");
    const answered = await say("the savings one", { session: balance.body.session_id, customer: "cust_bob" });
    expect(answered.body.reply).toMatch(/Savings ending 2222 has a balance of 500\.00 EUR/);
  });

  it("never acts on another customer's account, whatever the message names", async () => {
    // Sam's checking account ends 2468: to Alice, it does not exist.
    const reply = await say("what is the balance of my account ending 2468");
    expect(reply.body.state).toBe("completed");
    expect(reply.body.reply).toMatch(/no account ending 2468/);
    expect(reply.body.reply).not.toContain("300.00");
  });

  it("cancels a pending request, and keeps sessions to their customer", async () => {
    const first = await say("I need to block my card");
    expect(first.body.state).toBe("awaiting_clarification");
    const other = await say("the credit one", { session: first.body.session_id, customer: "cust_bob" });
    expect(other.status).toBe(404);
    const cancelled = await say("cancel", { session: first.body.session_id });
    expect(cancelled.body.state).toBe("idle");
    expect((await twin.waitForRun(first.body.run_id as string)).status).toBe("CANCELLED");

    expect((await say("hello", { token: null })).status).toBe(401);
    expect((await say("hello", { token: "not.a-token" })).status).toBe(401);
    // Only customer tokens: a run's subscribe token or an operator token is refused, naming the audience.
    const runToken = mintToken(twin.tokenKeys, { kind: "run", run_id: first.body.run_id as string }, 600);
    const refusedRun = await say("hello", { token: runToken });
    expect(refusedRun.status).toBe(401);
    expect(JSON.stringify(refusedRun.body)).toContain("wrong audience: a run token, expected customer");
    const refusedOperator = await say("hello", { token: twin.operatorToken });
    expect(JSON.stringify(refusedOperator.body)).toContain(
      "wrong audience: an operator token, expected customer",
    );
    // A customer token signed with another audience's key (whoever holds the operator key is no customer).
    const forged = mintToken(
      { customer: twin.tokenKeys.operator },
      { kind: "customer", customer_id: "cust_alice" },
      600,
    );
    const refusedForged = await say("hello", { token: forged });
    expect(refusedForged.status).toBe(401);
    expect(JSON.stringify(refusedForged.body)).toContain(
      "neither the current nor the previous customer token key",
    );
    const help = await say("what's the weather like?");
    expect(help.body.state).toBe("idle");
    expect(help.body.reply).toMatch(/I can help with/);
    expect(help.body.run_id).toBeUndefined();
  });

  it("keeps the conversation as an ordered transcript", async () => {
    const first = await say("what is my checking balance");
    const url = new URL(`/v1/sessions/${first.body.session_id}?format=jsonl`, twin.urls.api);
    // The customer reads their own conversation with their token; another customer's token finds nothing.
    expect((await fetch(url, { headers: { "x-customer-token": tokenOf("cust_bob") } })).status).toBe(404);
    const response = await fetch(url, { headers: { "x-customer-token": tokenOf("cust_alice") } });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const messages = lines.filter((line) => line.type === "message");
    expect(messages.map((line) => line.role)).toEqual(["user", "assistant"]);
    expect(messages[0].text).toBe("what is my checking balance");
    // The reply is recorded after the run's ending, so the transcript reads in the order it happened.
    expect(messages[1].state).toBe("completed");
    expect(lines.at(-1)).toMatchObject({ type: "message", role: "assistant" });
    expect(lines.map((line) => line.seq)).toEqual(lines.map((_, index) => index + 1));
    expect(lines.some((line) => line.type === "review" && line.target === "plan")).toBe(true);
  });
});
