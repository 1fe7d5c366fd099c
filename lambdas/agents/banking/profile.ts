// The banking assistant as an agent profile: what a chat request becomes on the engine (the
// request a run carries, the ReWOO plan of banking tools for each intent, the questions a missing
// detail raises, the confirmation a money movement needs) and how its plans and answers are
// reviewed. Pure: the tools that act on the core-banking store live in lambdas/tools.
import * as z from "zod";
import { balancedJsonEnd } from "../../core/embedded-json.ts";
import { lazily } from "../../core/lazy.ts";
import { scoreReview } from "../../core/review.ts";
import type {
  EvaluationRequest,
  Evidence,
  InputQuestion,
  Plan,
  RawStep,
  Review,
  ReviewIssue,
  RunResult,
} from "../../core/types.ts";
import { formatMoney } from "./money.ts";
import {
  BANKING_INTENTS,
  type BankingIntent,
  mergeSlots,
  missingSlots,
  type ProductReference,
  readAnswer,
  readConfirmation,
  type SlotName,
  type Slots,
  withResolvedAmount,
} from "./nlu.ts";

export { formatMoney } from "./money.ts";

export const BANKING_PROFILE = "banking_assistant";

export const BANKING_TOOLS = {
  findCard: "find_card",
  blockCard: "block_card",
  openFraudCase: "open_fraud_case",
  openAccount: "open_account",
  findAccount: "find_account",
  getBalance: "get_balance",
  findPayee: "find_payee",
  transferFunds: "transfer_funds",
} as const;
export const BANKING_TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(BANKING_TOOLS));

/** Money leaves an account only through these; each such plan waits for the customer's "yes". */
const MONEY_MOVING = new Set<string>([BANKING_TOOLS.transferFunds]);

/** A single transfer above this (in minor units of any currency) is a safety issue in review. */
export const TRANSFER_REVIEW_LIMIT_MINOR = 1_000_000;

/** What a banking run's request carries in `metadata`: the understood message. */
export interface BankingRequestMetadata {
  intent: BankingIntent;
  slots: Slots;
  /** Questions the check against the customer's holdings asks instead of the plain ones (which account, which payee). */
  asked?: Partial<Record<SlotName, InputQuestion>>;
  /** What the customer confirms, as their holdings name it (set by the check before confirmation). */
  confirm?: { from: string; to?: string };
  /** The message that made the request, as the customer wrote it. */
  message: string;
}

/** The run request of a chat message: the same request shape as a loan run, no documents. */
export function bankingRequest(
  understood: { intent: BankingIntent; slots: Slots },
  message: string,
  sessionId: string,
): EvaluationRequest {
  const metadata: BankingRequestMetadata = { intent: understood.intent, slots: understood.slots, message };
  return {
    metadata: metadata as unknown as Record<string, unknown>,
    instructions: message,
    s3_pdf_paths: [],
    session_id: sessionId,
    options: {
      clarification: "ask",
      approval: movesMoney(understood.intent) ? "required" : "none",
    },
  };
}

export function movesMoney(intent: BankingIntent): boolean {
  return intent === "transfer";
}

/** The banking metadata of a run's request; throws naming the field when it is not one. */
export function bankingMetadata(request: EvaluationRequest): BankingRequestMetadata {
  const metadata = request.metadata as Partial<BankingRequestMetadata>;
  if (!BANKING_INTENTS.includes(metadata.intent as BankingIntent)) {
    throw new Error(`metadata.intent: expected one of ${BANKING_INTENTS.join(", ")}`);
  }
  if (metadata.slots === null || typeof metadata.slots !== "object" || Array.isArray(metadata.slots)) {
    throw new Error("metadata.slots: expected an object of the request's details");
  }
  return {
    intent: metadata.intent as BankingIntent,
    // An amount written without its currency is in minor units once the currency is known.
    slots: withResolvedAmount(metadata.slots),
    ...(metadata.asked && typeof metadata.asked === "object" ? { asked: metadata.asked } : {}),
    ...(metadata.confirm && typeof metadata.confirm === "object" ? { confirm: metadata.confirm } : {}),
    message: typeof metadata.message === "string" ? metadata.message : "",
  };
}

// ---------------------------------------------------------------- plans

/**
 * The plan for a request, as the offline planner writes it: look up what the customer named, then
 * act on it, then read back what changed. A detail still missing is `null` in the args: the run
 * asks for it before any tool runs, and the plan is written again with the answer.
 */
export function bankingPlanSteps(metadata: BankingRequestMetadata): RawStep[] {
  const { intent, slots, message } = metadata;
  switch (intent) {
    case "lost_stolen_card":
      return [
        step("E1", BANKING_TOOLS.findCard, { card: slots.card ?? null }, "Find the card the customer means"),
        step(
          "E2",
          BANKING_TOOLS.blockCard,
          { card_id: "{{E1.card_id}}", reason: /\bstol/i.test(message) ? "stolen" : "lost" },
          "Block the card so nobody can use it",
        ),
      ];
    case "report_fraud":
      return slots.card
        ? [
            step("E1", BANKING_TOOLS.findCard, { card: slots.card }, "Find the card the report is about"),
            step(
              "E2",
              BANKING_TOOLS.openFraudCase,
              { description: slots.description ?? null, card_id: "{{E1.card_id}}" },
              "Open a fraud case for the bank's fraud team",
            ),
          ]
        : [
            step(
              "E1",
              BANKING_TOOLS.openFraudCase,
              { description: slots.description ?? null },
              "Open a fraud case for the bank's fraud team",
            ),
          ];
    case "open_account":
      return [
        step(
          "E1",
          BANKING_TOOLS.openAccount,
          { account_type: slots.account_type ?? null, currency: slots.currency ?? "USD" },
          "Open the new account",
        ),
      ];
    case "check_balance":
      return [
        step("E1", BANKING_TOOLS.findAccount, { account: slots.account ?? null }, "Find the account"),
        step("E2", BANKING_TOOLS.getBalance, { account_id: "{{E1.account_id}}" }, "Read its balance"),
      ];
    case "transfer": {
      const toOwnAccount = typeof slots.to === "object";
      return [
        step(
          "E1",
          BANKING_TOOLS.findAccount,
          { account: slots.from_account ?? null },
          "Find the account the money comes from",
        ),
        toOwnAccount
          ? step(
              "E2",
              BANKING_TOOLS.findAccount,
              { account: slots.to as ProductReference },
              "Find the account the money goes to",
            )
          : step(
              "E2",
              BANKING_TOOLS.findPayee,
              { name: typeof slots.to === "string" ? slots.to : null },
              "Find the payee",
            ),
        step(
          "E3",
          BANKING_TOOLS.transferFunds,
          {
            from_account_id: "{{E1.account_id}}",
            ...(toOwnAccount ? { to_account_id: "{{E2.account_id}}" } : { payee_id: "{{E2.payee_id}}" }),
            amount_minor: slots.amount ?? null,
            currency: slots.currency ?? null,
          },
          "Move the money in one transaction that refuses an overdraft",
        ),
        {
          ...step(
            "E4",
            BANKING_TOOLS.getBalance,
            { account_id: "{{E1.account_id}}" },
            "Read the balance left",
          ),
          depends_on: ["E3"],
        },
      ];
    }
  }
}

function step(id: string, tool: string, args: Record<string, unknown>, description: string): RawStep {
  return { id, tool, args, description };
}

// ---------------------------------------------------------------- a hosted model's reading

/** The schema of a hosted planner's reading, built on first use (lambdas/core/lazy.ts). */
const envelopeSchema = /* @__PURE__ */ lazily(() => {
  const ReferenceSchema = z
    .object({
      kind: z.string().min(1).max(40).optional(),
      last4: z
        .string()
        .regex(/^\d{4}$/)
        .optional(),
    })
    .strict();
  const ModelSlotsSchema = z
    .object({
      card: ReferenceSchema.optional(),
      account: ReferenceSchema.optional(),
      account_type: z.enum(["checking", "savings"]).optional(),
      amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .optional(),
      from_account: ReferenceSchema.optional(),
      to: z.union([z.string().min(1).max(200), ReferenceSchema]).optional(),
      description: z.string().min(1).max(2_000).optional(),
    })
    .strict();
  return z.object({
    intent: z.enum(BANKING_INTENTS),
    // null: "not given"; the rest must read as the slots do.
    slots: z.record(z.string(), z.unknown()).transform((slots, ctx) => {
      const given = Object.fromEntries(Object.entries(slots).filter(([, value]) => value !== null));
      const parsed = ModelSlotsSchema.safeParse(given);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ ...issue, path: ["slots", ...issue.path] } as never);
        return z.NEVER;
      }
      return parsed.data as Slots;
    }),
    plan: z.array(z.unknown()),
  });
});

/**
 * A hosted planner writes `{"intent", "slots", "plan"}`: its reading of the message and the plan. The
 * plan text, and the reading when it is well formed (else undefined, with the problems: the
 * patterns' reading stands). A bare plan (the offline planner's) has no reading.
 */
export function readPlannerEnvelope(text: string): {
  planText: string;
  understanding?: { intent: BankingIntent; slots: Slots };
  problems: string[];
} {
  const start = text.indexOf("{");
  const arrayStart = text.indexOf("[");
  if (start < 0 || (arrayStart >= 0 && arrayStart < start)) return { planText: text, problems: [] };
  const end = balancedJsonEnd(text, start);
  let value: unknown;
  try {
    value = end < 0 ? undefined : JSON.parse(text.slice(start, end + 1));
  } catch {
    value = undefined;
  }
  if (value === null || typeof value !== "object" || !Array.isArray((value as { plan?: unknown }).plan)) {
    return { planText: text, problems: [] };
  }
  const planText = JSON.stringify((value as { plan: unknown[] }).plan);
  const parsed = envelopeSchema().safeParse(value);
  if (!parsed.success) {
    return {
      planText,
      problems: parsed.error.issues.map(
        (issue) => `${issue.path.join(".") || "(reading)"}: ${issue.message}`,
      ),
    };
  }
  return { planText, understanding: { intent: parsed.data.intent, slots: parsed.data.slots }, problems: [] };
}

/**
 * The request as the model read the message: its intent, and its details over the patterns' (what
 * it left out stays as the patterns read it). A money movement always needs the confirmation,
 * whoever read it as one.
 */
export function withModelReading(
  request: EvaluationRequest,
  understanding: { intent: BankingIntent; slots: Slots },
): EvaluationRequest {
  const metadata = bankingMetadata(request);
  const slots = mergeSlots(understanding.slots, metadata.slots);
  return {
    ...request,
    metadata: { ...metadata, intent: understanding.intent, slots } as unknown as Record<string, unknown>,
    options: {
      ...request.options,
      approval:
        movesMoney(understanding.intent) || request.options?.approval === "required" ? "required" : "none",
    },
  };
}

// ---------------------------------------------------------------- questions and confirmation

const QUESTIONS: Record<SlotName, { question: string; expected: string }> = {
  card: {
    question: "Which card is it: your debit card or your credit card (or its last four digits)?",
    expected: 'a card, e.g. "debit", "credit" or "the card ending 4321"',
  },
  account: {
    question: "Which account: checking or savings (or its last four digits)?",
    expected: 'an account, e.g. "checking", "savings" or "ending 1234"',
  },
  account_type: {
    question: "Which kind of account would you like to open: checking or savings?",
    expected: '"checking" or "savings"',
  },
  amount: { question: "How much would you like to send?", expected: 'an amount, e.g. "$50" or "20 EUR"' },
  currency: {
    question: "In which currency: dollars, euros or pounds?",
    expected: '"USD", "EUR" or "GBP" (or "$", "€", "£")',
  },
  from_account: {
    question: "From which account should the money come: checking or savings (or its last four digits)?",
    expected: 'an account, e.g. "checking", "savings" or "ending 1234"',
  },
  to: { question: "Who should receive it?", expected: "a payee's name, or one of your accounts" },
  description: {
    question: "What happened? Tell me about the charge, withdrawal or access you don't recognise.",
    expected: "a short description of the suspicious activity",
  },
};

/** The details a banking request still needs, as the run's questions (fields under `slots.`). */
export function bankingQuestions(request: EvaluationRequest): InputQuestion[] {
  const { intent, slots, asked } = bankingMetadata(request);
  return missingSlots(intent, slots).map(
    (slot): InputQuestion =>
      asked?.[slot] ?? {
        field: `slots.${slot}`,
        question:
          slot === "to" && slots.to_relation
            ? `Which of your payees is your ${slots.to_relation}? Please tell me their name.`
            : slot === "currency" && slots.amount_as_written
              ? `In which currency is the ${slots.amount_as_written}: dollars, euros or pounds (or its code)?`
              : QUESTIONS[slot].question,
        why: `needed to ${INTENT_VERBS[intent]}`,
        expected: QUESTIONS[slot].expected,
        conditions: [],
      },
  );
}

const INTENT_VERBS: Record<BankingIntent, string> = {
  lost_stolen_card: "block the card",
  report_fraud: "open a fraud case",
  open_account: "open the account",
  check_balance: "read the balance",
  transfer: "make the transfer",
};

/**
 * The details an answer gives, read like a chat message about the pending request with the question
 * in mind: an answer is the customer's words ("the debit one", "from checking", "$50", "Bob"), typed
 * in the chat or sent to the run's input route. A yes, a no or a command answers nothing. Fields
 * that do not read stay missing, so the run keeps asking.
 */
export function slotsFromAnswers(intent: BankingIntent, answers: Record<string, unknown>): Slots {
  let read: Slots = {};
  for (const [field, value] of Object.entries(answers)) {
    const slot = field.replace(/^slots\./, "") as SlotName;
    if (typeof value !== "string" && typeof value !== "number") continue;
    if (!(slot in QUESTIONS)) continue;
    const answer = readAnswer(intent, slot, String(value));
    // "$50" answers the amount and its currency together, unless the currency was answered apart.
    if (slot === "amount" && answers["slots.currency"] !== undefined) delete answer.currency;
    read = { ...read, ...answer };
  }
  return read;
}

/** What the customer is asked to confirm before money moves, from the details they gave. */
export function confirmationPrompt(request: EvaluationRequest): string {
  const { slots, confirm } = bankingMetadata(request);
  const amount = slots.amount !== undefined ? formatMoney(slots.amount, slots.currency ?? "") : "the amount";
  const from =
    confirm?.from ?? (slots.from_account ? describeReference(slots.from_account, "account") : "your account");
  const to =
    confirm?.to ??
    (typeof slots.to === "string"
      ? slots.to
      : slots.to
        ? `your ${describeReference(slots.to, "account")}`
        : "the payee");
  return `Please confirm: send ${amount} from your ${from} to ${to}. Reply "yes" to send it or "no" to cancel.`;
}

/** "yes" / "no" to a confirmation (readConfirmation); undefined when the message is neither. */
export function confirmationAnswer(message: string): "yes" | "no" | undefined {
  const { kind } = readConfirmation(message);
  return kind === "other" ? undefined : kind;
}

export function describeReference(reference: ProductReference, noun: "account" | "card"): string {
  const kind = reference.kind && reference.kind !== "all" ? `${reference.kind} ` : "";
  return reference.last4 ? `${kind}${noun} ending ${reference.last4}` : `${kind}${noun}`;
}

// ---------------------------------------------------------------- reviews

/** The tools each intent's plan needs (in this order of dependency). */
const REQUIRED_TOOLS: Record<BankingIntent, string[]> = {
  lost_stolen_card: [BANKING_TOOLS.findCard, BANKING_TOOLS.blockCard],
  report_fraud: [BANKING_TOOLS.openFraudCase],
  open_account: [BANKING_TOOLS.openAccount],
  check_balance: [BANKING_TOOLS.findAccount, BANKING_TOOLS.getBalance],
  transfer: [BANKING_TOOLS.findAccount, BANKING_TOOLS.transferFunds],
};

/** Tools that change something; a plan that calls one its intent does not need is unsafe. */
const ACTING_TOOLS: Record<string, BankingIntent[]> = {
  [BANKING_TOOLS.blockCard]: ["lost_stolen_card", "report_fraud"],
  [BANKING_TOOLS.openFraudCase]: ["report_fraud"],
  [BANKING_TOOLS.openAccount]: ["open_account"],
  [BANKING_TOOLS.transferFunds]: ["transfer"],
};

/** The banking tools that change something (a card's state, a case, an account, a balance). */
export const BANKING_ACTING_TOOLS: ReadonlySet<string> = new Set(Object.keys(ACTING_TOOLS));

export function requiredBankingTools(request: EvaluationRequest): string[] {
  return REQUIRED_TOOLS[bankingMetadata(request).intent];
}

/**
 * The plan reviewer of the banking profile (the original assistant's four criteria): the plan does
 * what was asked (relevance), has every detail it needs (completeness; a missing one is asked, so
 * it costs a little), acts on nothing else and never moves money unconfirmed or above the review
 * limit (safety), and calls only banking tools (quality).
 */
export function reviewBankingPlan(plan: Plan, request: EvaluationRequest, threshold?: number): Review {
  const { intent, slots } = bankingMetadata(request);
  const issues: ReviewIssue[] = [];
  const tools = new Set(plan.steps.map((s) => s.tool));
  for (const tool of REQUIRED_TOOLS[intent]) {
    if (!tools.has(tool)) {
      issues.push({
        criterion: "relevance",
        severity: "critical",
        message: `the plan never calls ${tool}, which ${INTENT_VERBS[intent]} needs`,
      });
    }
  }
  for (const planned of plan.steps) {
    if (!BANKING_TOOL_NAMES.has(planned.tool)) {
      issues.push({
        criterion: "quality",
        severity: "critical",
        message: `${planned.id} calls ${planned.tool}, which is not a banking tool`,
        ref: planned.id,
      });
    }
    const allowed = ACTING_TOOLS[planned.tool];
    if (allowed && !allowed.includes(intent)) {
      issues.push({
        criterion: "safety",
        severity: "critical",
        message: `${planned.id} would ${planned.tool.replace(/_/g, " ")}, which the customer did not ask for`,
        ref: planned.id,
      });
    }
    if (planned.tool === BANKING_TOOLS.transferFunds) {
      // The customer confirms the request's amount: the step must move exactly that.
      const { amount_minor, currency } = planned.args;
      const differs =
        (amount_minor !== null && amount_minor !== (slots.amount ?? null)) ||
        (currency !== null && currency !== (slots.currency ?? null));
      if (differs) {
        issues.push({
          criterion: "safety",
          severity: "critical",
          message: `${planned.id} would move ${String(amount_minor)} ${String(currency)} (minor units), not the ${slots.amount ?? "unknown"} ${slots.currency ?? ""} the customer asked for`,
          ref: planned.id,
        });
      }
    }
    if (MONEY_MOVING.has(planned.tool) && request.options?.approval !== "required") {
      issues.push({
        criterion: "safety",
        severity: "critical",
        message: `${planned.id} moves money without asking the customer to confirm`,
        ref: planned.id,
      });
    }
  }
  for (const slot of missingSlots(intent, slots)) {
    issues.push({
      criterion: "completeness",
      severity: "minor",
      message: `${slot} is not known yet; the customer will be asked`,
    });
  }
  if (intent === "transfer") issues.push(...confirmedTransferIssues(plan, slots));
  if (intent === "transfer" && slots.amount !== undefined && slots.amount > TRANSFER_REVIEW_LIMIT_MINOR) {
    issues.push({
      criterion: "safety",
      severity: "critical",
      message: `the transfer of ${formatMoney(slots.amount, slots.currency ?? "")} is above the ${formatMoney(TRANSFER_REVIEW_LIMIT_MINOR, slots.currency ?? "")} a chat may send unreviewed`,
    });
  }
  return scoreReview(issues, threshold);
}

/**
 * A transfer plan does exactly what the customer is asked to confirm: one transfer, from the account
 * they named (a find_account of that reference) to the payee or account they named, of their amount
 * in their currency. Anything else is a safety issue, whoever wrote the plan.
 */
function confirmedTransferIssues(plan: Plan, slots: Slots): ReviewIssue[] {
  const issues: ReviewIssue[] = [];
  const transfers = plan.steps.filter((planned) => planned.tool === BANKING_TOOLS.transferFunds);
  const critical = (message: string, ref?: string): ReviewIssue => ({
    criterion: "safety",
    severity: "critical",
    message,
    ...(ref ? { ref } : {}),
  });
  if (transfers.length > 1) {
    issues.push(critical(`the plan makes ${transfers.length} transfers; the customer confirms one`));
  }
  const byId = new Map(plan.steps.map((planned) => [planned.id, planned]));
  const source = (value: unknown): RawStep | undefined => {
    const ref = typeof value === "string" ? /^\{\{\s*(E\d+)\.\w+\s*\}\}$/.exec(value)?.[1] : undefined;
    return ref ? byId.get(ref) : undefined;
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  for (const transfer of transfers) {
    const from = source(transfer.args.from_account_id);
    if (from?.tool !== BANKING_TOOLS.findAccount || !same(from.args.account, slots.from_account)) {
      issues.push(critical(`${transfer.id} does not send from the account the customer named`, transfer.id));
    }
    const payee = source(transfer.args.payee_id);
    const toAccount = source(transfer.args.to_account_id);
    const toNamed =
      typeof slots.to === "object"
        ? toAccount?.tool === BANKING_TOOLS.findAccount && same(toAccount.args.account, slots.to)
        : payee?.tool === BANKING_TOOLS.findPayee && same(payee.args.name, slots.to);
    if (!toNamed) {
      issues.push(
        critical(`${transfer.id} does not send to the payee or account the customer named`, transfer.id),
      );
    }
  }
  return issues;
}

/** What a banking run did, for its answer and its reviewer. */
export interface BankingOutcome {
  intent: BankingIntent;
  /** done: the request was carried out; refused: the bank said no (funds, ownership); failed: it could not be. */
  outcome: "done" | "refused" | "failed";
  reply: string;
  /** What the tools returned that the reply states (ids, balances). */
  facts: Record<string, unknown>;
}

export type BankingResult = RunResult & { banking: BankingOutcome };

/** Fields the answer of each intent must rest on (the original assistant's execution review). */
const EXPECTED_FACTS: Record<BankingIntent, string[]> = {
  lost_stolen_card: ["card_id", "card_status"],
  report_fraud: ["case_id"],
  open_account: ["account_id"],
  check_balance: ["balance_minor"],
  transfer: ["transfer_id", "balance_minor"],
};

/** The execution reviewer: a done request states the facts its intent needs, and every step that failed is told. */
export function reviewBankingResult(result: BankingResult, evidence: Evidence[], threshold?: number): Review {
  const { intent, outcome, facts, reply } = result.banking;
  const issues: ReviewIssue[] = [];
  if (outcome === "done") {
    for (const fact of EXPECTED_FACTS[intent]) {
      if (facts[fact] === undefined) {
        issues.push({
          criterion: "completeness",
          severity: "critical",
          message: `the request is reported done but no ${fact} backs it`,
        });
      }
    }
    const failed = evidence.filter((item) => item.status === "error");
    if (failed.length > 0) {
      // A read that failed after the act (the balance afterwards) leaves the act done; anything else does not.
      const onlyReadsAfterAct =
        failed.every((item) => !ACTING_TOOLS[item.tool]) &&
        evidence.some((item) => item.status === "ok" && ACTING_TOOLS[item.tool]);
      issues.push({
        criterion: "quality",
        severity: onlyReadsAfterAct ? "minor" : "critical",
        message: onlyReadsAfterAct
          ? `${failed.map((item) => `${item.step_id} ${item.tool}`).join(", ")} failed after the request was carried out`
          : `the request is reported done although ${failed.map((item) => item.step_id).join(", ")} failed`,
      });
    }
  } else if (!reply.trim()) {
    issues.push({
      criterion: "quality",
      severity: "major",
      message: "the customer is not told what went wrong",
    });
  }
  if (outcome === "failed") {
    issues.push({
      criterion: "completeness",
      severity: "minor",
      message: "the request could not be carried out",
    });
  }
  return scoreReview(issues, threshold);
}
