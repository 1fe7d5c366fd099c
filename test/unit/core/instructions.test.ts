import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../lambdas/agents/loan/catalog.ts";
import {
  describeScope,
  type InstructionScope,
  interpretInstructions,
  MAX_INTERPRETATION_CHARS,
  type ScopeCondition,
} from "../../../lambdas/agents/loan/instructions/interpret.ts";

const catalog = loadCatalog().conditions;
const narrowed = (classification: string) =>
  catalog.filter((condition) => condition.classifications.includes(classification));
const CONDITIONS: Record<"all" | "bank" | "tax", readonly ScopeCondition[]> = {
  all: catalog,
  bank: narrowed("Bank Statements"),
  tax: narrowed("1120 Corporate Tax Return"),
};

const RETURN = "rm-conditions/1120-signed.pdf";
const JAN = "rm-conditions/statement-2025-01.pdf";
const FEB = "rm-conditions/statement-2025-02.pdf";
const MAR = "rm-conditions/statement-2025-03-nsf.pdf";
const MIXED = [RETURN, JAN, FEB, MAR];
const STATEMENTS = [JAN, FEB, MAR];

type Expected = Omit<InstructionScope, "interpretation">;

interface Case {
  instructions: string | undefined;
  /** Which of the catalog's conditions the caller passes (default: all of them). */
  conditions?: keyof typeof CONDITIONS;
  /** Pass the catalog's other conditions as `elsewhere`, as the planner does. */
  elsewhere?: boolean;
  documents?: readonly string[];
  expected: Expected;
  interpretation?: string | RegExp;
}

const evaluateAll: Expected = { questions: ["evaluate"], exclude_conditions: [], fallback: false };
const listApplicable: Expected = { questions: ["applicable"], exclude_conditions: [], fallback: false };
const fellBack: Expected = { questions: ["evaluate"], exclude_conditions: [], fallback: true };
const judgeOnly = (...ids: string[]): Expected => ({ ...evaluateAll, include_conditions: ids });

const CASES: Case[] = [
  // Empty and unknown
  {
    instructions: "",
    expected: evaluateAll,
    interpretation: "No instructions: every applicable condition is evaluated.",
  },
  {
    instructions: "   \n\t ",
    expected: evaluateAll,
    interpretation: "No instructions: every applicable condition is evaluated.",
  },
  {
    instructions: undefined,
    expected: evaluateAll,
    interpretation: "No instructions: every applicable condition is evaluated.",
  },
  {
    instructions: "Hello there!",
    expected: fellBack,
    interpretation:
      'The instructions ("hello there") were not understood, so every applicable condition is evaluated.',
  },

  // Conditions by keyword, id, title word, compartment
  {
    instructions: "Only check whether the tax return is signed",
    expected: judgeOnly("TR_SIGNED"),
    interpretation: "Judging only TR_SIGNED (Tax return signed and dated by an officer).",
  },
  { instructions: "check the EIN", expected: judgeOnly("TR_EIN_MATCH") },
  {
    instructions: "Check the account holder",
    expected: judgeOnly("BS_NAME_MATCH"),
    interpretation: "Judging only BS_NAME_MATCH (Account holder is the borrower).",
  },
  { instructions: "Are all statements from one account?", expected: judgeOnly("BS_SAME_ACCOUNT") },
  { instructions: "verify TR_SIGNED and bs_no_nsf", expected: judgeOnly("TR_SIGNED", "BS_NO_NSF") },
  { instructions: "Was it signed by an officer?", expected: judgeOnly("TR_SIGNED") },
  { instructions: "check the income conditions", expected: judgeOnly("TR_TAX_YEAR", "TR_COMPLETE") },
  {
    instructions: "Review compliance, except the EIN.",
    expected: { ...judgeOnly("TR_SIGNED", "TR_NAME_MATCH"), exclude_conditions: ["TR_EIN_MATCH"] },
  },
  {
    instructions: "Check the compliance conditions but not the signature",
    expected: { ...judgeOnly("TR_EIN_MATCH", "TR_NAME_MATCH"), exclude_conditions: ["TR_SIGNED"] },
  },
  {
    instructions: "check the signature, not the compliance conditions",
    expected: { ...judgeOnly("TR_SIGNED"), exclude_conditions: ["TR_EIN_MATCH", "TR_NAME_MATCH"] },
  },
  { instructions: "check the name", expected: judgeOnly("TR_NAME_MATCH", "BS_NAME_MATCH") },
  {
    instructions: "check the name",
    conditions: "bank",
    documents: STATEMENTS,
    expected: judgeOnly("BS_NAME_MATCH"),
  },
  { instructions: "Is the tax return complete?", expected: judgeOnly("TR_COMPLETE") },

  // Typos, case, punctuation
  { instructions: "ONLY THE SIGATURE!!!", expected: judgeOnly("TR_SIGNED") },
  { instructions: "any overdarft fees??", expected: judgeOnly("BS_NO_NSF") },
  { instructions: "Explain the deposists, please.", expected: judgeOnly("BS_LARGE_DEPOSITS") },
  { instructions: "evalute the tax year", expected: judgeOnly("TR_TAX_YEAR") },
  {
    instructions: "check everything excpet the EIN",
    expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH"] },
  },
  { instructions: "Dont check the EIN", expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH"] } },
  {
    instructions: "Ignore the NSF check; review the Febuary statement",
    expected: { ...evaluateAll, exclude_conditions: ["BS_NO_NSF"], documents: [FEB] },
  },
  { instructions: "whats the histroy", expected: { ...evaluateAll, questions: ["evaluate", "history"] } },
  {
    instructions: "Check everything. Sufficent?",
    expected: { ...evaluateAll, questions: ["evaluate", "sufficiency"] },
  },

  // Negation binds to what it negates
  {
    instructions: "Check everything except the EIN",
    expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH"] },
    interpretation:
      "Judging every applicable condition except TR_EIN_MATCH (Employer identification number matches).",
  },
  {
    instructions: "everything but the EIN",
    expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH"] },
  },
  {
    instructions: "don't check or verify the EIN",
    expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH"] },
  },
  {
    instructions: "Do not check the EIN, but check the signature",
    expected: { ...judgeOnly("TR_SIGNED"), exclude_conditions: ["TR_EIN_MATCH"] },
  },
  {
    instructions: "Skip the signature, verify the EIN",
    expected: { ...judgeOnly("TR_EIN_MATCH"), exclude_conditions: ["TR_SIGNED"] },
  },
  {
    instructions: "skip the EIN check and the name check",
    conditions: "tax",
    documents: [RETURN],
    expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH", "TR_NAME_MATCH"] },
  },
  {
    instructions: "Check everything, but not the overdrafts",
    expected: { ...evaluateAll, exclude_conditions: ["BS_NO_NSF"] },
  },
  {
    instructions: "Check that the EIN matches, not the name",
    expected: { ...judgeOnly("TR_EIN_MATCH"), exclude_conditions: ["TR_NAME_MATCH", "BS_NAME_MATCH"] },
  },
  {
    instructions: "You may skip the EIN",
    expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH"] },
  },
  {
    instructions: "Check everything except the EIN on the March statement",
    expected: { ...evaluateAll, exclude_conditions: ["TR_EIN_MATCH"], documents: [MAR] },
  },
  {
    instructions: "Don't look up the history, just check the deposits",
    expected: judgeOnly("BS_LARGE_DEPOSITS"),
  },

  // Questions
  {
    instructions: "Only the holder and the overdrafts, no history",
    expected: judgeOnly("BS_NAME_MATCH", "BS_NO_NSF"),
  },
  { instructions: "Check that there are no overdrafts", expected: judgeOnly("BS_NO_NSF") },
  {
    instructions: "What conditions apply to this loan?",
    expected: listApplicable,
    interpretation: "Listing the conditions that apply, without judging them.",
  },
  { instructions: "Check which conditions apply", expected: listApplicable },
  { instructions: "what do I need?", expected: listApplicable },
  { instructions: "do not evaluate conditions", expected: listApplicable },
  { instructions: "Don't judge anything.", expected: listApplicable },
  { instructions: "Don't judge anything, just list which conditions apply", expected: listApplicable },
  { instructions: "no evaluation please; just the conditions that apply", expected: listApplicable },
  {
    instructions: "Does the EIN condition apply?",
    expected: { ...listApplicable, include_conditions: ["TR_EIN_MATCH"] },
    interpretation:
      "Listing whether TR_EIN_MATCH (Employer identification number matches) applies, without judging it.",
  },
  {
    instructions: "do not evaluate conditions; look up prior evaluations",
    expected: { ...listApplicable, questions: ["applicable", "history"] },
    interpretation:
      "Listing the conditions that apply, without judging them, and looking up the condition history.",
  },
  {
    instructions: "Only check the history",
    expected: { ...listApplicable, questions: ["applicable", "history"] },
  },
  {
    instructions: "evaluate everything",
    expected: evaluateAll,
    interpretation: "Judging every applicable condition.",
  },
  { instructions: "Just check everything", expected: evaluateAll },
  { instructions: "Evaluate all applicable conditions", expected: evaluateAll },
  { instructions: "Which conditions are met?", expected: evaluateAll },
  { instructions: "which conditions are not met?", expected: evaluateAll },
  { instructions: "Please review the file", expected: evaluateAll },
  {
    instructions: "Are these bank statements sufficient? Tell me what's missing.",
    conditions: "bank",
    documents: STATEMENTS,
    expected: { ...evaluateAll, questions: ["evaluate", "sufficiency"] },
    interpretation: "Judging every applicable condition, and checking whether the documents are sufficient.",
  },
  {
    instructions: "Is the file complete?",
    expected: { ...evaluateAll, questions: ["evaluate", "sufficiency"] },
  },
  {
    instructions: "Check everything except the EIN and look up the history",
    expected: { ...evaluateAll, questions: ["evaluate", "history"], exclude_conditions: ["TR_EIN_MATCH"] },
    interpretation:
      "Judging every applicable condition except TR_EIN_MATCH (Employer identification number matches), and looking up the condition history.",
  },
  {
    instructions: "Compare with similar loans",
    expected: { ...evaluateAll, questions: ["evaluate", "similar_loans"] },
  },
  {
    instructions: "check the holder, previous loans and comparable files",
    expected: { ...judgeOnly("BS_NAME_MATCH"), questions: ["evaluate", "history", "similar_loans"] },
    interpretation:
      "Judging only BS_NAME_MATCH (Account holder is the borrower), looking up the condition history and looking up similar loans.",
  },
  {
    instructions: "List the large deposits",
    expected: { ...judgeOnly("BS_LARGE_DEPOSITS"), questions: ["evaluate", "large_deposits"] },
    interpretation:
      "Judging only BS_LARGE_DEPOSITS (Large deposits explained), and listing the large deposits.",
  },

  // Every part carried out or named: not understood, or not possible here
  {
    instructions: "Check that the borrower's credit score is above 700",
    conditions: "tax",
    elsewhere: true,
    documents: [RETURN],
    expected: {
      ...listApplicable,
      unhandled: [
        {
          text: "credit score is above 700",
          reason: "not_possible",
          why: "no credit report among the documents and no condition about it",
        },
      ],
      nothing_in_reach: true,
    },
    interpretation:
      'Judging nothing: "credit score is above 700" is not possible here (no credit report among the documents and no condition about it); the conditions that can be judged here are TR_SIGNED, TR_TAX_YEAR, TR_EIN_MATCH, TR_NAME_MATCH and TR_COMPLETE, listed without verdicts.',
  },
  {
    instructions: "check the company on the return is our borrower",
    conditions: "tax",
    elsewhere: true,
    documents: [RETURN],
    expected: judgeOnly("TR_NAME_MATCH"),
    interpretation: "Judging only TR_NAME_MATCH (Corporation name matches the borrowing business).",
  },
  {
    instructions: "Is the return signed and for the right company and EIN? Skip completeness",
    conditions: "tax",
    elsewhere: true,
    documents: [RETURN],
    expected: {
      ...judgeOnly("TR_SIGNED", "TR_EIN_MATCH", "TR_NAME_MATCH"),
      exclude_conditions: ["TR_COMPLETE"],
    },
  },
  {
    instructions: "Check the EIN and the zebra stripes",
    conditions: "tax",
    documents: [RETURN],
    expected: {
      ...judgeOnly("TR_EIN_MATCH"),
      unhandled: [{ text: "zebra stripes", reason: "not_understood" }],
    },
    interpretation:
      'Judging only TR_EIN_MATCH (Employer identification number matches); "zebra stripes" was not understood; the conditions that can be judged here are TR_SIGNED, TR_TAX_YEAR, TR_EIN_MATCH, TR_NAME_MATCH and TR_COMPLETE.',
  },
  {
    instructions: "Check the credit score and evaluate everything else",
    conditions: "tax",
    documents: [RETURN],
    expected: {
      ...evaluateAll,
      unhandled: [
        {
          text: "credit score",
          reason: "not_possible",
          why: "no credit report among the documents and no condition about it",
        },
      ],
    },
    interpretation:
      /^Judging every applicable condition; "credit score" is not possible here \(no credit report/,
  },
  {
    instructions: "Don't pull the credit report, just check the EIN",
    conditions: "tax",
    documents: [RETURN],
    expected: judgeOnly("TR_EIN_MATCH"),
  },
  {
    instructions: "Flag any deposits over $5,000",
    conditions: "bank",
    documents: STATEMENTS,
    expected: {
      ...judgeOnly("BS_LARGE_DEPOSITS"),
      unhandled: [{ text: "over 5000", reason: "not_understood" }],
    },
  },
  {
    instructions: "check the last one for insufficient funds",
    conditions: "tax",
    elsewhere: true,
    documents: [RETURN],
    expected: {
      ...listApplicable,
      unhandled: [
        {
          text: "insufficient funds",
          reason: "not_possible",
          why: "BS_NO_NSF is a condition of Bank Statements, not of this loan's documents",
        },
      ],
      nothing_in_reach: true,
    },
  },
  {
    instructions: "Check the borrower's DTI and the signature",
    conditions: "tax",
    documents: [RETURN],
    expected: {
      ...judgeOnly("TR_SIGNED"),
      unhandled: [{ text: "dti", reason: "not_possible", why: "no condition computes it" }],
    },
  },

  // Documents
  {
    instructions: "check the second file",
    expected: { ...evaluateAll, documents: [JAN] },
    interpretation: "Judging every applicable condition on statement-2025-01.pdf.",
  },
  { instructions: "the 2nd document", expected: { ...evaluateAll, documents: [JAN] } },
  { instructions: "check the first statement", expected: { ...evaluateAll, documents: [JAN] } },
  { instructions: "only the March statement", expected: { ...evaluateAll, documents: [MAR] } },
  { instructions: "only 2025-03", expected: { ...evaluateAll, documents: [MAR] } },
  { instructions: "check statement-2025-02.pdf only", expected: { ...evaluateAll, documents: [FEB] } },
  {
    instructions: "check the January and February statements for overdrafts",
    expected: { ...judgeOnly("BS_NO_NSF"), documents: [JAN, FEB] },
  },
  {
    instructions: "check the last one for insufficient funds",
    expected: { ...judgeOnly("BS_NO_NSF"), documents: [MAR] },
    interpretation:
      "Judging only BS_NO_NSF (No NSF, overdraft or returned-item fees) on statement-2025-03-nsf.pdf.",
  },
  { instructions: "skip the first document", expected: { ...evaluateAll, documents: [JAN, FEB, MAR] } },
  {
    instructions: "check the first and third statements",
    documents: STATEMENTS,
    expected: { ...evaluateAll, documents: [JAN, MAR] },
  },
  {
    instructions: "Skip the last one and the first one",
    documents: STATEMENTS,
    expected: { ...evaluateAll, documents: [FEB] },
  },
  {
    instructions: "What's missing on the March statement?",
    conditions: "bank",
    documents: STATEMENTS,
    expected: { ...evaluateAll, questions: ["evaluate", "sufficiency"], documents: [MAR] },
  },
  {
    instructions: "only the fifth file",
    expected: evaluateAll,
    interpretation:
      'Judging every applicable condition (no document matches "fifth file", so every document is used).',
  },
  { instructions: "Only look at the May statement", documents: STATEMENTS, expected: evaluateAll },

  // Contradictions and conditions that do not apply
  {
    instructions: "Only check the signature",
    conditions: "bank",
    documents: STATEMENTS,
    expected: {
      ...listApplicable,
      unhandled: [{ text: "signature", reason: "not_understood" }],
      nothing_in_reach: true,
    },
    interpretation:
      'Judging nothing: "signature" was not understood; the conditions that can be judged here are BS_TWO_MONTHS, BS_NAME_MATCH, BS_SAME_ACCOUNT, BS_NO_NSF and BS_LARGE_DEPOSITS, listed without verdicts.',
  },
  {
    instructions: "Only check the signature",
    conditions: "bank",
    elsewhere: true,
    documents: STATEMENTS,
    expected: {
      ...listApplicable,
      unhandled: [
        {
          text: "signature",
          reason: "not_possible",
          why: "TR_SIGNED is a condition of 1120 Corporate Tax Return, not of this loan's documents",
        },
      ],
      nothing_in_reach: true,
    },
    interpretation:
      'Judging nothing: "signature" is not possible here (TR_SIGNED is a condition of 1120 Corporate Tax Return, not of this loan\'s documents); the conditions that can be judged here are BS_TWO_MONTHS, BS_NAME_MATCH, BS_SAME_ACCOUNT, BS_NO_NSF and BS_LARGE_DEPOSITS, listed without verdicts.',
  },
  {
    instructions: "Only.",
    expected: fellBack,
    interpretation:
      "None of the named conditions apply to this loan's documents, so every applicable condition is evaluated.",
  },
  {
    instructions: "Only check the signature. Evaluate everything.",
    expected: fellBack,
    interpretation:
      "The instructions contradict each other (they ask for only TR_SIGNED and also for everything), so every applicable condition is evaluated.",
  },
  {
    instructions: "check the EIN but skip the EIN",
    expected: fellBack,
    interpretation:
      "The instructions contradict each other (TR_EIN_MATCH is both asked for and excluded), so every applicable condition is evaluated.",
  },
  {
    instructions: "Don't evaluate the conditions, check the signature",
    expected: fellBack,
    interpretation:
      "The instructions contradict each other (they ask both not to judge the conditions and to judge them), so every applicable condition is evaluated.",
  },
  { instructions: "don't evaluate, are the conditions met?", expected: fellBack },
  { instructions: "Do not evaluate the conditions; list the large deposits", expected: fellBack },
  {
    instructions: "check the credit conditions but skip overdrafts",
    expected: fellBack,
    interpretation:
      "The instructions contradict each other (every condition asked for was also excluded), so every applicable condition is evaluated.",
  },
  {
    instructions: "Only the second statement, skip the second statement",
    documents: STATEMENTS,
    expected: fellBack,
  },
];

function interpret(testCase: Case): InstructionScope {
  const conditions = CONDITIONS[testCase.conditions ?? "all"];
  return interpretInstructions({
    instructions: testCase.instructions,
    documents: testCase.documents ?? MIXED,
    conditions,
    ...(testCase.elsewhere
      ? { elsewhere: catalog.filter((condition) => !conditions.includes(condition)) }
      : {}),
  });
}

function label(testCase: Case): string {
  const narrowedTo =
    testCase.conditions && testCase.conditions !== "all" ? ` [${testCase.conditions} conditions]` : "";
  return `${JSON.stringify(testCase.instructions)}${narrowedTo}${testCase.elsewhere ? " (others elsewhere)" : ""}`;
}

/** One sentence: a capital first, one full stop at the end, no sentence break inside. */
function expectOneSentence(interpretation: string): void {
  expect(interpretation.length).toBeGreaterThan(0);
  expect(interpretation.length).toBeLessThanOrEqual(MAX_INTERPRETATION_CHARS);
  expect(interpretation).toMatch(/^[A-Z].*\.$/s);
  expect(interpretation.slice(0, -1)).not.toMatch(/[.!?](\s|$)/);
}

describe("interpretInstructions", () => {
  it("has at least 40 distinct instructions in its table", () => {
    expect(new Set(CASES.map(label)).size).toBe(CASES.length);
    expect(new Set(CASES.map((testCase) => testCase.instructions)).size).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES.map((testCase) => [label(testCase), testCase] as const))("reads %s", (_, testCase) => {
    const { interpretation, ...scope } = interpret(testCase);
    expect(scope).toEqual(testCase.expected);
    if (typeof testCase.interpretation === "string") expect(interpretation).toBe(testCase.interpretation);
    else if (testCase.interpretation) expect(interpretation).toMatch(testCase.interpretation);
    expectOneSentence(interpretation);
  });

  it("reads the instructions that used to plan alike as different scopes", () => {
    const headline = [
      "Only check whether the tax return is signed",
      "What conditions apply to this loan?",
      "do not evaluate conditions",
      "evaluate everything",
      "Check everything except the EIN",
      "check the EIN",
      "List the large deposits",
      "Are these bank statements sufficient?",
      "Look up the history",
      "Compare with similar loans",
    ];
    const scopes = headline.map((instructions) =>
      JSON.stringify(interpretInstructions({ instructions, documents: MIXED, conditions: catalog })),
    );
    // "What conditions apply" and "do not evaluate" both mean listing without judging: 9 readings.
    expect(new Set(scopes).size).toBe(9);
    expect(scopes[1]).toBe(scopes[2]);
  });

  it("keeps a long reading to one sentence within the limit, dropping titles and file names first", () => {
    const documents = Array.from(
      { length: 6 },
      (_, index) =>
        `loan-files/2025/borrower-with-a-rather-long-folder-name/statement-2025-0${index + 1}-scan.pdf`,
    );
    const scope = interpretInstructions({
      instructions:
        "Check compliance and assets on the first, second, third and fourth documents, tell me what's missing, look up prior loans and similar loans, and list the large deposits",
      documents,
      conditions: catalog,
    });
    expect(scope.questions).toEqual([
      "evaluate",
      "sufficiency",
      "history",
      "similar_loans",
      "large_deposits",
    ]);
    expect(scope.include_conditions).toEqual([
      "TR_SIGNED",
      "TR_EIN_MATCH",
      "TR_NAME_MATCH",
      "BS_TWO_MONTHS",
      "BS_NAME_MATCH",
      "BS_SAME_ACCOUNT",
      "BS_LARGE_DEPOSITS",
    ]);
    expect(scope.documents).toEqual(documents.slice(0, 4));
    expectOneSentence(scope.interpretation);
    expect(scope.interpretation).toContain("TR_SIGNED");
    expect(scope.interpretation).toContain("4 of the 6 documents");
    expect(scope.interpretation).not.toContain("(Tax return signed");
  });

  it("does not echo more than a short excerpt of instructions it did not understand", () => {
    const scope = interpretInstructions({
      instructions: "lorem ipsum dolor sit amet ".repeat(100),
      documents: MIXED,
      conditions: catalog,
    });
    expect(scope.fallback).toBe(true);
    expectOneSentence(scope.interpretation);
    expect(scope.interpretation).toMatch(/^The instructions \("lorem ipsum dolor sit amet lorem ipsum/);
  });

  it("matches month references against the month in the file name, whatever its style", () => {
    const documents = [
      "in/march_2025.pdf",
      "in/stmt-202504.pdf",
      "in/04-2025-statement.pdf",
      "in/summary.pdf",
    ];
    const read = (instructions: string) =>
      interpretInstructions({ instructions, documents, conditions: catalog }).documents;
    expect(read("only the mar statement")).toEqual(["in/march_2025.pdf"]);
    expect(read("only the April 2025 statements")).toEqual([
      "in/stmt-202504.pdf",
      "in/04-2025-statement.pdf",
    ]);
    expect(read("only 04/2025")).toEqual(["in/stmt-202504.pdf", "in/04-2025-statement.pdf"]);
    expect(read("skip in/summary.pdf")).toEqual(documents.slice(0, 3));
  });
});

describe("describeScope", () => {
  it("gives the planner every field of the scope, one per line", () => {
    const scope = interpretInstructions({
      instructions: "Check everything except the EIN on the March statement and look up the history",
      documents: MIXED,
      conditions: catalog,
    });
    expect(describeScope(scope)).toBe(
      [
        "questions: evaluate, history",
        "judge only: every applicable condition",
        "do not judge: TR_EIN_MATCH",
        `documents: ${MAR}`,
        "fallback: no",
        `reading: ${scope.interpretation}`,
      ].join("\n"),
    );
  });

  it("names the conditions to judge and says when the reading fell back", () => {
    const only = interpretInstructions({
      instructions: "only TR_SIGNED",
      documents: MIXED,
      conditions: catalog,
    });
    expect(describeScope(only)).toContain("judge only: TR_SIGNED\n");
    expect(describeScope(only)).toContain("documents: all\n");
    const unknown = interpretInstructions({ instructions: "???", documents: MIXED, conditions: catalog });
    expect(unknown.interpretation).toBe(
      "The instructions were not understood, so every applicable condition is evaluated.",
    );
    expect(describeScope(unknown)).toContain(
      "fallback: yes (instructions empty, not understood or contradictory)",
    );
  });

  it("tells the planner what was not carried out and why", () => {
    const scope = interpretInstructions({
      instructions: "Check the EIN, the credit score and the zebra",
      documents: [RETURN],
      conditions: CONDITIONS.tax,
    });
    expect(describeScope(scope)).toContain(
      'not carried out: "credit score" (not possible here: no credit report among the documents and no condition about it); "zebra" (not understood)\n',
    );
  });
});
