// The banking assistant's offline understanding of a chat message: which of the five requests it
// is (intent) and the details it names (slots), by patterns rather than a model, so the assistant
// runs with no LLM at all. Tolerant of paraphrase and common typos ("lsot my card", "tranfser");
// what it cannot tell it leaves missing, and the conversation asks for it.

export const BANKING_INTENTS = [
  "lost_stolen_card",
  "report_fraud",
  "open_account",
  "check_balance",
  "transfer",
] as const;
export type BankingIntent = (typeof BANKING_INTENTS)[number];

export type SlotName =
  | "card"
  | "account"
  | "account_type"
  | "amount"
  | "currency"
  | "from_account"
  | "to"
  | "description";

/** What each request needs before it can run; the assistant asks for the missing ones. */
export const REQUIRED_SLOTS: Readonly<Record<BankingIntent, readonly SlotName[]>> = {
  lost_stolen_card: ["card"],
  report_fraud: ["description"],
  open_account: ["account_type"],
  check_balance: ["account"],
  transfer: ["amount", "currency", "from_account", "to"],
};

/**
 * An account or card as the customer names it: a kind ("checking", "savings", "debit", "credit"),
 * the last four digits, or both. Resolved against the customer's own accounts by the tools.
 */
export interface ProductReference {
  kind?: string;
  last4?: string;
}

export interface Slots {
  card?: ProductReference;
  account?: ProductReference;
  account_type?: "checking" | "savings";
  /** Integer minor units (cents): money is never a float. */
  amount?: number;
  /** ISO 4217. */
  currency?: string;
  from_account?: ProductReference;
  /** A payee's name, or one of the customer's own accounts. */
  to?: string | ProductReference;
  description?: string;
}

export interface Understanding {
  intent: BankingIntent | null;
  slots: Slots;
  missing: SlotName[];
}

export type ChatCommand = "cancel" | "reset" | "new_request";

// Typos tolerated where customers make them: one letter dropped, doubled or swapped.
const INTENT_PATTERNS: ReadonlyArray<readonly [BankingIntent, RegExp]> = [
  [
    "report_fraud",
    /\b(fraud\w*|fruad\w*|scam\w*|unauthori[sz]ed|didn'?t (make|authori[sz]e)|did not (make|authori[sz]e)|not me|suspicious|hack(ed)?|someone used)\b/i,
  ],
  [
    "lost_stolen_card",
    /\b(lost|lsot|los|misplaced|stolen|stole|stolne|can'?t find|cannot find|missing|block|freeze|frozen)\b[^.]*\b(card|crad|debit|credit|visa|mastercard)\b|\b(card|crad)\b[^.]*\b(lost|stolen|missing|gone|block(ed)?|freeze)\b/i,
  ],
  ["transfer", /\b(transfer\w*|tranfser\w*|trasnfer\w*|tranfer\w*|send|sned|pay|wire|move|zelle|venmo)\b/i],
  [
    "check_balance",
    /\b(balances?|balnce|blance|how much (money )?(do i|have i)|what'?s in my|funds available|available funds)\b/i,
  ],
  ["open_account", /\b(open|opne|start|create|new)\b[^.]*\b(account|acount|acct|checking|savings)\b/i],
];

/** The request a message makes, or null when it makes none of the five. */
export function detectIntent(message: string): BankingIntent | null {
  const text = normalize(message);
  for (const [intent, pattern] of INTENT_PATTERNS) if (pattern.test(text)) return intent;
  return null;
}

/** "cancel", "start over", "new request": what the customer says to the conversation itself. */
export function detectCommand(message: string): ChatCommand | null {
  const text = normalize(message).trim();
  if (/^(cancel|stop|never ?mind|nevermind|forget it|abort)\b/i.test(text)) return "cancel";
  if (/^(reset|start over|restart|clear)\b/i.test(text)) return "reset";
  if (/^(new request|something else|another (thing|request)|different request)\b/i.test(text))
    return "new_request";
  return null;
}

/** Intent and slots of a message; with `intent`, the message is read as details of that request. */
export function understand(
  message: string,
  intent: BankingIntent | null = detectIntent(message),
): Understanding {
  const text = normalize(message);
  const slots = intent ? extractSlots(intent, text) : {};
  return { intent, slots, missing: intent ? missingSlots(intent, slots) : [] };
}

export function missingSlots(intent: BankingIntent, slots: Slots): SlotName[] {
  return REQUIRED_SLOTS[intent].filter((name) => slots[name] === undefined);
}

/** Details named later fill what was missing; what was already known stays. */
export function mergeSlots(known: Slots, later: Slots): Slots {
  const merged: Slots = { ...later };
  for (const [name, value] of Object.entries(known) as Array<[keyof Slots, Slots[keyof Slots]]>) {
    if (value !== undefined) (merged as Record<string, unknown>)[name] = value;
  }
  return merged;
}

function extractSlots(intent: BankingIntent, text: string): Slots {
  switch (intent) {
    case "lost_stolen_card":
      return definedOnly({ card: cardReference(text) });
    case "report_fraud":
      return definedOnly({
        description: fraudDescription(text),
        card: cardReference(text),
        account: accountReference(text),
      });
    case "open_account":
      return definedOnly({ account_type: accountType(text) });
    case "check_balance":
      return definedOnly({
        account:
          accountReference(text) ??
          (/\b(all|every|my) (accounts|balances)\b/i.test(text) ? { kind: "all" } : undefined),
      });
    case "transfer":
      return transferSlots(text);
  }
}

function transferSlots(text: string): Slots {
  const money = findMoney(text);
  const from =
    /\bfrom (?:my )?((?:account |acct )?(?:ending (?:in )?)?\*{0,4}\d{4}|[a-z]+(?: account)?)\b/i.exec(text);
  // "to" as a preposition, not "to make a transfer", "to send money".
  const to =
    /\bto (?!(?:make|do|send|transfer|pay|move|wire|see|know|check|report|open)\b)(?:my )?((?:account |acct )?(?:ending (?:in )?)?\*{0,4}\d{4}|[a-z][a-z .'-]*?)(?= from\b| on\b| for\b| today\b| now\b|[.,!?]|$)/i.exec(
      text,
    );
  const fromRef = from ? productReference(from[1] ?? "") : undefined;
  const toText = to?.[1]?.trim();
  const toRef = toText ? (productReference(toText) ?? titleCase(toText)) : undefined;
  return definedOnly({
    amount: money?.amount,
    currency: money?.currency,
    from_account: fromRef,
    to: toRef,
  });
}

const CURRENCY_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(\$|usd|dollars?|bucks?)$/i, "USD"],
  [/^(€|eur|euros?)$/i, "EUR"],
  [/^(£|gbp|pounds?)$/i, "GBP"],
];

/** "$50", "50 dollars", "1,250.50 USD", "€20": the amount in minor units and its currency. */
export function findMoney(text: string): { amount: number; currency?: string } | undefined {
  // "k" is thousands ("$2k"); any other letter glued to the number makes it something else, never
  // a smaller amount than the customer meant.
  const pattern =
    /(?<symbol>[$€£])\s?(?<a>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?<c>\d{1,2}))?(?<ka>k\b)?(?![\w.,])|(?<b>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?<d>\d{1,2}))?(?<kb>k)?\s?(?<word>usd|eur|gbp|dollars?|bucks?|euros?|pounds?)\b/i;
  const match = pattern.exec(text);
  if (!match?.groups) return undefined;
  const whole = (match.groups.a ?? match.groups.b ?? "").replace(/,/g, "");
  const cents = (match.groups.c ?? match.groups.d ?? "").padEnd(2, "0");
  const thousands = match.groups.ka || match.groups.kb ? 1_000 : 1;
  const amount = (Number(whole) * 100 + Number(cents || "0")) * thousands;
  if (!Number.isSafeInteger(amount) || amount <= 0) return undefined;
  const unit = match.groups.symbol ?? match.groups.word ?? "";
  const currency = CURRENCY_WORDS.find(([word]) => word.test(unit))?.[1];
  return currency ? { amount, currency } : { amount };
}

function cardReference(text: string): ProductReference | undefined {
  const last4 = /\b(?:card|ending|ends)\D{0,12}(\d{4})\b/i.exec(text)?.[1];
  const kind = /\b(debit|credit|visa|mastercard)\b/i.exec(text)?.[1]?.toLowerCase();
  if (!last4 && !kind) return undefined;
  return definedOnly({ kind: kind === "visa" || kind === "mastercard" ? "credit" : kind, last4 });
}

function accountReference(text: string): ProductReference | undefined {
  const last4 = /\b(?:account|acct|ending|ends)\D{0,12}(\d{4})\b/i.exec(text)?.[1];
  const kind = /\b(checking|chequing|savings|saving)\b/i.exec(text)?.[1]?.toLowerCase();
  if (!last4 && !kind) return undefined;
  return definedOnly({ kind: kind ? canonicalKind(kind) : undefined, last4 });
}

function productReference(text: string): ProductReference | undefined {
  const last4 = /(\d{4})\s*$/.exec(text)?.[1];
  const kind = /\b(checking|chequing|savings|saving)\b/i.exec(text)?.[1]?.toLowerCase();
  if (!last4 && !kind) return undefined;
  return definedOnly({ kind: kind ? canonicalKind(kind) : undefined, last4 });
}

function accountType(text: string): "checking" | "savings" | undefined {
  const kind = /\b(checking|chequing|savings|saving)\b/i.exec(text)?.[1]?.toLowerCase();
  return kind ? (canonicalKind(kind) as "checking" | "savings") : undefined;
}

function canonicalKind(kind: string): string {
  return kind.startsWith("sav") ? "savings" : "checking";
}

/**
 * What happened, in the customer's words, when they said what it was (a charge, a withdrawal, a
 * login) rather than only "fraud": a fraud case needs something to investigate.
 */
function fraudDescription(text: string): string | undefined {
  const detailed =
    /\b(charges?|transactions?|withdrawals?|purchases?|payments?|transfers?|log-?ins?|logged|emails?|calls?|texts?|debits?)\b/i.test(
      text,
    ) || findMoney(text) !== undefined;
  return detailed ? text.trim() : undefined;
}

function titleCase(name: string): string {
  return name.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}

function normalize(message: string): string {
  return message
    .normalize("NFKC")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ");
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
