// The banking tools as the planner and the registry know them: names, descriptions, argument schemas
// and time limits. What they do (lambdas/agents/banking/banking-tools.ts, over the core-banking store) only the
// worker links, so the other functions' bundles carry neither the tools' code nor the store.
import * as z from "zod";
import { lazily } from "../../core/lazy.ts";
import { defineTool, type ToolContext, type ToolDefinition } from "../../tools/registry.ts";
import { BANKING_TOOLS } from "./profile.ts";

/**
 * The tools' argument schemas, built the first time a banking tool's args are read (each definition's
 * `args` is a getter): a function that never handles a banking step builds none of them.
 */
const bankingToolArgs = /* @__PURE__ */ lazily(() => {
  const Reference = z
    .object({
      kind: z.string().min(1).optional().describe('"checking", "savings", "debit" or "credit"'),
      last4: z
        .string()
        .regex(/^\d{4}$/, "expected the last four digits")
        .optional(),
    })
    .strict();

  /** Null until the customer says: the run asks before any tool runs. */
  const Pending = <T extends z.ZodType>(schema: T) => schema.nullable();

  const FindCardArgs = z.object({ card: Pending(Reference) }).strict();
  const BlockCardArgs = z
    .object({ card_id: z.string().min(1), reason: z.enum(["lost", "stolen", "fraud"]) })
    .strict();
  const OpenFraudCaseArgs = z
    .object({
      description: Pending(z.string().min(1).max(2_000)),
      card_id: z.string().min(1).optional(),
      account_id: z.string().min(1).optional(),
    })
    .strict();
  const OpenAccountArgs = z
    .object({
      account_type: Pending(z.enum(["checking", "savings"])),
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/, "expected an ISO 4217 code such as USD")
        .default("USD"),
    })
    .strict();
  const FindAccountArgs = z.object({ account: Pending(Reference) }).strict();
  const GetBalanceArgs = z.object({ account_id: z.string().min(1) }).strict();
  const FindPayeeArgs = z.object({ name: Pending(z.string().min(1).max(200)) }).strict();
  const TransferArgs = z
    .object({
      from_account_id: z.string().min(1),
      payee_id: z.string().min(1).optional(),
      to_account_id: z.string().min(1).optional(),
      amount_minor: Pending(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).describe(
        "integer minor units (cents)",
      ),
      currency: Pending(z.string().regex(/^[A-Z]{3}$/, "expected an ISO 4217 code such as USD")),
    })
    .strict()
    .refine((args) => (args.payee_id === undefined) !== (args.to_account_id === undefined), {
      message: "expected exactly one of payee_id and to_account_id",
    });
  return {
    Reference,
    FindCardArgs,
    BlockCardArgs,
    OpenFraudCaseArgs,
    OpenAccountArgs,
    FindAccountArgs,
    GetBalanceArgs,
    FindPayeeArgs,
    TransferArgs,
  };
});
type BankingToolArgs = ReturnType<typeof bankingToolArgs>;
type ArgsOf<Name extends keyof BankingToolArgs> = z.infer<BankingToolArgs[Name]>;

/** How a customer names a card or an account: its kind and last four digits, each optional. */
export type Reference = ArgsOf<"Reference">;

/** What each banking tool does when it runs, by tool (lambdas/agents/banking/banking-tools.ts). */
export interface BankingToolRunners {
  findCard(args: ArgsOf<"FindCardArgs">, context: ToolContext): Promise<unknown>;
  blockCard(args: ArgsOf<"BlockCardArgs">, context: ToolContext): Promise<unknown>;
  openFraudCase(args: ArgsOf<"OpenFraudCaseArgs">, context: ToolContext): Promise<unknown>;
  openAccount(args: ArgsOf<"OpenAccountArgs">, context: ToolContext): Promise<unknown>;
  findAccount(args: ArgsOf<"FindAccountArgs">, context: ToolContext): Promise<unknown>;
  getBalance(args: ArgsOf<"GetBalanceArgs">, context: ToolContext): Promise<unknown>;
  findPayee(args: ArgsOf<"FindPayeeArgs">, context: ToolContext): Promise<unknown>;
  transferFunds(args: ArgsOf<"TransferArgs">, context: ToolContext): Promise<unknown>;
}

/** The tools, whose runners are asked for only when a tool runs (only the worker has them). */
export function describeBankingToolCatalog(runners: () => BankingToolRunners): ToolDefinition[] {
  return [
    defineTool({
      name: BANKING_TOOLS.findCard,
      description:
        "Finds one of the customer's cards from how they named it ({kind: debit|credit, last4}); output {card_id, kind, last4, status}.",
      get args() {
        return bankingToolArgs().FindCardArgs;
      },
      timeout_ms: 10_000,
      run: (args, context) => runners().findCard(args, context),
    }),
    defineTool({
      name: BANKING_TOOLS.blockCard,
      description:
        "Blocks one of the customer's cards (lost, stolen or fraud); blocking a blocked card changes nothing. Output {card_id, kind, last4, status, changed}.",
      get args() {
        return bankingToolArgs().BlockCardArgs;
      },
      timeout_ms: 10_000,
      settles_on_abort: true,
      run: (args, context) => runners().blockCard(args, context),
    }),
    defineTool({
      name: BANKING_TOOLS.openFraudCase,
      description:
        "Opens a fraud case for the customer with their description, optionally about one of their cards or accounts. Output {case_id, status, card_id?, created}.",
      get args() {
        return bankingToolArgs().OpenFraudCaseArgs;
      },
      timeout_ms: 10_000,
      settles_on_abort: true,
      run: (args, context) => runners().openFraudCase(args, context),
    }),
    defineTool({
      name: BANKING_TOOLS.openAccount,
      description:
        "Opens a new checking or savings account for the customer, with a zero balance. Output {account_id, type, last4, currency, balance_minor, created}.",
      get args() {
        return bankingToolArgs().OpenAccountArgs;
      },
      timeout_ms: 10_000,
      settles_on_abort: true,
      run: (args, context) => runners().openAccount(args, context),
    }),
    defineTool({
      name: BANKING_TOOLS.findAccount,
      description:
        "Finds one of the customer's accounts from how they named it ({kind: checking|savings, last4}); output {account_id, type, name, last4, currency}.",
      get args() {
        return bankingToolArgs().FindAccountArgs;
      },
      timeout_ms: 10_000,
      run: (args, context) => runners().findAccount(args, context),
    }),
    defineTool({
      name: BANKING_TOOLS.getBalance,
      description:
        "Reads the balance of one of the customer's accounts; output {account_id, name, last4, currency, balance_minor}.",
      get args() {
        return bankingToolArgs().GetBalanceArgs;
      },
      timeout_ms: 10_000,
      run: (args, context) => runners().getBalance(args, context),
    }),
    defineTool({
      name: BANKING_TOOLS.findPayee,
      description: "Finds one of the customer's payees by name or alias; output {payee_id, name}.",
      get args() {
        return bankingToolArgs().FindPayeeArgs;
      },
      timeout_ms: 10_000,
      run: (args, context) => runners().findPayee(args, context),
    }),
    defineTool({
      name: BANKING_TOOLS.transferFunds,
      description:
        "Moves money from one of the customer's accounts to a payee (payee_id) or to another of their accounts (to_account_id), in one transaction that refuses an overdraft; retried, it never sends twice. Amount in integer minor units. Output {transfer_id, amount_minor, currency, to_name, created, from: the account after}.",
      get args() {
        return bankingToolArgs().TransferArgs as unknown as z.ZodType<ArgsOf<"TransferArgs">>;
      },
      timeout_ms: 20_000,
      settles_on_abort: true,
      run: (args, context) => runners().transferFunds(args, context),
    }),
  ];
}
