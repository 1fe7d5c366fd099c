// The banking assistant's answer (the original assistant's responder): what the tools did, told
// to the customer in a sentence or two, with the facts it rests on kept beside it for the
// execution reviewer. Deterministic: the reply states only what the evidence holds.
import type { Evidence, Plan } from "../../core/types.ts";
import { formatMoney } from "./money.ts";
import type { BankingIntent } from "./nlu.ts";
import {
  BANKING_ACTING_TOOLS,
  BANKING_TOOLS,
  type BankingOutcome,
  type BankingRequestMetadata,
  type BankingResult,
} from "./profile.ts";

type Output = Record<string, unknown>;

/** The run result of a banking run from its plan's evidence. */
export function bankingResult(
  metadata: BankingRequestMetadata,
  plan: Plan,
  evidence: Evidence[],
): BankingResult {
  const byTool = new Map<string, Evidence[]>();
  for (const item of evidence) byTool.set(item.tool, [...(byTool.get(item.tool) ?? []), item]);
  const last = (tool: string): Evidence | undefined => byTool.get(tool)?.at(-1);
  // Once an act succeeded it is reported done (with what it returned), whatever a later read did.
  const acted = evidence.some((item) => item.status === "ok" && BANKING_ACTING_TOOLS.has(item.tool));
  const failure = acted ? undefined : firstFailure(plan, evidence);
  const banking = failure
    ? failed(metadata.intent, failure, BANKING_ACTING_TOOLS.has(failure.tool))
    : done(metadata.intent, last);
  return {
    summary: banking.reply,
    fulfilled_conditions: [],
    unfulfilled_conditions: [],
    missing_information: [],
    recommendations: [],
    banking,
  };
}

/** The step whose own failure stopped the request (not one that failed only because an earlier one did). */
function firstFailure(plan: Plan, evidence: Evidence[]): Evidence | undefined {
  const byStep = new Map(evidence.map((item) => [item.step_id, item]));
  for (const step of plan.steps) {
    const item = byStep.get(step.id);
    if (item?.status === "error" && item.upstream_errors.length === 0) return item;
  }
  return evidence.find((item) => item.status === "error");
}

/** Refusals are the bank's answer about the customer's own request, told as they are. */
const REFUSALS = /^(InsufficientFunds|TransferRefused|NotFoundForCustomer|NoMatch|Ambiguous)\b/;
/**
 * Failures the store itself confirms changed nothing: the tool never started, or its act was fenced
 * off before it could commit. Any other failure of a step that acts is not told as "nothing changed".
 */
const NOTHING_DONE = /^(NotStarted|TransferNotMade)\b/;

function failed(intent: BankingIntent, item: Evidence, acting: boolean): BankingOutcome {
  const error = item.error ?? "unknown error";
  const refusal = REFUSALS.exec(error)?.[1];
  const what = FAILURE_LEADS[intent];
  const unchanged = intent === "transfer" ? "Nothing was sent." : "Nothing was changed.";
  const told = refusal
    ? `I couldn't ${what}: ${customerReason(refusal, error.replace(/^\w+: /, ""))}${intent === "transfer" ? " Nothing was sent." : ""}`
    : NOTHING_DONE.test(error) || !acting
      ? `I couldn't ${what} because our systems did not answer in time. ${unchanged} Please try again in a moment.`
      : `I couldn't ${what} because something went wrong on our side. A colleague will check whether anything changed and contact you.`;
  return {
    intent,
    outcome: refusal ? "refused" : "failed",
    reply: told,
    facts: { failed_step: item.step_id, error },
  };
}

// The bank's internal ids ("acc_alice_chk", "payee_alice_sam", "card_…"): never shown to a customer.
const INTERNAL_ID = /\b(?:acc|card|payee|cust|customer|tr|fc)_[A-Za-z0-9_]+\b/;
const GENERIC_REASONS: Record<string, string> = {
  InsufficientFunds: "there isn't enough money in the account.",
  TransferRefused: "the bank can't make this transfer as asked.",
  NotFoundForCustomer: "that isn't one of your accounts or cards.",
  NoMatch: "I couldn't find what you named among your accounts, cards and payees.",
  Ambiguous: "more than one of yours matches; please say which one.",
};

/** The refusal as the tool told it, unless it names an internal id: then the refusal in general words. */
function customerReason(refusal: string, reason: string): string {
  return INTERNAL_ID.test(reason) ? (GENERIC_REASONS[refusal] ?? "the bank refused it.") : reason;
}

const FAILURE_LEADS: Record<BankingIntent, string> = {
  lost_stolen_card: "block the card",
  report_fraud: "open the fraud case",
  open_account: "open the account",
  check_balance: "read the balance",
  transfer: "make the transfer",
};

function done(intent: BankingIntent, last: (tool: string) => Evidence | undefined): BankingOutcome {
  const out = (tool: string): Output => (last(tool)?.output ?? {}) as Output;
  switch (intent) {
    case "lost_stolen_card": {
      const card = out(BANKING_TOOLS.blockCard);
      const name = `${card.kind} card ending ${card.last4}`;
      return {
        intent,
        outcome: "done",
        reply:
          card.changed === false
            ? `Your ${name} was already blocked; it stays blocked and nobody can use it.`
            : `I've blocked your ${name}. Nobody can use it now, and any payment attempted with it will be declined.`,
        facts: { card_id: card.card_id, card_status: card.status, changed: card.changed },
      };
    }
    case "report_fraud": {
      const fraudCase = out(BANKING_TOOLS.openFraudCase);
      return {
        intent,
        outcome: "done",
        reply: `I've opened fraud case ${fraudCase.case_id}${fraudCase.card_id ? " for your card" : ""}. Our fraud team will review it and contact you; you won't be liable for charges you didn't make.`,
        facts: { case_id: fraudCase.case_id, status: fraudCase.status },
      };
    }
    case "open_account": {
      const account = out(BANKING_TOOLS.openAccount);
      return {
        intent,
        outcome: "done",
        reply: `Your new ${account.type} account ending ${account.last4} is open, with a balance of ${money(account)}.`,
        facts: { account_id: account.account_id, last4: account.last4 },
      };
    }
    case "check_balance": {
      const balance = out(BANKING_TOOLS.getBalance);
      return {
        intent,
        outcome: "done",
        reply: `Your ${balance.name} ending ${balance.last4} has a balance of ${money(balance)}.`,
        facts: {
          account_id: balance.account_id,
          balance_minor: balance.balance_minor,
          currency: balance.currency,
        },
      };
    }
    case "transfer": {
      const transfer = out(BANKING_TOOLS.transferFunds);
      // The balance read after the transfer (its own step), else the one the transaction returned.
      const after = (last(BANKING_TOOLS.getBalance)?.output ?? transfer.from) as Output | undefined;
      const balance = after ?? {};
      const repeated =
        transfer.created === false
          ? " (this request had already been carried out; nothing was sent twice)"
          : "";
      return {
        intent,
        outcome: "done",
        reply: `Done: I sent ${formatMoney(Number(transfer.amount_minor), String(transfer.currency))} to ${transfer.to_name} from your ${balance.name ?? "account"} ending ${balance.last4 ?? "?"}${repeated}. Its balance is now ${money(balance)}. Reference ${transfer.transfer_id}.`,
        facts: {
          transfer_id: transfer.transfer_id,
          amount_minor: transfer.amount_minor,
          currency: transfer.currency,
          balance_minor: balance.balance_minor,
        },
      };
    }
  }
}

function money(output: Output): string {
  return typeof output.balance_minor === "number"
    ? formatMoney(output.balance_minor, String(output.currency ?? ""))
    : "unknown";
}
