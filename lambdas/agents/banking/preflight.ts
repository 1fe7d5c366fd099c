// Check before asking: a transfer is confirmed only when it can work. Before the customer is asked to
// say "yes", the details are checked against what they hold: the account they named is one account
// (else: which one?), the payee is one of theirs (else: which payee?), the currency is the account's
// (a missing one is taken from it), and the balance covers the amount (else: refused, saying what is
// available). Pure: the holdings are read by the caller.
import type { InputQuestion } from "../../core/types.ts";
import { formatMoney } from "./money.ts";
import type { ProductReference, SlotName, Slots } from "./nlu.ts";

export interface HeldAccount {
  account_id: string;
  type: string;
  name: string;
  last4: string;
  currency: string;
  balance_minor: number;
  status: string;
}

export interface HeldPayee {
  payee_id: string;
  name: string;
  aliases: readonly string[];
}

export interface Holdings {
  accounts: readonly HeldAccount[];
  payees: readonly HeldPayee[];
}

export interface TransferCheck {
  /** The details with what the holdings settle filled in (the currency), and what they refute removed. */
  slots: Slots;
  /** What the customer confirms, as the holdings name it: the account the money leaves, who receives it. */
  confirm?: { from: string; to?: string };
  /** Questions for the details removed: which account, which payee (each names the choices). */
  questions: InputQuestion[];
  /** Why the bank will not make this transfer at all, told to the customer; nothing is asked then. */
  refusal?: string;
}

const WHY = "needed to make the transfer";

/** The transfer's details checked against the customer's holdings. */
export function checkTransfer(slots: Slots, holdings: Holdings): TransferCheck {
  const checked: Slots = { ...slots };
  const questions: InputQuestion[] = [];
  const open = holdings.accounts.filter((account) => account.status === "open");
  const ask = (slot: SlotName, question: string, expected: string) => {
    delete checked[slot];
    questions.push({ field: `slots.${slot}`, question, why: WHY, expected, conditions: [] });
  };

  const from = slots.from_account ? resolveAccount(slots.from_account, open) : undefined;
  if (slots.from_account && from?.kind !== "one") {
    ask(
      "from_account",
      accountQuestion(slots.from_account, from?.kind === "several" ? from.matches : open, "come from"),
      "one of your accounts, by kind or last four digits",
    );
  }

  // What the customer confirms names exactly what will move: the account resolved, the payee's own name.
  let toName: string | undefined;
  let toAccount: HeldAccount | undefined;
  if (typeof slots.to === "string") {
    const matches = payeesNamed(slots.to, holdings.payees);
    if (matches.length === 1) toName = (matches[0] as HeldPayee).name;
    else {
      const names = (matches.length > 1 ? matches : holdings.payees).map((payee) => payee.name);
      ask(
        "to",
        matches.length > 1
          ? `Which ${slots.to} should receive it: ${orList(names)}?`
          : `I don't see a payee named ${slots.to} among yours${names.length ? ` (${names.join(", ")})` : ""}. Who should receive it?`,
        names.length ? `one of your payees: ${names.join(", ")}` : "a payee's name",
      );
    }
  } else if (slots.to) {
    const to = resolveAccount(slots.to, open);
    if (to.kind === "one") {
      toAccount = to.account;
      toName = `your ${to.account.type} account ending ${to.account.last4}`;
    } else {
      ask(
        "to",
        accountQuestion(slots.to, to.kind === "several" ? to.matches : open, "go to"),
        "a payee, or one of your accounts by kind or last four digits",
      );
    }
  }

  if (from?.kind !== "one") return { slots: checked, questions };
  const account = from.account;
  const named = `${account.type} account ending ${account.last4}`;
  const confirm = { from: named, ...(toName ? { to: toName } : {}) };
  if (checked.currency === undefined) checked.currency = account.currency;
  if (checked.currency !== account.currency) {
    return {
      slots: checked,
      questions,
      refusal: `your ${named} holds ${account.currency}, so it cannot send ${checked.currency}.`,
    };
  }
  if (toAccount && toAccount.currency !== account.currency) {
    return {
      slots: checked,
      questions,
      refusal: `your ${toAccount.type} account ending ${toAccount.last4} holds ${toAccount.currency}, and your ${named} holds ${account.currency}: a transfer between them would need a currency exchange, which I can't do here.`,
    };
  }
  if (toAccount && toAccount.account_id === account.account_id) {
    return { slots: checked, questions, refusal: `the money would go from your ${named} to itself.` };
  }
  if (checked.amount !== undefined && checked.amount > account.balance_minor) {
    return {
      slots: checked,
      questions,
      refusal: `your ${named} has ${formatMoney(account.balance_minor, account.currency)} available, less than the ${formatMoney(checked.amount, account.currency)} you asked to send.`,
    };
  }
  return { slots: checked, questions, confirm };
}

type Resolved =
  | { kind: "one"; account: HeldAccount }
  | { kind: "several"; matches: HeldAccount[] }
  | { kind: "none" };

function resolveAccount(reference: ProductReference, accounts: readonly HeldAccount[]): Resolved {
  const kind = reference.kind && reference.kind !== "all" ? reference.kind : undefined;
  const matches = accounts.filter(
    (account) => (!kind || account.type === kind) && (!reference.last4 || account.last4 === reference.last4),
  );
  if (matches.length === 1) return { kind: "one", account: matches[0] as HeldAccount };
  return matches.length > 1 ? { kind: "several", matches } : { kind: "none" };
}

function accountQuestion(reference: ProductReference, choices: readonly HeldAccount[], goes: string): string {
  const kind = reference.kind && reference.kind !== "all" ? `${reference.kind} ` : "";
  const listed = orList(choices.map((account) => `your ${account.type} account ending ${account.last4}`));
  const several = choices.length > 1 && choices.every((account) => !kind || account.type === reference.kind);
  return several && kind
    ? `You have more than one ${kind}account. Which one should the money ${goes}: ${listed}?`
    : `I can't find a ${kind}account${reference.last4 ? ` ending ${reference.last4}` : ""} of yours. Which account should the money ${goes}${choices.length ? `: ${listed}` : ""}?`;
}

/** A payee named in full (or by an alias), or by first name alone. */
export function payeesNamed<T extends HeldPayee>(name: string, payees: readonly T[]): T[] {
  const wanted = normalizeName(name);
  return payees.filter((payee) =>
    [payee.name, ...payee.aliases].some((known) => {
      const candidate = normalizeName(known);
      return candidate === wanted || candidate.split(" ")[0] === wanted;
    }),
  );
}

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, " ");
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}
