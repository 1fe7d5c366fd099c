// The banking assistant's tools: look up what the customer named among their own cards, accounts
// and payees, and act on the core-banking store (block a card, open a fraud case or an account,
// move money). The customer is always the run's authenticated caller (ToolContext.customer_id),
// never an argument: a plan cannot point a tool at someone else's money. Every write is
// idempotent per step, so a retried worker never blocks, opens or sends twice.
import { createHash } from "node:crypto";
import { TransientInfrastructureError } from "../../runtime/transient.ts";
import {
  type Account,
  type Card,
  type CoreBankingStore,
  InsufficientFundsError,
  NotFoundForCustomerError,
  type Payee,
  type Transfer,
  TransferNotMadeError,
  TransferRefusedError,
} from "../../store/core-banking.ts";
import type { ToolContext, ToolDefinition } from "../../tools/registry.ts";
import {
  type BankingToolRunners,
  describeBankingToolCatalog,
  type Reference,
} from "./banking-tool-catalog.ts";
import { formatMoney } from "./money.ts";
import { payeesNamed } from "./preflight.ts";

/** A lookup that matched nothing the customer has (told to the customer as is). */
export class NoMatchError extends Error {
  override name = "NoMatch";
}
/** A lookup that matched several: the customer must say which. */
export class AmbiguousError extends Error {
  override name = "Ambiguous";
}

/**
 * A refusal of the store told in the customer's words: the same name (NotFoundForCustomer,
 * InsufficientFunds, TransferRefused), the accounts named as the customer knows them ("your
 * checking account ending 1234"), never by the bank's internal ids. The store's error is its cause.
 */
export class CustomerRefusalError extends Error {
  constructor(name: string, message: string, cause: unknown) {
    super(message, { cause });
    this.name = name;
  }
}

/** What the banking tools do, over the customer's holdings in the core-banking store. */
export function bankingToolRunners(store: () => CoreBankingStore): BankingToolRunners {
  const runners: BankingToolRunners = {
    async findCard({ card }, context) {
      const { cards } = await store().holdings(customerOf(context));
      const found = pick(cards, required(card, "card"), "card", describeCard);
      return { card_id: found.card_id, kind: found.kind, last4: found.last4, status: found.status };
    },
    async blockCard({ card_id, reason }, context) {
      const { card, changed } = await store().blockCard(customerOf(context), card_id, reason);
      return {
        card_id: card.card_id,
        kind: card.kind,
        last4: card.last4,
        status: card.status,
        changed,
        ...(card.blocked_at ? { blocked_at: card.blocked_at } : {}),
      };
    },
    async openFraudCase({ description, card_id, account_id }, context) {
      const { fraudCase, created } = await store().openFraudCase(customerOf(context), {
        case_id: stepScopedId("fc", context),
        description: required(description, "description"),
        ...(card_id ? { card_id } : {}),
        ...(account_id ? { account_id } : {}),
      });
      return { ...fraudCase, created };
    },
    async openAccount({ account_type, currency }, context) {
      const type = required(account_type, "account_type");
      const { account, created } = await store().openAccount(customerOf(context), {
        account_id: stepScopedId("acc", context),
        type,
        currency,
        name: type === "checking" ? "Checking" : "Savings",
      });
      return { ...publicAccount(account), balance_minor: account.balance_minor, created };
    },
    async findAccount({ account }, context) {
      const { accounts } = await store().holdings(customerOf(context));
      const open = accounts.filter((candidate) => candidate.status === "open");
      return publicAccount(pick(open, required(account, "account"), "account", describeAccount));
    },
    async getBalance({ account_id }, context) {
      const account = await store().account(customerOf(context), account_id);
      return { ...publicAccount(account), balance_minor: account.balance_minor };
    },
    async findPayee({ name }, context) {
      const { payees } = await store().holdings(customerOf(context));
      // The same matching the check before confirmation used, so the payee confirmed is the one found.
      const matches = payeesNamed(required(name, "to"), payees);
      const payee = only(matches, `payee named "${name}"`, (match: Payee) => match.name);
      return { payee_id: payee.payee_id, name: payee.name };
    },
    async transferFunds({ from_account_id, payee_id, to_account_id, amount_minor, currency }, context) {
      const customer = customerOf(context);
      const banking = store();
      const amount = required(amount_minor, "amount");
      const unit = required(currency, "currency");
      let target: { to_customer_id: string; to_account_id: string; payee_id?: string; name: string };
      if (payee_id) {
        const { payees } = await banking.holdings(customer);
        const payee = payees.find((candidate) => candidate.payee_id === payee_id);
        if (!payee) throw new NoMatchError("that payee is not one of your payees.");
        target = {
          to_customer_id: payee.to_customer_id,
          to_account_id: payee.to_account_id,
          payee_id,
          name: payee.name,
        };
      } else {
        const own = await banking.account(customer, to_account_id as string);
        target = {
          to_customer_id: customer,
          to_account_id: own.account_id,
          name: `your ${own.name} ending ${own.last4}`,
        };
      }
      const details = {
        from_account_id,
        to_customer_id: target.to_customer_id,
        to_account_id: target.to_account_id,
        amount_minor: amount,
        currency: unit,
      };
      const transferId = confirmedTransferId(context.run_id, details);
      const destination = target.payee_id ? `${target.name}'s account` : target.name;
      const { transfer, created, from } = await banking
        .transfer(
          customer,
          { transfer_id: transferId, ...details, ...(target.payee_id ? { payee_id: target.payee_id } : {}) },
          { signal: context.signal },
        )
        .catch((error: unknown) => settled(banking, customer, transferId, error))
        .catch(async (error: unknown) => {
          // The bank's refusals, told in the customer's words (no internal ids).
          throw await transferRefusal(
            error,
            () => banking.account(customer, from_account_id),
            destination,
            unit,
          );
        });
      return {
        transfer_id: transfer.transfer_id,
        amount_minor: transfer.amount_minor,
        currency: transfer.currency,
        to_name: target.name,
        created,
        from: { ...publicAccount(from), balance_minor: from.balance_minor },
      };
    },
  };
  return withCustomerWords(runners);
}

/** Every runner with a store's "not one of this customer's …" told without the id it was asked for. */
function withCustomerWords(runners: BankingToolRunners): BankingToolRunners {
  const wrapped: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(runners) as Array<
    [string, (args: unknown, context: ToolContext) => Promise<unknown>]
  >) {
    wrapped[name] = (args: unknown, context: ToolContext) =>
      run(args, context).catch((error: unknown) => {
        if (error instanceof NotFoundForCustomerError) {
          throw new CustomerRefusalError(error.name, `that ${error.kind} is not one of yours.`, error);
        }
        throw error;
      });
  }
  return wrapped as unknown as BankingToolRunners;
}

/** A transfer the store refused, told with the accounts as the customer knows them. */
async function transferRefusal(
  error: unknown,
  source: () => Promise<Account>,
  destination: string,
  currency: string,
): Promise<unknown> {
  if (!(error instanceof InsufficientFundsError || error instanceof TransferRefusedError)) return error;
  const account = await source().catch(() => undefined);
  const from = account ? `your ${account.name} ending ${account.last4}` : "the account it comes from";
  if (error instanceof InsufficientFundsError) {
    return new CustomerRefusalError(
      error.name,
      `${from} has ${formatMoney(error.availableMinor, error.currency)} available, and the transfer needs ${formatMoney(error.requestedMinor, error.currency)}.`,
      error,
    );
  }
  const words: Record<TransferRefusedError["reason"], string> = {
    same_account: "the money would go to the account it comes from.",
    account_closed: `${from} is closed.`,
    currency_mismatch: `${from} holds ${account?.currency ?? "another currency"}, not ${currency}.`,
    destination_not_found: `${destination} does not exist any more.`,
    destination_closed: `${destination} is closed.`,
    destination_currency_mismatch: `${destination} does not take ${currency}.`,
  };
  return new CustomerRefusalError(error.name, words[error.reason], error);
}

/** The banking tools with what they do, over `store` (the worker's tool runtime, tests). */
export function describeBankingTools(store: () => CoreBankingStore): ToolDefinition[] {
  const runners = bankingToolRunners(store);
  return describeBankingToolCatalog(() => runners);
}

function customerOf(context: ToolContext): string {
  if (!context.customer_id) {
    throw new Error("banking tools act only for an authenticated customer; this run has none");
  }
  return context.customer_id;
}

/**
 * A transfer's identity is the request the customer confirmed (the run, the accounts, the amount and
 * its currency), not the plan step that carries it: a retried, resumed or replanned step of the same
 * run finds the same transfer and never makes a second one.
 */
export function confirmedTransferId(
  runId: string,
  details: {
    from_account_id: string;
    to_customer_id: string;
    to_account_id: string;
    amount_minor: number;
    currency: string;
  },
): string {
  const digest = createHash("sha256")
    .update(
      [
        runId,
        details.from_account_id,
        details.to_customer_id,
        details.to_account_id,
        details.amount_minor,
        details.currency,
      ].join("\n"),
    )
    .digest("hex");
  return `tr_${digest.slice(0, 24)}`;
}

/** The bank's own answers about a transfer: it did not move money, and says why. */
const BANK_ANSWERS = new Set([
  "InsufficientFunds",
  "TransferRefused",
  "NotFoundForCustomer",
  "TransferNotMade",
]);

/**
 * A transfer call that ended without the bank's answer (aborted at the tool's timeout, a network
 * error, a conflict that outlived its retries) may still commit: it is settled in the store (fenced
 * off, or found done), so what the customer is told is what the store holds. A store that cannot be
 * read leaves the outcome unknown: a transient fault, retried by the workflow, never a failure.
 */
async function settled(
  banking: CoreBankingStore,
  customer: string,
  transferId: string,
  error: unknown,
): Promise<{ transfer: Transfer; created: boolean; from: Account }> {
  if (error instanceof Error && BANK_ANSWERS.has(error.name)) throw error;
  const why = error instanceof Error ? error.message : String(error);
  let transfer: Transfer;
  try {
    transfer = await banking.settleTransfer(
      customer,
      transferId,
      `the bank did not confirm it in time: ${why}`,
    );
  } catch (settleError) {
    throw new TransientInfrastructureError(settleError);
  }
  if (transfer.status === "void") throw new TransferNotMadeError(transferId, transfer.void_reason ?? why);
  return { transfer, created: true, from: await banking.account(customer, transfer.from_account_id) };
}

/**
 * The id of what a step creates: the same for every retry of that step of that run, so the store's
 * conditional write turns a retry into "already done".
 */
function stepScopedId(prefix: string, context: ToolContext): string {
  const digest = createHash("sha256").update(`${context.run_id}\n${context.step_id}`).digest("hex");
  return `${prefix}_${digest.slice(0, 24)}`;
}

function required<T>(value: T | null | undefined, slot: string): T {
  if (value === null || value === undefined) {
    throw new Error(`${slot} was never given (the customer did not answer the question)`);
  }
  return value;
}

function publicAccount(account: Account) {
  return {
    account_id: account.account_id,
    type: account.type,
    name: account.name,
    last4: account.last4,
    currency: account.currency,
  };
}

function describeCard(card: Card): string {
  return `${card.kind} card ending ${card.last4}`;
}

function describeAccount(account: Account): string {
  return `${account.type} account ending ${account.last4}`;
}

/** The one product matching a reference ("all" or no kind: any kind). */
function pick<T extends { last4: string; kind?: string; type?: string }>(
  items: T[],
  reference: Reference,
  noun: string,
  describe: (item: T) => string,
): T {
  const kind = reference.kind && reference.kind !== "all" ? reference.kind : undefined;
  const matches = items.filter(
    (item) =>
      (!kind || (item.kind ?? item.type) === kind) && (!reference.last4 || item.last4 === reference.last4),
  );
  const named = [kind, noun, reference.last4 ? `ending ${reference.last4}` : ""].filter(Boolean).join(" ");
  if (matches.length === 0) {
    const yours = items.map(describe).join(", ");
    throw new NoMatchError(`you have no ${named}${yours ? ` (yours: ${yours})` : ""}.`);
  }
  return only(matches, `${named}`, describe);
}

function only<T>(matches: T[], named: string, describe: (item: T) => string): T {
  if (matches.length === 0) throw new NoMatchError(`I found no ${named}.`);
  if (matches.length > 1) {
    throw new AmbiguousError(`you have several: ${matches.map(describe).join(", ")}; say which one.`);
  }
  return matches[0] as T;
}
