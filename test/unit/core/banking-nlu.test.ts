import { describe, expect, it } from "vitest";
import { LABELLED_MESSAGES } from "../../../examples/banking/messages.ts";
import {
  detectCommand,
  detectIntent,
  findMoney,
  mergeSlots,
  understand,
} from "../../../lambdas/core/banking/nlu.ts";

describe("banking NLU on the labelled messages", () => {
  it("has at least 40 labelled messages", () => {
    expect(LABELLED_MESSAGES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(LABELLED_MESSAGES.map((labelled) => [labelled.message, labelled] as const))("%s", (_, labelled) => {
    const understood = understand(labelled.message);
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

  it("an amount without a currency stays without one (the assistant asks)", () => {
    expect(findMoney("pay 40 to Sam")).toBeUndefined();
    expect(findMoney("pay $0 to Sam")).toBeUndefined();
    expect(findMoney("pay $12.5 to Sam")).toEqual({ amount: 1250, currency: "USD" });
  });
});

describe("commands", () => {
  it.each([
    ["cancel", "cancel"],
    ["never mind", "cancel"],
    ["start over", "reset"],
    ["new request", "new_request"],
    ["send 50 dollars to Sam", null],
  ])("%s → %s", (message, command) => {
    expect(detectCommand(message)).toBe(command);
  });

  it("reads no request in small talk", () => {
    expect(detectIntent("good morning!")).toBeNull();
  });
});
