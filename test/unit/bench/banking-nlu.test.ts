// The banking chat-message scorer, on a small synthetic table read by a stub, so what is asserted is
// the scoring (what counts as right, wrong or extra), never how well the rules do.
import { describe, expect, it } from "vitest";
import {
  DEVELOPMENT_TABLE,
  HELD_OUT_TABLE,
  measureBankingNlu,
  type Reader,
  type Reading,
  type ScoredMessage,
  scoreMessages,
  withoutHeldOutMisses,
} from "../../../bench/banking-nlu.ts";
import { bankingNluSection } from "../../../bench/report.ts";
import { HELD_OUT_MESSAGES } from "../../../examples/banking/held-out.ts";
import { LABELLED_MESSAGES } from "../../../examples/banking/messages.ts";

const TABLE: ScoredMessage[] = [
  // read exactly as labelled
  {
    message: "send $5 to Sam from checking",
    intent: "transfer",
    slots: { amount: 500, currency: "USD", to: "Sam", from_account: { kind: "checking" } },
  },
  // wrong intent, its slot missing
  { message: "balance of savings", intent: "check_balance", slots: { account: { kind: "savings" } } },
  // one slot wrong, one right
  { message: "send $2k to Ann", intent: "transfer", slots: { amount: 200000, currency: "USD", to: "Ann" } },
  // a labelled slot missing
  {
    message: "lost debit card 1234",
    intent: "lost_stolen_card",
    slots: { card: { kind: "debit", last4: "1234" } },
  },
  // a slot read that the label does not name
  { message: "I think I was scammed", intent: "report_fraud", slots: {} },
  // a follow-up, read right
  {
    message: "from savings",
    pending: "transfer",
    intent: "transfer",
    slots: { from_account: { kind: "savings" } },
  },
  // a command, read right (its slots are not scored)
  { message: "forget it", intent: null, slots: {}, command: "cancel" },
  // a request the rules read as a command
  { message: "cancel my stolen card", intent: "lost_stolen_card", slots: {} },
  // no request, read right
  { message: "hi", intent: null, slots: {} },
];

const READINGS: Record<string, Reading> = {
  "send $5 to Sam from checking": {
    intent: "transfer",
    // Key order differs from the label, and an optional key is present but undefined: both still right.
    slots: {
      from_account: { kind: "checking" },
      to: "Sam",
      currency: "USD",
      amount: 500,
      description: undefined,
    },
    command: null,
  },
  "balance of savings": { intent: null, slots: {}, command: null },
  "send $2k to Ann": {
    intent: "transfer",
    slots: { amount: 200, currency: "USD", to: "Ann" },
    command: null,
  },
  "lost debit card 1234": { intent: "lost_stolen_card", slots: { card: { kind: "debit" } }, command: null },
  "I think I was scammed": {
    intent: "report_fraud",
    slots: { description: "I think I was scammed" },
    command: null,
  },
  "from savings": { intent: "transfer", slots: { from_account: { kind: "savings" } }, command: null },
  "forget it": { intent: "transfer", slots: { amount: 1 }, command: "cancel" },
  "cancel my stolen card": { intent: "lost_stolen_card", slots: {}, command: "cancel" },
  hi: { intent: null, slots: {}, command: null },
};

const pendingSeen: Array<[string, string | undefined]> = [];
const stub: Reader = (message, pending) => {
  pendingSeen.push([message, pending]);
  const reading = READINGS[message];
  if (!reading) throw new Error(`no stub reading for ${message}`);
  return reading;
};

describe("scoreMessages", () => {
  const score = scoreMessages("synthetic", TABLE, stub);

  it("passes a follow-up's pending request to the reader, and nothing for the others", () => {
    expect(pendingSeen).toContainEqual(["from savings", "transfer"]);
    expect(pendingSeen).toContainEqual(["hi", undefined]);
  });

  it("counts the request, labelled slots, extra slots and fully right messages", () => {
    expect(score).toMatchObject({
      table: "synthetic",
      messages: 9,
      // wrong: "balance of savings" (none) and "cancel my stolen card" (a command)
      intent_right: 7,
      // 4 + 1 + 3 + 1 + 0 + 1 + (command: not scored) + 0 + 0
      slots_labelled: 10,
      // wrong: account of "balance of savings", amount of "send $2k", card of "lost debit card"
      slots_right: 7,
      slots_extra: 1,
      fully_right: 4,
      follow_ups: { messages: 1, fully_right: 1 },
    });
  });

  it("breaks the counts down by labelled request, commands and no request apart", () => {
    expect(score.per_intent).toEqual([
      { expected: "lost_stolen_card", messages: 2, intent_right: 1, fully_right: 0 },
      { expected: "report_fraud", messages: 1, intent_right: 1, fully_right: 0 },
      { expected: "check_balance", messages: 1, intent_right: 0, fully_right: 0 },
      { expected: "transfer", messages: 3, intent_right: 3, fully_right: 2 },
      { expected: "command", messages: 1, intent_right: 1, fully_right: 1 },
      { expected: "none", messages: 1, intent_right: 1, fully_right: 1 },
    ]);
  });

  it("lists every miss with what was expected, what was read and each difference", () => {
    expect(score.misses.map((miss) => miss.message)).toEqual([
      "balance of savings",
      "send $2k to Ann",
      "lost debit card 1234",
      "I think I was scammed",
      "cancel my stolen card",
    ]);
    expect(score.misses[0]).toEqual({
      message: "balance of savings",
      expected: { request: "check_balance", slots: { account: { kind: "savings" } } },
      got: { request: "none", slots: {} },
      wrong: [
        "request: expected check_balance, got none",
        'account: expected {"kind":"savings"}, got missing',
      ],
    });
    expect(score.misses[1]?.wrong).toEqual(["amount: expected 200000, got 200"]);
    expect(score.misses[2]?.wrong).toEqual([
      'card: expected {"kind":"debit","last4":"1234"}, got {"kind":"debit"}',
    ]);
    expect(score.misses[3]?.wrong).toEqual(['description: not named, got "I think I was scammed"']);
    expect(score.misses[4]?.wrong).toEqual(["request: expected lost_stolen_card, got command cancel"]);
  });

  it("scores an empty table as nothing right and nothing wrong", () => {
    expect(scoreMessages("empty", [], stub)).toMatchObject({ messages: 0, fully_right: 0, misses: [] });
  });
});

describe("the report section", () => {
  it("shows each table's counts and its misses", () => {
    const section = bankingNluSection({
      tables: [scoreMessages("dev", TABLE.slice(0, 1), stub), scoreMessages("held", TABLE, stub)],
      elapsed_ms: 1,
    }).join("\n");
    expect(section).toContain("| dev | 1 | 1/1 (100.0 %) | 4/4 (100.0 %) | 0 | **1/1 (100.0 %)** | — |");
    expect(section).toContain(
      "| held | 9 | 7/9 (77.8 %) | 7/10 (70.0 %) | 1 | **4/9 (44.4 %)** | 1/1 (100.0 %) |",
    );
    expect(section).toContain("| transfer | 1 / 1 of 1 | 3 / 2 of 3 |");
    expect(section).not.toContain("Misses, dev:");
    expect(section).toContain('- "send $2k to Ann": amount: expected 200000, got 200');
  });
});

describe("hiding the held-out misses", () => {
  it("keeps every count of the held-out table and leaves out only its misses", () => {
    const held = scoreMessages(HELD_OUT_TABLE, TABLE, stub);
    const dev = scoreMessages(DEVELOPMENT_TABLE, TABLE, stub);
    const { results, hidden } = withoutHeldOutMisses({ tables: [dev, held], elapsed_ms: 1 });
    expect(hidden).toBe(5);
    expect(results.tables[0]).toEqual(dev);
    expect(results.tables[1]).toEqual({ ...held, misses: [] });
    const section = bankingNluSection(results).join("\n");
    expect(section).toContain(`Misses, ${DEVELOPMENT_TABLE}:`);
    expect(section).not.toContain(`Misses, ${HELD_OUT_TABLE}:`);
    expect(section).toContain("**4/9 (44.4 %)**");
  });
});

describe("the tables", () => {
  it("scores the development table and the held-out table, each whole", () => {
    const results = measureBankingNlu(stubForAll);
    expect(results.tables.map((t) => [t.table, t.messages])).toEqual([
      [DEVELOPMENT_TABLE, LABELLED_MESSAGES.length],
      [HELD_OUT_TABLE, HELD_OUT_MESSAGES.length],
    ]);
  });

  it("holds at least 60 held-out messages, none of them also in the development table", () => {
    expect(HELD_OUT_MESSAGES.length).toBeGreaterThanOrEqual(60);
    const development = new Set(LABELLED_MESSAGES.map((m) => m.message.toLowerCase()));
    expect(HELD_OUT_MESSAGES.filter((m) => development.has(m.message.toLowerCase()))).toEqual([]);
    const messages = HELD_OUT_MESSAGES.map((m) => m.message.toLowerCase());
    expect(new Set(messages).size).toBe(messages.length);
  });

  it("labels a follow-up with the request it answers, and a command with no request or slots", () => {
    for (const m of HELD_OUT_MESSAGES) {
      if (m.command) expect([m.message, m.intent, m.slots]).toEqual([m.message, null, {}]);
      else if (m.pending) expect([m.message, m.intent]).toEqual([m.message, m.pending]);
    }
  });
});

function stubForAll(): Reading {
  return { intent: null, slots: {}, command: null };
}
