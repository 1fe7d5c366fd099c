import { describe, expect, it } from "vitest";
import { LABELLED_MESSAGES } from "../../../examples/banking/messages.ts";
import {
  detectCommand,
  detectIntent,
  findMoney,
  mergeSlots,
  missingSlots,
  payeeName,
  readAnswer,
  readConfirmation,
  understand,
  withResolvedAmount,
} from "../../../lambdas/agents/banking/nlu.ts";

describe("banking NLU on the labelled messages", () => {
  it("has at least 100 labelled messages, each once", () => {
    expect(LABELLED_MESSAGES.length).toBeGreaterThanOrEqual(100);
    const messages = LABELLED_MESSAGES.map((labelled) => labelled.message.toLowerCase());
    expect(new Set(messages).size).toBe(messages.length);
  });

  it.each(LABELLED_MESSAGES.map((labelled) => [labelled.message, labelled] as const))("%s", (_, labelled) => {
    expect(detectCommand(labelled.message)).toBe(labelled.command ?? null);
    if (labelled.command) return;
    const understood = labelled.pending
      ? understand(labelled.message, labelled.pending)
      : understand(labelled.message);
    expect(understood.intent).toBe(labelled.intent);
    expect(understood.slots).toEqual(labelled.slots);
  });
});

describe("missing slots and follow-ups", () => {
  it("a transfer without its source account asks for it, and a follow-up fills it", () => {
    const first = understand("send 50 dollars to Sam");
    expect(first.missing).toEqual(["from_account"]);
    const later = understand("from my checking", "transfer");
    const slots = mergeSlots(first.slots, later.slots);
    expect(slots).toEqual({ amount: 5000, currency: "USD", to: "Sam", from_account: { kind: "checking" } });
  });

  it("details known before are not overwritten by a follow-up", () => {
    expect(mergeSlots({ amount: 5000 }, { amount: 9900, to: "Sam" })).toEqual({ amount: 5000, to: "Sam" });
  });

  it("an amount without a currency is kept as written, and only the currency is asked", () => {
    expect(findMoney("pay 40 to Sam")).toBeUndefined();
    expect(findMoney("pay 40 to Sam", { bare: true })).toEqual({ asWritten: "40" });
    expect(findMoney("pay $0 to Sam")).toBeUndefined();
    expect(findMoney("pay $12.5 to Sam")).toEqual({ amount: 1250, currency: "USD", asWritten: "12.5" });

    const first = understand("transfer 200 to my mom from checking");
    expect(first.slots).toEqual({
      amount_as_written: "200",
      from_account: { kind: "checking" },
      to_relation: "mom",
    });
    expect(first.missing).toEqual(["currency", "to"]);
    // The currency decides the minor units: 200 dollars are 20000 cents, 200 yen are 200 yen.
    expect(withResolvedAmount({ ...first.slots, currency: "USD" })).toEqual({
      amount: 20_000,
      currency: "USD",
      from_account: { kind: "checking" },
      to_relation: "mom",
    });
    expect(withResolvedAmount({ ...first.slots, currency: "JPY" }).amount).toBe(200);
    expect(withResolvedAmount({ amount_as_written: "1.25", currency: "KWD" }).amount).toBe(1_250);
  });

  it("asks the amount again when it has more decimals than its currency has, never rounding it", () => {
    const yen = understand("send ¥12.5 to Kenji from savings");
    expect(yen.slots).toMatchObject({ currency: "JPY", amount_as_written: "12.5" });
    expect(yen.slots.amount).toBeUndefined();
    expect(yen.missing).toEqual(["amount"]);
    expect(missingSlots("transfer", { amount_as_written: "12.345", currency: "USD" })).toContain("amount");
  });

  it("reads a relation as someone to ask about, and keeps a name given with it", () => {
    expect(understand("send mom $50").slots).toEqual({ amount: 5_000, currency: "USD", to_relation: "mom" });
    expect(understand("send $50 to my sister Ana").slots).toEqual({
      amount: 5_000,
      currency: "USD",
      to: "Ana",
    });
    expect(understand("send $50 to my sister").missing).toEqual(["from_account", "to"]);
    expect(understand("pay Bob Stone 20 bucks from savings").slots).toEqual({
      amount: 2_000,
      currency: "USD",
      to: "Bob Stone",
      from_account: { kind: "savings" },
    });
  });
});

describe("payees and answers", () => {
  it.each([
    "no",
    "nope",
    "cancel",
    "yes",
    "ok",
    "stop",
    "never mind",
    "my mom",
    "savings",
    "hello",
    "200",
    "idk",
  ])("%s is no payee", (answer) => {
    expect(payeeName(answer)).toBeUndefined();
    expect(readAnswer("transfer", "to", answer).to).not.toBeTypeOf("string");
  });

  it("reads a name, an own account or a relation answering who should receive it", () => {
    expect(payeeName("bob stone")).toBe("Bob Stone");
    expect(payeeName("to Maria Lopez.")).toBe("Maria Lopez");
    expect(readAnswer("transfer", "to", "Linda")).toEqual({ to: "Linda" });
    expect(readAnswer("transfer", "to", "my savings")).toEqual({ to: { kind: "savings" } });
    expect(readAnswer("transfer", "to", "my mom")).toEqual({ to_relation: "mom" });
    expect(readAnswer("transfer", "to", "nope")).toEqual({});
  });

  it("reads each answer with its question in mind", () => {
    expect(readAnswer("transfer", "currency", "euros please")).toEqual({ currency: "EUR" });
    expect(readAnswer("transfer", "currency", "KWD")).toEqual({ currency: "KWD" });
    expect(readAnswer("transfer", "amount", "200")).toEqual({ amount_as_written: "200" });
    expect(readAnswer("transfer", "amount", "fifty bucks")).toEqual({ amount: 5_000, currency: "USD" });
    expect(readAnswer("transfer", "from_account", "savings")).toEqual({ from_account: { kind: "savings" } });
    expect(readAnswer("lost_stolen_card", "card", "4321")).toEqual({ card: { last4: "4321" } });
    expect(readAnswer("report_fraud", "description", "no")).toEqual({});
    expect(readAnswer("report_fraud", "description", "a charge at a gas station")).toEqual({
      description: "a charge at a gas station",
    });
  });
});

describe("reading a confirmation", () => {
  it.each([
    "yes",
    "Yes!",
    "yes please",
    "yep, send it",
    "ok go ahead",
    "okay",
    "confirm",
    "I confirm",
    "sure, do it",
    "yeah go for it 👍",
    "👍",
    "👍🏽",
    "✅",
    "YES SEND IT",
    "yes - send it",
    "absolutely, go ahead",
    "yess",
    "yup thanks",
    "that's correct",
    "k",
  ])("%s is a yes", (answer) => {
    expect(readConfirmation(answer)).toEqual({ kind: "yes" });
  });

  it.each([
    "no",
    "No.",
    "nope",
    "no thanks",
    "no, don't",
    "don't",
    "don't send it",
    "do not send it",
    "cancel",
    "cancel it",
    "stop",
    "ok stop",
    "ok cancel",
    "hold on, stop",
    "never mind",
    "nah im good",
    "actually no",
    "i changed my mind",
    "👎",
  ])("%s is a no", (answer) => {
    expect(readConfirmation(answer)).toEqual({ kind: "no" });
  });

  it.each([
    "yes no wait",
    "no yes",
    "wait",
    "hold on",
    "hmm",
    "ok wait, make it 20 dollars instead",
    "sure, but first what is my savings balance?",
    "yes?",
    "yes send 50 to bob",
    "no, make it 30",
    "yes but from savings",
    "maybe later",
    "send $100 to Sam",
    "what's my balance",
    "thanks",
    "",
    "ok 20",
  ])("%s is neither", (answer) => {
    expect(readConfirmation(answer)).toEqual({ kind: "other" });
  });
});

describe("commands", () => {
  it.each([
    ["cancel", "cancel"],
    ["never mind", "cancel"],
    ["start over", "reset"],
    ["new request", "new_request"],
    ["send 50 dollars to Sam", null],
    // not the first word
    ["actually forget it, dont send anything", "cancel"],
    ["please cancel that", "cancel"],
    ["hold on, stop", "cancel"],
    ["ok so cancel the payment to my landlord", "cancel"],
    ["oh wait, don't do that", "cancel"],
    ["hmm let's start over", "reset"],
    ["i have another question", "new_request"],
    // a request, not a command
    ["cancel my card", null],
    ["stop my debit card", null],
    ["cancel my stolen card", null],
    ["reset my password", null],
    ["I want to stop a payment", null],
    ["can you stop sending me emails", null],
    ["never mind, what's my balance", null],
    ["forget the transfer, i lost my card", null],
  ])("%s → %s", (message, command) => {
    expect(detectCommand(message)).toBe(command);
  });

  it("reads the new request in a message that takes an old one back", () => {
    expect(detectIntent("never mind, what's my balance")).toBe("check_balance");
    expect(detectIntent("don't transfer anything, just check my balance")).toBe("check_balance");
    expect(detectIntent("forget the transfer, i lost my card")).toBe("lost_stolen_card");
  });

  it("reads no request in small talk", () => {
    expect(detectIntent("good morning!")).toBeNull();
  });
});
