// Held-out chat messages for the banking assistant: written as customers type them (lower case, no
// punctuation, typos, amounts in many forms, slot-only answers to a question the assistant asked,
// commands, requests the assistant does not handle), labelled by hand without looking at the
// patterns of lambdas/agents/banking/nlu.ts. Its score (bench/banking-nlu.ts) is the one that says how
// the rules fare on messages nobody tuned them for.
//
// This table is never used to tune the rules. If a later change to the rules is made because of one
// of these messages, that message moves to the development table (examples/banking/messages.ts) and
// a new unseen message takes its place here, so the held-out score stays honest.
//
// Labelling conventions (the same as the development table's):
// - a slot is labelled only when the message names it; the rest must stay missing, so the
//   assistant asks for them;
// - an amount is labelled only with its currency ("$50", "50 bucks", "fifty dollars", "€20",
//   "20 EUR"); a bare number ("move 500") leaves both missing, because guessing the currency of
//   someone's money is the one mistake the assistant must not make;
// - a card is a kind ("debit", or "credit" for Visa and Amex) and/or the last four digits; an account
//   is "checking" (also "chequing"), "savings", or "all" for every account;
// - a payee is the name as the customer wrote it, first letters capitalised ("mom" → "Mom"); one of
//   the customer's own accounts as a payee is a reference ({ kind: "savings" });
// - a fraud report's description is the whole message, and only when it says what happened (an
//   amount, a merchant, a place, the card or account it hit); "I want to report fraud" has none;
// - `pending` is the request the assistant was already collecting details for when the message
//   came: the message is read as an answer to it (understand(message, pending));
// - `command` is what the message says to the conversation itself; a command decides what happens
//   whatever else the message says, so its intent is null and its slots are not scored.
import type { BankingIntent, ChatCommand } from "../../lambdas/agents/banking/nlu.ts";
import type { LabelledMessage } from "./messages.ts";

export interface HeldOutMessage extends LabelledMessage {
  /** The request under way when the message came: the message answers its questions. */
  pending?: BankingIntent;
  /** What the message says to the conversation itself (none when absent). */
  command?: ChatCommand;
}

const described = (message: string) => ({ description: message });

export const HELD_OUT_MESSAGES: readonly HeldOutMessage[] = [
  // Lost or stolen cards
  {
    message: "my visa ending 9876 was stolen",
    intent: "lost_stolen_card",
    slots: { card: { kind: "credit", last4: "9876" } },
  },
  { message: "stolne card!! please help", intent: "lost_stolen_card", slots: {} },
  {
    message: "lost my debit card at the airport",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit" } },
  },
  {
    message: "I can't find my credit card, can you lock it",
    intent: "lost_stolen_card",
    slots: { card: { kind: "credit" } },
  },
  { message: "block card 4417", intent: "lost_stolen_card", slots: { card: { last4: "4417" } } },
  {
    message: "my amex got stolen on the train",
    intent: "lost_stolen_card",
    slots: { card: { kind: "credit" } },
  },
  {
    message: "cancel my debit card, it was stolen",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit" } },
  },
  { message: "i think i left my card at the restaurant last night", intent: "lost_stolen_card", slots: {} },
  { message: "Report a lost card", intent: "lost_stolen_card", slots: {} },
  { message: "my wallet was stolen", intent: "lost_stolen_card", slots: {} },
  {
    message: "lost debit crd ending in 0032",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit", last4: "0032" } },
  },
  { message: "pls freeze my card i dropped it somewhere", intent: "lost_stolen_card", slots: {} },

  // Fraud
  {
    message: "someone used my card without my permission",
    intent: "report_fraud",
    slots: described("someone used my card without my permission"),
  },
  {
    message: "there's a $450 charge on my credit card from amazon that i never made",
    intent: "report_fraud",
    slots: {
      card: { kind: "credit" },
      ...described("there's a $450 charge on my credit card from amazon that i never made"),
    },
  },
  { message: "I didnt authorize this transaction", intent: "report_fraud", slots: {} },
  {
    message: "frad alert - unknown charges on my checking account ending 2290",
    intent: "report_fraud",
    slots: {
      account: { kind: "checking", last4: "2290" },
      ...described("frad alert - unknown charges on my checking account ending 2290"),
    },
  },
  { message: "i want to dispute a fraudulent charge", intent: "report_fraud", slots: {} },
  {
    message: "Someone withdrew $600 from my savings at an ATM in another state",
    intent: "report_fraud",
    slots: {
      account: { kind: "savings" },
      ...described("Someone withdrew $600 from my savings at an ATM in another state"),
    },
  },
  { message: "identity theft", intent: "report_fraud", slots: {} },
  {
    message: "my debit card has charges i dont recognise from netflix and uber",
    intent: "report_fraud",
    slots: {
      card: { kind: "debit" },
      ...described("my debit card has charges i dont recognise from netflix and uber"),
    },
  },
  { message: "how do i report a scam", intent: "report_fraud", slots: {} },

  // Opening an account
  {
    message: "I want to open a checking account",
    intent: "open_account",
    slots: { account_type: "checking" },
  },
  { message: "open savings acct", intent: "open_account", slots: { account_type: "savings" } },
  { message: "can i get a new account", intent: "open_account", slots: {} },
  {
    message: "Id like to sign up for a savings account please",
    intent: "open_account",
    slots: { account_type: "savings" },
  },
  { message: "opne a chekcing account", intent: "open_account", slots: { account_type: "checking" } },
  { message: "want to start banking with you, need an account", intent: "open_account", slots: {} },
  {
    message: "open a joint checking account for me and my wife",
    intent: "open_account",
    slots: { account_type: "checking" },
  },
  { message: "create new savings", intent: "open_account", slots: { account_type: "savings" } },
  { message: "I'd like to open an account for my business", intent: "open_account", slots: {} },

  // Balances
  {
    message: "how much do i have in checking",
    intent: "check_balance",
    slots: { account: { kind: "checking" } },
  },
  { message: "whats my savings balance", intent: "check_balance", slots: { account: { kind: "savings" } } },
  { message: "blance pls", intent: "check_balance", slots: {} },
  {
    message: "balance on acct ending 5521",
    intent: "check_balance",
    slots: { account: { last4: "5521" } },
  },
  {
    message: "Can you tell me how much money is in my accounts?",
    intent: "check_balance",
    slots: { account: { kind: "all" } },
  },
  {
    message: "check my checking balance",
    intent: "check_balance",
    slots: { account: { kind: "checking" } },
  },
  { message: "am i overdrawn?", intent: "check_balance", slots: {} },
  {
    message: "how much is left in my savings account",
    intent: "check_balance",
    slots: { account: { kind: "savings" } },
  },
  {
    message: "available balance on my chequing",
    intent: "check_balance",
    slots: { account: { kind: "checking" } },
  },
  { message: "show balances for all accounts", intent: "check_balance", slots: { account: { kind: "all" } } },
  {
    message: "what's my balance on the account ending in 1187",
    intent: "check_balance",
    slots: { account: { last4: "1187" } },
  },

  // Transfers
  {
    message: "transfr $50 to Mike",
    intent: "transfer",
    slots: { amount: 5000, currency: "USD", to: "Mike" },
  },
  {
    message: "send 50 bucks to jenny from checking",
    intent: "transfer",
    slots: { amount: 5000, currency: "USD", from_account: { kind: "checking" }, to: "Jenny" },
  },
  {
    message: "send fifty dollars to my mom",
    intent: "transfer",
    slots: { amount: 5000, currency: "USD", to: "Mom" },
  },
  {
    message: "move €20 from savings to checking",
    intent: "transfer",
    slots: { amount: 2000, currency: "EUR", from_account: { kind: "savings" }, to: { kind: "checking" } },
  },
  {
    message: "transfer 20 EUR to Pierre Martin",
    intent: "transfer",
    slots: { amount: 2000, currency: "EUR", to: "Pierre Martin" },
  },
  {
    message: "pay $1,250.75 to Greenfield Property Management from my checking account",
    intent: "transfer",
    slots: {
      amount: 125075,
      currency: "USD",
      from_account: { kind: "checking" },
      to: "Greenfield Property Management",
    },
  },
  { message: "I need to send money to David", intent: "transfer", slots: { to: "David" } },
  {
    message: "wire 2000 usd from account ending 4410 to Chen Wei",
    intent: "transfer",
    slots: { amount: 200000, currency: "USD", from_account: { last4: "4410" }, to: "Chen Wei" },
  },
  {
    message: "can u move 300 dollars to savings",
    intent: "transfer",
    slots: { amount: 30000, currency: "USD", to: { kind: "savings" } },
  },
  { message: "zelle tom 25", intent: "transfer", slots: { to: "Tom" } },
  {
    message: "send £30 to Oliver",
    intent: "transfer",
    slots: { amount: 3000, currency: "GBP", to: "Oliver" },
  },
  {
    message: "Transfer 100 euros from my savings to Anna",
    intent: "transfer",
    slots: { amount: 10000, currency: "EUR", from_account: { kind: "savings" }, to: "Anna" },
  },
  { message: "i want to transfer money between my accounts", intent: "transfer", slots: {} },
  {
    message: "send $12.50 to Liam for lunch",
    intent: "transfer",
    slots: { amount: 1250, currency: "USD", to: "Liam" },
  },
  {
    message: "tranfer 75$ to sarah from chekcing",
    intent: "transfer",
    slots: { amount: 7500, currency: "USD", from_account: { kind: "checking" }, to: "Sarah" },
  },
  {
    message: "send USD 400 to Acme Plumbing LLC",
    intent: "transfer",
    slots: { amount: 40000, currency: "USD", to: "Acme Plumbing LLC" },
  },
  {
    message: "move 500 from checking to savings",
    intent: "transfer",
    slots: { from_account: { kind: "checking" }, to: { kind: "savings" } },
  },
  {
    message: "send ten bucks to Max",
    intent: "transfer",
    slots: { amount: 1000, currency: "USD", to: "Max" },
  },

  // Answers to the assistant's question about a request under way
  { message: "$75", pending: "transfer", intent: "transfer", slots: { amount: 7500, currency: "USD" } },
  {
    message: "from my savings",
    pending: "transfer",
    intent: "transfer",
    slots: { from_account: { kind: "savings" } },
  },
  { message: "to jenny", pending: "transfer", intent: "transfer", slots: { to: "Jenny" } },
  {
    message: "200 euros",
    pending: "transfer",
    intent: "transfer",
    slots: { amount: 20000, currency: "EUR" },
  },
  {
    message: "from the account ending 8832",
    pending: "transfer",
    intent: "transfer",
    slots: { from_account: { last4: "8832" } },
  },
  {
    message: "fifty bucks",
    pending: "transfer",
    intent: "transfer",
    slots: { amount: 5000, currency: "USD" },
  },
  {
    message: "the debit one",
    pending: "lost_stolen_card",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit" } },
  },
  {
    message: "it ends in 7712",
    pending: "lost_stolen_card",
    intent: "lost_stolen_card",
    slots: { card: { last4: "7712" } },
  },
  {
    message: "my visa",
    pending: "lost_stolen_card",
    intent: "lost_stolen_card",
    slots: { card: { kind: "credit" } },
  },
  {
    message: "savings",
    pending: "check_balance",
    intent: "check_balance",
    slots: { account: { kind: "savings" } },
  },
  {
    message: "all of them",
    pending: "check_balance",
    intent: "check_balance",
    slots: { account: { kind: "all" } },
  },
  {
    message: "checking please",
    pending: "open_account",
    intent: "open_account",
    slots: { account_type: "checking" },
  },
  {
    message: "a savings one",
    pending: "open_account",
    intent: "open_account",
    slots: { account_type: "savings" },
  },
  {
    message: "someone charged $300 at an electronics store in Miami on my credit card, it wasnt me",
    pending: "report_fraud",
    intent: "report_fraud",
    slots: {
      card: { kind: "credit" },
      ...described("someone charged $300 at an electronics store in Miami on my credit card, it wasnt me"),
    },
  },
  {
    message: "actually forget it, dont send anything",
    pending: "transfer",
    intent: null,
    slots: {},
    command: "cancel",
  },

  // Commands
  { message: "nevermind", intent: null, slots: {}, command: "cancel" },
  { message: "forget it", intent: null, slots: {}, command: "cancel" },
  { message: "stop, cancel that", intent: null, slots: {}, command: "cancel" },
  { message: "Cancel the transfer", intent: null, slots: {}, command: "cancel" },
  { message: "let's start again", intent: null, slots: {}, command: "reset" },
  { message: "reset", intent: null, slots: {}, command: "reset" },
  { message: "restart", intent: null, slots: {}, command: "reset" },
  { message: "i need help with something else", intent: null, slots: {}, command: "new_request" },
  { message: "different request", intent: null, slots: {}, command: "new_request" },

  // Not one of the five
  { message: "hi there", intent: null, slots: {} },
  { message: "what's your routing number", intent: null, slots: {} },
  { message: "how do I change my mailing address", intent: null, slots: {} },
  { message: "is the downtown branch open on saturday", intent: null, slots: {} },
  { message: "I want to close my savings account", intent: null, slots: {} },
  { message: "apply for a credit card", intent: null, slots: {} },
  { message: "my card got declined at the grocery store", intent: null, slots: {} },
  { message: "how much is the overdraft fee", intent: null, slots: {} },
  { message: "what's the exchange rate for euros today", intent: null, slots: {} },
  { message: "ok great thank you so much", intent: null, slots: {} },
  { message: "order new checks", intent: null, slots: {} },
  { message: "when will my paycheck be deposited?", intent: null, slots: {} },
];
