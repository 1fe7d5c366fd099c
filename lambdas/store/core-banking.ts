// The core-banking store of the banking assistant: customers, their accounts, cards, payees,
// transfers and fraud cases in one DynamoDB table, everything of a customer in one partition
// (pk CUSTOMER#<id>; sk PROFILE | ACCOUNT#<id> | CARD#<id> | PAYEE#<id> | TRANSFER#<id> | FRAUD#<id>).
// The customer id always comes from the authenticated caller: every read and write is addressed
// inside that customer's partition, so another customer's account or card is simply not there (and
// is reported exactly like a missing one). Money is integer minor units with an ISO 4217 currency.
// Every write is conditional, so a repeated tool call (a retried worker step) never acts twice; a
// transfer moves money in one TransactWriteItems, both balances or neither.
import { createHash, randomUUID } from "node:crypto";
import {
  ConditionalCheckFailedException,
  IdempotentParameterMismatchException,
  TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import * as z from "zod";
import { lazily } from "../core/lazy.ts";
import { conditionalWrite } from "./conditional.ts";
import { queryAllPages } from "./pagination.ts";

export interface Customer {
  customer_id: string;
  name: string;
}

export interface Account {
  customer_id: string;
  account_id: string;
  type: "checking" | "savings";
  name: string;
  last4: string;
  currency: string;
  balance_minor: number;
  status: "open" | "closed";
  opened_at: string;
}

export interface Card {
  customer_id: string;
  card_id: string;
  kind: "debit" | "credit";
  last4: string;
  account_id?: string;
  status: "active" | "blocked";
  blocked_reason?: "lost" | "stolen" | "fraud";
  blocked_at?: string;
}

export interface Payee {
  customer_id: string;
  payee_id: string;
  name: string;
  aliases: string[];
  to_customer_id: string;
  to_account_id: string;
}

export interface Transfer {
  customer_id: string;
  transfer_id: string;
  from_account_id: string;
  to_customer_id: string;
  to_account_id: string;
  payee_id?: string;
  amount_minor: number;
  currency: string;
  /**
   * completed: the money moved. void: a transfer whose outcome was unknown (its call timed out or
   * failed in flight) was fenced off under its id before it could commit: it never moves money.
   */
  status: "completed" | "void";
  created_at: string;
  void_reason?: string;
}

export interface FraudCase {
  customer_id: string;
  case_id: string;
  description: string;
  card_id?: string;
  account_id?: string;
  status: "open";
  opened_at: string;
}

/** A customer with everything they hold, as seed() writes it (the customer id is filled in below). */
export interface CustomerSeed extends Customer {
  accounts: ReadonlyArray<Omit<Account, "customer_id">>;
  cards: ReadonlyArray<Omit<Card, "customer_id">>;
  payees: ReadonlyArray<Omit<Payee, "customer_id">>;
}

export type BlockReason = NonNullable<Card["blocked_reason"]>;

/** The account or card is not under this customer: missing and someone else's look alike. */
export class NotFoundForCustomerError extends Error {
  override name = "NotFoundForCustomer";
  constructor(
    readonly kind: "account" | "card",
    readonly id: string,
  ) {
    super(`${kind} "${id}" is not one of this customer's ${kind}s`);
  }
}

export class InsufficientFundsError extends Error {
  override name = "InsufficientFunds";
  constructor(
    readonly accountId: string,
    readonly availableMinor: number,
    readonly requestedMinor: number,
    readonly currency: string,
  ) {
    super(
      `insufficient funds in account "${accountId}": ${formatMinor(availableMinor, currency)} available, ` +
        `${formatMinor(requestedMinor, currency)} requested`,
    );
  }
}

export type TransferRefusal =
  | "same_account"
  | "account_closed"
  | "currency_mismatch"
  | "destination_not_found"
  | "destination_closed"
  | "destination_currency_mismatch";

/** A transfer that was fenced off (void) before it committed: nothing moved, and nothing ever will under its id. */
export class TransferNotMadeError extends Error {
  override name = "TransferNotMade";
  constructor(
    readonly transferId: string,
    readonly reason: string,
  ) {
    super(`the transfer was not made (${reason}); nothing was sent`);
  }
}

/** A transfer the bank will not make as asked; `reason` says why, the message in words. */
export class TransferRefusedError extends Error {
  override name = "TransferRefused";
  constructor(
    readonly reason: TransferRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** A call with a malformed argument; `field` names it (e.g. `transfer.amount_minor`). */
export class InvalidBankingRequestError extends Error {
  override name = "InvalidBankingRequest";
  constructor(
    readonly field: string,
    expected: string,
  ) {
    super(`${field}: ${expected}`);
  }
}

/**
 * How often a transfer is tried again when another transaction held one of its items (DynamoDB
 * cancels it with TransactionConflict and asks to retry). The transfer id and the token keep the
 * retries one transfer.
 */
export const TRANSFER_CONFLICT_ATTEMPTS = 5;

export async function withConflictRetries<T>(
  write: () => Promise<T>,
  attempts = TRANSFER_CONFLICT_ATTEMPTS,
  pause: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const conflict =
        error instanceof TransactionCanceledException &&
        (error.CancellationReasons ?? []).some((reason) => reason.Code === "TransactionConflict");
      if (!conflict || attempt >= attempts) throw error;
      // Full jitter: transfers that collided do not collide again in step.
      await pause(Math.random() * 50 * 2 ** attempt);
    }
  }
}

const customerKey = (customerId: string) => `CUSTOMER#${customerId}`;
const PROFILE = "PROFILE";
const accountKey = (accountId: string) => `ACCOUNT#${accountId}`;
const cardKey = (cardId: string) => `CARD#${cardId}`;
const payeeKey = (payeeId: string) => `PAYEE#${payeeId}`;
const transferKey = (transferId: string) => `TRANSFER#${transferId}`;
const fraudKey = (caseId: string) => `FRAUD#${caseId}`;

const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
/**
 * What the store checks its inputs with, built at the first check (lambdas/core/lazy.ts): the planner
 * holds this store to read holdings, and a loan run never reads them.
 */
const inputSchemas = /* @__PURE__ */ lazily(() => {
  const Id = z.string().regex(ID_PATTERN, "expected an id: 1 to 128 letters, digits, '_', '.', ':' or '-'");
  const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
  const Currency = z
    .string()
    .refine((code) => CURRENCIES.has(code), "expected an ISO 4217 currency code in capitals, such as USD");
  const Text = (max: number) =>
    z.string().trim().min(1, "expected a non-empty text").max(max, `expected at most ${max} characters`);

  const BlockReasonSchema = z.enum(["lost", "stolen", "fraud"], "expected lost, stolen or fraud");
  const FraudCaseInput = z.object({
    case_id: Id,
    description: Text(2000),
    card_id: Id.optional(),
    account_id: Id.optional(),
  });
  const OpenAccountInput = z.object({
    account_id: Id,
    type: z.enum(["checking", "savings"], "expected checking or savings"),
    currency: Currency,
    name: Text(64).optional(),
  });
  const TransferInput = z.object({
    transfer_id: Id,
    from_account_id: Id,
    to_customer_id: Id,
    to_account_id: Id,
    payee_id: Id.optional(),
    amount_minor: z
      .number("expected a whole number of minor units")
      // zod's int() is a safe integer: a whole number below 2^53, so sums stay exact.
      .int("expected a whole number of minor units (cents) below 2^53")
      .positive("expected a positive amount"),
    currency: Currency,
  });
  return { Id, BlockReasonSchema, FraudCaseInput, OpenAccountInput, TransferInput };
});

function parsed<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const path = [field, ...(issue?.path ?? []).map(String)].join(".");
  throw new InvalidBankingRequestError(path, issue?.message ?? "invalid");
}

/** What an item stores besides the entity: its keys, and which store call wrote a transfer. */
type Stored<T> = T & { pk: string; sk: string; written_by?: string };

function entityOf<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, written_by: _writtenBy, ...entity } = item;
  return entity as T;
}

export class CoreBankingStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async customer(customerId: string): Promise<Customer | undefined> {
    const item = await this.item(parsed(inputSchemas().Id, customerId, "customer_id"), PROFILE);
    return item ? entityOf<Customer>(item) : undefined;
  }

  async holdings(customerId: string): Promise<{ accounts: Account[]; cards: Card[]; payees: Payee[] }> {
    const items = await this.partition(parsed(inputSchemas().Id, customerId, "customer_id"));
    const of = <T>(prefix: string) =>
      items.filter((item) => String(item.sk).startsWith(prefix)).map((item) => entityOf<T>(item));
    return { accounts: of<Account>("ACCOUNT#"), cards: of<Card>("CARD#"), payees: of<Payee>("PAYEE#") };
  }

  async account(customerId: string, accountId: string): Promise<Account> {
    const id = parsed(inputSchemas().Id, accountId, "account_id");
    const item = await this.item(parsed(inputSchemas().Id, customerId, "customer_id"), accountKey(id));
    if (!item) throw new NotFoundForCustomerError("account", id);
    return entityOf<Account>(item);
  }

  async card(customerId: string, cardId: string): Promise<Card> {
    const id = parsed(inputSchemas().Id, cardId, "card_id");
    const item = await this.item(parsed(inputSchemas().Id, customerId, "customer_id"), cardKey(id));
    if (!item) throw new NotFoundForCustomerError("card", id);
    return entityOf<Card>(item);
  }

  /** Blocks an active card; a card already blocked is returned as it is (changed: false). */
  async blockCard(
    customerId: string,
    cardId: string,
    reason: BlockReason,
  ): Promise<{ card: Card; changed: boolean }> {
    const customer = parsed(inputSchemas().Id, customerId, "customer_id");
    const id = parsed(inputSchemas().Id, cardId, "card_id");
    const why = parsed(inputSchemas().BlockReasonSchema, reason, "reason");
    try {
      const { Attributes } = await this.ddb.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: customerKey(customer), sk: cardKey(id) },
          UpdateExpression: "SET #status = :blocked, blocked_reason = :reason, blocked_at = :at",
          ConditionExpression: "attribute_exists(pk) AND #status = :active",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: {
            ":blocked": "blocked",
            ":active": "active",
            ":reason": why,
            ":at": this.now().toISOString(),
          },
          ReturnValues: "ALL_NEW",
        }),
      );
      return { card: entityOf<Card>(Attributes ?? {}), changed: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // Missing (or another customer's) and already blocked both fail the condition: tell them apart.
      const card = await this.card(customer, id);
      if (card.status !== "blocked") throw error;
      return { card, changed: false };
    }
  }

  /** Opens a case once per case_id; a repeat returns the stored case (created: false). */
  async openFraudCase(
    customerId: string,
    c: { case_id: string; description: string; card_id?: string; account_id?: string },
  ): Promise<{ fraudCase: FraudCase; created: boolean }> {
    const customer = parsed(inputSchemas().Id, customerId, "customer_id");
    const input = parsed(inputSchemas().FraudCaseInput, c, "fraud_case");
    if (input.card_id !== undefined) await this.card(customer, input.card_id);
    if (input.account_id !== undefined) await this.account(customer, input.account_id);
    const fraudCase: FraudCase = {
      customer_id: customer,
      case_id: input.case_id,
      description: input.description,
      ...(input.card_id !== undefined ? { card_id: input.card_id } : {}),
      ...(input.account_id !== undefined ? { account_id: input.account_id } : {}),
      status: "open",
      opened_at: this.now().toISOString(),
    };
    const { item, created } = await this.createOnce(customer, fraudKey(input.case_id), fraudCase);
    return { fraudCase: item, created };
  }

  /**
   * Opens an account under the caller's id; the id is the caller's (deterministic per request), so a
   * repeat returns the stored account (created: false). Its last four digits come from the id.
   */
  async openAccount(
    customerId: string,
    a: { account_id: string; type: Account["type"]; currency: string; name?: string },
  ): Promise<{ account: Account; created: boolean }> {
    const customer = parsed(inputSchemas().Id, customerId, "customer_id");
    const input = parsed(inputSchemas().OpenAccountInput, a, "account");
    const account: Account = {
      customer_id: customer,
      account_id: input.account_id,
      type: input.type,
      name: input.name ?? (input.type === "checking" ? "Checking" : "Savings"),
      last4: last4Of(input.account_id),
      currency: input.currency,
      balance_minor: 0,
      status: "open",
      opened_at: this.now().toISOString(),
    };
    const { item, created } = await this.createOnce(customer, accountKey(input.account_id), account);
    return { account: item, created };
  }

  /**
   * Moves money from one of the customer's accounts to an account (theirs or a payee's) in one
   * transaction. A transfer_id already used returns the stored transfer (created: false) and moves
   * nothing. `from` is the source account as read after the write.
   */
  async transfer(
    customerId: string,
    t: {
      transfer_id: string;
      from_account_id: string;
      to_customer_id: string;
      to_account_id: string;
      payee_id?: string;
      amount_minor: number;
      currency: string;
    },
    options: { signal?: AbortSignal } = {},
  ): Promise<{ transfer: Transfer; created: boolean; from: Account }> {
    const customer = parsed(inputSchemas().Id, customerId, "customer_id");
    const input = parsed(inputSchemas().TransferInput, t, "transfer");
    if (input.to_customer_id === customer && input.to_account_id === input.from_account_id) {
      throw new TransferRefusedError(
        "same_account",
        `cannot transfer from account "${input.from_account_id}" to itself`,
      );
    }
    const transfer: Transfer = {
      customer_id: customer,
      transfer_id: input.transfer_id,
      from_account_id: input.from_account_id,
      to_customer_id: input.to_customer_id,
      to_account_id: input.to_account_id,
      ...(input.payee_id !== undefined ? { payee_id: input.payee_id } : {}),
      amount_minor: input.amount_minor,
      currency: input.currency,
      status: "completed",
      created_at: this.now().toISOString(),
    };
    // Unique per call, so that DynamoDB's token replays only a retry of this very call (the SDK's),
    // and a second call with the same transfer_id is told apart from it.
    const writtenBy = randomUUID();
    const write = (token: string) =>
      this.ddb.send(
        new TransactWriteCommand({
          ClientRequestToken: token,
          TransactItems: [
            {
              Put: {
                TableName: this.table,
                Item: {
                  pk: customerKey(customer),
                  sk: transferKey(input.transfer_id),
                  ...transfer,
                  written_by: writtenBy,
                },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            {
              Update: {
                TableName: this.table,
                Key: { pk: customerKey(customer), sk: accountKey(input.from_account_id) },
                UpdateExpression: "SET balance_minor = balance_minor - :amount",
                ConditionExpression:
                  "attribute_exists(pk) AND #status = :open AND currency = :currency AND balance_minor >= :amount",
                ExpressionAttributeNames: { "#status": "status" },
                ExpressionAttributeValues: {
                  ":amount": input.amount_minor,
                  ":open": "open",
                  ":currency": input.currency,
                },
              },
            },
            {
              Update: {
                TableName: this.table,
                Key: { pk: customerKey(input.to_customer_id), sk: accountKey(input.to_account_id) },
                UpdateExpression: "SET balance_minor = balance_minor + :amount",
                ConditionExpression: "attribute_exists(pk) AND #status = :open AND currency = :currency",
                ExpressionAttributeNames: { "#status": "status" },
                ExpressionAttributeValues: {
                  ":amount": input.amount_minor,
                  ":open": "open",
                  ":currency": input.currency,
                },
              },
            },
          ],
        }),
        // An abort stops waiting for the answer, not the transaction: settleTransfer decides its fate.
        options.signal ? { abortSignal: options.signal } : {},
      );

    try {
      await withConflictRetries(() => write(transferToken(input.transfer_id)));
    } catch (error) {
      if (error instanceof IdempotentParameterMismatchException) {
        // The token already carried another call with this transfer_id within DynamoDB's window.
        const stored = await this.item(customer, transferKey(input.transfer_id));
        if (stored) return this.repeated(customer, stored);
        // That call did not write (DynamoDB may keep the token of a cancelled transaction): this call
        // goes on under a token of its own.
        try {
          await withConflictRetries(() => write(transferToken(`${input.transfer_id}\u0000${writtenBy}`)));
        } catch (retryError) {
          return this.refusedTransfer(customer, input, retryError);
        }
        return { transfer, created: true, from: await this.account(customer, input.from_account_id) };
      }
      return this.refusedTransfer(customer, input, error);
    }
    return { transfer, created: true, from: await this.account(customer, input.from_account_id) };
  }

  /**
   * The fate of a transfer whose call ended without an answer (aborted, timed out, a network error):
   * a void record is written under its id unless the transfer is there already. Written, it fences
   * the transfer off (its transaction's conditional put can no longer succeed, even if it is still on
   * its way); found, the transfer happened. Either way the answer is what the store holds.
   */
  async settleTransfer(customerId: string, transferId: string, reason: string): Promise<Transfer> {
    const customer = parsed(inputSchemas().Id, customerId, "customer_id");
    const id = parsed(inputSchemas().Id, transferId, "transfer_id");
    const fence = {
      customer_id: customer,
      transfer_id: id,
      status: "void",
      void_reason: reason,
      created_at: this.now().toISOString(),
    };
    const written = await conditionalWrite(
      this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: customerKey(customer), sk: transferKey(id), ...fence },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
    if (written) return fence as unknown as Transfer;
    const stored = await this.item(customer, transferKey(id));
    if (!stored)
      throw new Error(`transfer ${id}: neither written nor found (the store answered inconsistently)`);
    return entityOf<Transfer>(stored);
  }

  async transfers(customerId: string): Promise<Transfer[]> {
    const items = await this.partition(parsed(inputSchemas().Id, customerId, "customer_id"), "TRANSFER#");
    // Money that moved: a void record only fences a transfer off.
    return items
      .map((item) => entityOf<Transfer>(item))
      .filter((transfer) => transfer.status === "completed");
  }

  async fraudCases(customerId: string): Promise<FraudCase[]> {
    const items = await this.partition(parsed(inputSchemas().Id, customerId, "customer_id"), "FRAUD#");
    return items.map((item) => entityOf<FraudCase>(item));
  }

  /** Writes the customers and what they hold, each item only if absent: a reseed never resets a balance. */
  async seed(customers: readonly CustomerSeed[]): Promise<void> {
    for (const seed of customers) {
      const customer = parsed(inputSchemas().Id, seed.customer_id, "customer_id");
      const items: Array<[string, object]> = [
        [PROFILE, { customer_id: customer, name: seed.name }],
        ...seed.accounts.map((a): [string, object] => [
          accountKey(a.account_id),
          { customer_id: customer, ...a },
        ]),
        ...seed.cards.map((c): [string, object] => [cardKey(c.card_id), { customer_id: customer, ...c }]),
        ...seed.payees.map((p): [string, object] => [payeeKey(p.payee_id), { customer_id: customer, ...p }]),
      ];
      await Promise.all(items.map(([sk, entity]) => this.putNew(customer, sk, entity)));
    }
  }

  /** Why DynamoDB cancelled a transfer, as the error a caller can act on; a repeat is answered. */
  private async refusedTransfer(
    customer: string,
    input: z.infer<ReturnType<typeof inputSchemas>["TransferInput"]>,
    error: unknown,
  ): Promise<{ transfer: Transfer; created: boolean; from: Account }> {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code);
    // Another transaction still held an item after every retry: reported as the transient fault it is.
    if (codes.includes("TransactionConflict")) throw error;
    const [transferCode, fromCode, toCode] = codes;
    if (transferCode === "ConditionalCheckFailed") {
      const stored = await this.item(customer, transferKey(input.transfer_id));
      if (stored) return this.repeated(customer, stored);
    }
    if (fromCode === "ConditionalCheckFailed") {
      const from = await this.account(customer, input.from_account_id);
      if (from.status !== "open") {
        throw new TransferRefusedError("account_closed", `account "${from.account_id}" is closed`);
      }
      if (from.currency !== input.currency) {
        throw new TransferRefusedError(
          "currency_mismatch",
          `account "${from.account_id}" holds ${from.currency}, not ${input.currency}`,
        );
      }
      if (from.balance_minor < input.amount_minor) {
        throw new InsufficientFundsError(
          from.account_id,
          from.balance_minor,
          input.amount_minor,
          input.currency,
        );
      }
    }
    if (toCode === "ConditionalCheckFailed") {
      const to = await this.item(input.to_customer_id, accountKey(input.to_account_id));
      if (!to) {
        throw new TransferRefusedError(
          "destination_not_found",
          `the destination account "${input.to_account_id}" does not exist`,
        );
      }
      if (to.status !== "open") {
        throw new TransferRefusedError(
          "destination_closed",
          `the destination account "${input.to_account_id}" is closed`,
        );
      }
      if (to.currency !== input.currency) {
        throw new TransferRefusedError(
          "destination_currency_mismatch",
          `the destination account "${input.to_account_id}" does not take ${input.currency}`,
        );
      }
    }
    // The items changed again since the cancellation: nothing moved, and a retry sees them as they are.
    throw error;
  }

  private async repeated(
    customer: string,
    stored: Record<string, unknown>,
  ): Promise<{ transfer: Transfer; created: boolean; from: Account }> {
    const transfer = entityOf<Transfer>(stored);
    if (transfer.status === "void") {
      throw new TransferNotMadeError(transfer.transfer_id, transfer.void_reason ?? "it was cancelled");
    }
    return { transfer, created: false, from: await this.account(customer, transfer.from_account_id) };
  }

  private async item(customer: string, sk: string): Promise<Stored<Record<string, unknown>> | undefined> {
    const { Item } = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: { pk: customerKey(customer), sk }, ConsistentRead: true }),
    );
    return Item as Stored<Record<string, unknown>> | undefined;
  }

  /** An item that a conditional put just found present. */
  /** Writes `entity` unless its item exists; a repeat returns the stored one (created: false). */
  private async createOnce<T extends object>(
    customer: string,
    sk: string,
    entity: T,
  ): Promise<{ item: T; created: boolean }> {
    if (await this.putNew(customer, sk, entity)) return { item: entity, created: true };
    return { item: await this.existing<T>(customer, sk), created: false };
  }

  private async existing<T>(customer: string, sk: string): Promise<T> {
    const item = await this.item(customer, sk);
    if (!item) throw new Error(`item ${sk} of customer "${customer}" was present and is now gone`);
    return entityOf<T>(item);
  }

  private putNew(customer: string, sk: string, entity: object): Promise<boolean> {
    return conditionalWrite(
      this.ddb.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: customerKey(customer), sk, ...entity },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
  }

  /** Every item of a customer's partition (or those whose sk starts with `prefix`), page by page. */
  private async partition(customer: string, prefix?: string): Promise<Array<Record<string, unknown>>> {
    return queryAllPages(this.ddb, {
      TableName: this.table,
      KeyConditionExpression: prefix ? "pk = :pk AND begins_with(sk, :prefix)" : "pk = :pk",
      ExpressionAttributeValues: {
        ":pk": customerKey(customer),
        ...(prefix ? { ":prefix": prefix } : {}),
      },
      ConsistentRead: true,
    });
  }
}

/** DynamoDB's ClientRequestToken (at most 36 characters) for a transfer: the same id, the same token. */
function transferToken(seed: string): string {
  return `transfer-${createHash("sha256").update(seed).digest("hex").slice(0, 27)}`;
}

/**
 * The last four digits shown for an account: the id's own last four digits when it has them, else
 * four digits taken from a hash of the id, so the same id always shows the same digits.
 */
export function last4Of(accountId: string): string {
  const digits = accountId.replace(/\D/g, "");
  if (digits.length >= 4) return digits.slice(-4);
  const hash = createHash("sha256").update(accountId).digest();
  return String(hash.readUInt32BE(0) % 10_000).padStart(4, "0");
}

/** `250000` USD → `2,500.00 USD`: the currency's own number of decimals (JPY none), exact integers. */
export function formatMinor(minor: number, currency: string): string {
  const decimals =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = decimals > 0 ? `.${digits.slice(-decimals)}` : "";
  return `${minor < 0 ? "-" : ""}${whole}${fraction} ${currency}`;
}
