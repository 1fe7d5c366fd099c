// The banking profile's pure parts: the plan per intent, the questions a missing detail raises,
// the plan and execution reviewers (good and bad plans), the confirmation and the reply.
import { describe, expect, it } from "vitest";
import { describeBankingTools } from "../../../lambdas/agents/banking/banking-tools.ts";
import { understand } from "../../../lambdas/agents/banking/nlu.ts";
import {
  type BankingResult,
  bankingMetadata,
  bankingPlanSteps,
  bankingQuestions,
  bankingRequest,
  confirmationAnswer,
  confirmationPrompt,
  formatMoney,
  reviewBankingPlan,
  reviewBankingResult,
  slotsFromAnswers,
} from "../../../lambdas/agents/banking/profile.ts";
import { bankingResult } from "../../../lambdas/agents/banking/responder.ts";
import { profileModule } from "../../../lambdas/agents/registry.ts";
import { renderPlannerPrompt } from "../../../lambdas/core/prompts.ts";
import type { EvaluationRequest, Evidence, Plan } from "../../../lambdas/core/types.ts";
import { normalizePlan } from "../../../lambdas/core/validate.ts";

/** The banking tools' descriptions and args schemas (nothing runs here). */
const BANKING_CATALOG = new Map(
  describeBankingTools(() => {
    throw new Error("no store in a unit test");
  }).map((tool) => [tool.name, tool]),
);

function requestOf(message: string): EvaluationRequest {
  const understood = understand(message);
  if (!understood.intent) throw new Error(`no intent in "${message}"`);
  return bankingRequest({ intent: understood.intent, slots: understood.slots }, message, "sess-1");
}

function planOf(request: EvaluationRequest): Plan {
  return normalizePlan(bankingPlanSteps(bankingMetadata(request)), { request, tools: BANKING_CATALOG });
}

function evidence(step_id: string, tool: string, output: unknown, error?: string): Evidence {
  return {
    step_id,
    tool,
    status: error ? "error" : "ok",
    ...(error ? { error } : { output }),
    upstream_errors: [],
    started_at: "2026-11-24T10:00:00.000Z",
    finished_at: "2026-11-24T10:00:00.100Z",
    duration_ms: 100,
  };
}

describe("banking plans", () => {
  it("writes a transfer as lookups, the transfer, then the balance left", () => {
    const plan = planOf(requestOf("send $50 from checking to Sam"));
    expect(plan.steps.map((step) => step.tool)).toEqual([
      "find_account",
      "find_payee",
      "transfer_funds",
      "get_balance",
    ]);
    expect(plan.levels).toEqual([["E1", "E2"], ["E3"], ["E4"]]);
    expect(plan.steps[2]?.args).toEqual({
      from_account_id: "{{E1.account_id}}",
      payee_id: "{{E2.payee_id}}",
      amount_minor: 5_000,
      currency: "USD",
    });
  });

  it("asks for what is missing, and writes the plan again with the answer", () => {
    const request = requestOf("send 50 dollars to Sam");
    expect(bankingQuestions(request).map((question) => question.field)).toEqual(["slots.from_account"]);
    const plan = planOf(request);
    expect(plan.steps[0]?.args).toEqual({ account: null });

    const answered = profileModule("banking_assistant").answered(
      request,
      plan,
      { "slots.from_account": "from my checking, please" },
      { tools: BANKING_CATALOG, maxSteps: 10, scope: undefined },
    );
    expect(answered.plan.steps[0]?.args).toEqual({ account: { kind: "checking" } });
    expect(bankingQuestions(answered.request)).toEqual([]);
    // The answer is merged into the request's details, nothing else of it changes.
    expect(bankingMetadata(answered.request).slots).toMatchObject({ amount: 5_000, to: "Sam" });
  });

  it("requires a confirmation for money movement only", () => {
    expect(requestOf("send $5 from savings to Bob").options?.approval).toBe("required");
    expect(requestOf("I lost my debit card").options?.approval).toBe("none");
    expect(confirmationPrompt(requestOf("send $1,250.75 from savings to Bob"))).toBe(
      'Please confirm: send 1,250.75 USD from your savings account to Bob. Reply "yes" to send it or "no" to cancel.',
    );
    expect(confirmationAnswer("Yes please")).toBe("yes");
    expect(confirmationAnswer("no, don't")).toBe("no");
    expect(confirmationAnswer("maybe later")).toBeUndefined();
    expect(confirmationAnswer("ok wait, make it 20 dollars instead")).toBeUndefined();
    expect(confirmationAnswer("ok stop")).toBe("no");
    expect(formatMoney(123_456_789, "EUR")).toBe("1,234,567.89 EUR");
    expect(formatMoney(5_000, "JPY")).toBe("5,000 JPY");
  });
});

describe("amounts in any currency, and who receives them", () => {
  const answer = (request: EvaluationRequest, answers: Record<string, string>) =>
    profileModule("banking_assistant").answered(request, planOf(request), answers, {
      tools: BANKING_CATALOG,
      maxSteps: 10,
      scope: undefined,
    });

  it("asks only the currency of an amount written without one, and which payee a relation is", () => {
    const request = requestOf("transfer 200 to my mom from checking");
    expect(bankingQuestions(request).map((question) => [question.field, question.question])).toEqual([
      ["slots.currency", "In which currency is the 200: dollars, euros or pounds (or its code)?"],
      ["slots.to", "Which of your payees is your mom? Please tell me their name."],
    ]);
    // "Nope" answers neither question.
    expect(slotsFromAnswers("transfer", { "slots.currency": "nope", "slots.to": "nope" })).toEqual({});

    const answered = answer(request, { "slots.currency": "yen", "slots.to": "Linda Stone" });
    expect(bankingQuestions(answered.request)).toEqual([]);
    // 200 yen are 200 minor units: the amount confirmed is the amount the plan moves.
    expect(answered.plan.steps[2]?.args).toMatchObject({ amount_minor: 200, currency: "JPY" });
    expect(answered.plan.steps[1]?.args).toEqual({ name: "Linda Stone" });
    expect(confirmationPrompt(answered.request)).toBe(
      'Please confirm: send 200 JPY from your checking account to Linda Stone. Reply "yes" to send it or "no" to cancel.',
    );
    expect(reviewBankingPlan(answered.plan, answered.request)).toMatchObject({ approved: true, score: 10 });

    const inDollars = answer(request, { "slots.currency": "dollars", "slots.to": "Linda" });
    expect(inDollars.plan.steps[2]?.args).toMatchObject({ amount_minor: 20_000, currency: "USD" });
    expect(confirmationPrompt(inDollars.request)).toMatch(
      /send 200\.00 USD from your checking account to Linda\./,
    );
  });

  it("confirms and moves an amount in its own currency's minor units", () => {
    const dinars = requestOf("pay KWD 1.250 to Ahmed from savings");
    expect(planOf(dinars).steps[2]?.args).toMatchObject({ amount_minor: 1_250, currency: "KWD" });
    expect(confirmationPrompt(dinars)).toMatch(/send 1\.250 KWD from your savings account to Ahmed/);
    expect(confirmationPrompt(requestOf("send ¥5000 to Kenji from checking"))).toMatch(/send 5,000 JPY /);
  });

  it("asks again for an amount with more decimals than its currency has", () => {
    const request = requestOf("send ¥12.5 to Kenji from checking");
    expect(bankingQuestions(request).map((question) => question.field)).toEqual(["slots.amount"]);
    const answered = answer(request, { "slots.amount": "¥1250" });
    expect(answered.plan.steps[2]?.args).toMatchObject({ amount_minor: 1_250, currency: "JPY" });
  });
});

describe("the banking planner's prompt (hosted models)", () => {
  it("describes the banking tools only, and the request as data", () => {
    const request = requestOf("send $50 from checking to Sam");
    const profile = profileModule("banking_assistant");
    const { system, prompt } = renderPlannerPrompt({
      request,
      tools: BANKING_CATALOG,
      maxSteps: 10,
      ...(profile.plannerPrompt ?? {}),
    });
    expect(system).toMatch(/planner of a bank's customer assistant/);
    for (const tool of BANKING_CATALOG.keys()) expect(prompt).toContain(tool);
    expect(prompt).not.toMatch(/call_preconditions_api|loan/i);
    expect(prompt).toContain('"intent":"transfer"');
    // What the planner writes goes through the same parser and validation as any plan.
    const written = JSON.stringify(bankingPlanSteps(bankingMetadata(request)));
    const plan = profile.planFromText(written, {
      tools: BANKING_CATALOG,
      maxSteps: 10,
      request,
      scope: undefined,
    });
    expect(plan.steps).toHaveLength(4);
    expect(() =>
      profile.planFromText('[{"id":"E1","tool":"call_preconditions_api","args":{}}]', {
        tools: BANKING_CATALOG,
        maxSteps: 10,
        request,
        scope: undefined,
      }),
    ).toThrow(/unknown tool "call_preconditions_api"/);
  });
});

describe("banking reviewers", () => {
  it("scores a complete plan 10 and a plan with a missing detail a little lower", () => {
    const complete = requestOf("send $50 from checking to Sam");
    expect(reviewBankingPlan(planOf(complete), complete)).toMatchObject({ approved: true, score: 10 });
    const missing = requestOf("send 50 dollars to Sam");
    const review = reviewBankingPlan(planOf(missing), missing);
    expect(review.approved).toBe(true);
    expect(review.criteria.completeness).toBe(9);
    expect(review.issues[0]?.message).toMatch(/from_account is not known yet/);
  });

  it("refuses a plan that acts on something not asked for, or moves money unconfirmed", () => {
    const request = requestOf("what's my checking balance");
    const bad = normalizePlan(
      [
        { id: "E1", tool: "find_account", args: { account: { kind: "checking" } } },
        {
          id: "E2",
          tool: "transfer_funds",
          args: { from_account_id: "{{E1.account_id}}", payee_id: "p", amount_minor: 1, currency: "USD" },
        },
      ],
      { request },
    );
    const review = reviewBankingPlan(bad, request);
    expect(review.approved).toBe(false);
    expect(review.issues.map((issue) => issue.criterion)).toEqual(
      expect.arrayContaining(["relevance", "safety"]),
    );
    expect(review.issues.some((issue) => /without asking the customer to confirm/.test(issue.message))).toBe(
      true,
    );
  });

  it("refuses a plan whose transfer differs from what the customer asked (and will confirm)", () => {
    const request = requestOf("send $50 from checking to Sam");
    const steps = bankingPlanSteps(bankingMetadata(request)).map((step) =>
      step.tool === "transfer_funds" ? { ...step, args: { ...step.args, amount_minor: 500_000 } } : step,
    );
    const review = reviewBankingPlan(normalizePlan(steps, { request, tools: BANKING_CATALOG }), request);
    expect(review.approved).toBe(false);
    expect(review.issues[0]?.message).toMatch(/E3 would move 500000 USD .*not the 5000 USD/);
  });

  it("refuses a transfer above the review limit", () => {
    const request = requestOf("send $25,000 from savings to Bob");
    const review = reviewBankingPlan(planOf(request), request);
    expect(review.approved).toBe(false);
    expect(review.issues).toContainEqual(
      expect.objectContaining({
        criterion: "safety",
        severity: "critical",
        message: expect.stringMatching(/above the 10,000\.00/),
      }),
    );
  });

  it("refuses a plan that does not do exactly what the customer confirms", () => {
    const request = requestOf("send $50 from checking to Sam");
    const plan = planOf(request);
    const twice = {
      ...plan,
      steps: [...plan.steps, { ...(plan.steps[2] as (typeof plan.steps)[number]), id: "E9" }],
    };
    expect(reviewBankingPlan(twice, request).issues.map((issue) => issue.message)).toContainEqual(
      expect.stringMatching(/makes 2 transfers/),
    );
    const otherPayee = {
      ...plan,
      steps: plan.steps.map((step) =>
        step.tool === "find_payee" ? { ...step, args: { name: "Bob" } } : step,
      ),
    };
    const review = reviewBankingPlan(otherPayee, request);
    expect(review.approved).toBe(false);
    expect(review.issues.map((issue) => issue.message)).toContainEqual(
      expect.stringMatching(/does not send to the payee or account the customer named/),
    );
    expect(reviewBankingPlan(plan, request).approved).toBe(true);
  });

  it("answers from the evidence, and its reviewer checks the facts the answer rests on", () => {
    const request = requestOf("send $50 from checking to Sam");
    const plan = planOf(request);
    const account = {
      account_id: "a",
      type: "checking",
      name: "Everyday Checking",
      last4: "1234",
      currency: "USD",
    };
    const done = bankingResult(bankingMetadata(request), plan, [
      evidence("E1", "find_account", account),
      evidence("E2", "find_payee", { payee_id: "p", name: "Sam Lee" }),
      evidence("E3", "transfer_funds", {
        transfer_id: "tr_1",
        amount_minor: 5_000,
        currency: "USD",
        to_name: "Sam Lee",
        created: true,
        from: { ...account, balance_minor: 245_000 },
      }),
      evidence("E4", "get_balance", { ...account, balance_minor: 245_000 }),
    ]);
    expect(done.summary).toBe(
      "Done: I sent 50.00 USD to Sam Lee from your Everyday Checking ending 1234. Its balance is now 2,450.00 USD. Reference tr_1.",
    );
    expect(reviewBankingResult(done, [])).toMatchObject({ approved: true, score: 10 });

    const refused = bankingResult(bankingMetadata(request), plan, [
      evidence("E1", "find_account", account),
      evidence("E2", "find_payee", { payee_id: "p", name: "Sam Lee" }),
      evidence(
        "E3",
        "transfer_funds",
        undefined,
        "InsufficientFunds: 100.00 USD available, 50,000.00 USD asked.",
      ),
    ]);
    expect(refused.banking.outcome).toBe("refused");
    expect(refused.summary).toMatch(
      /^I couldn't make the transfer: 100\.00 USD available.*Nothing was sent\.$/,
    );

    // A refusal that names the bank's internal ids is told without them.
    const leaky = bankingResult(bankingMetadata(request), plan, [
      evidence("E1", "find_account", account),
      evidence("E2", "find_payee", { payee_id: "p", name: "Sam Lee" }),
      evidence(
        "E3",
        "transfer_funds",
        undefined,
        'TransferRefused: account "acc_alice_chk" holds EUR, not USD',
      ),
    ]);
    expect(leaky.banking.outcome).toBe("refused");
    expect(leaky.summary).toBe(
      "I couldn't make the transfer: the bank can't make this transfer as asked. Nothing was sent.",
    );
    const broken = bankingResult(bankingMetadata(request), plan, [
      evidence("E1", "find_account", undefined, "Error: connect ECONNREFUSED"),
    ]);
    expect(broken.banking.outcome).toBe("failed");
    expect(broken.summary).not.toMatch(/find_account|ECONNREFUSED/);

    // A "done" answer without the transfer id it claims is below the bar.
    const claimed: BankingResult = { ...done, banking: { ...done.banking, facts: {} } };
    expect(reviewBankingResult(claimed, []).approved).toBe(false);
    expect(reviewBankingResult(claimed, []).criteria.completeness).toBe(1);
    expect(reviewBankingResult(done, [evidence("E3", "transfer_funds", undefined, "boom")]).approved).toBe(
      false,
    );
  });
});
