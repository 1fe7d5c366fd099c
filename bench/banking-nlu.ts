// The banking assistant's understanding of chat messages (lambdas/agents/banking/nlu.ts), scored on two
// labelled tables: the development table its patterns were corrected against
// (examples/banking/messages.ts) and the held-out table written apart from them
// (examples/banking/held-out.ts). Only the held-out score says how the rules fare on unseen
// messages; the development score is printed beside it so the gap is visible.
//
// `npx tsx bench/banking-nlu.ts [--out results.json]` takes only this measure and prints its report
// section (BENCHMARKS.md and bench/results.json are left alone). `--no-held-out-misses` prints the
// held-out table's counts but not its misses, for whoever writes the rules: the held-out messages
// stay unseen by them. `--update-report` writes this measure into bench/results.json and renders
// BENCHMARKS.md again from it (every other section as it was measured), printing nothing of it.
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { Command } from "commander";
import { HELD_OUT_MESSAGES, type HeldOutMessage } from "../examples/banking/held-out.ts";
import { LABELLED_MESSAGES } from "../examples/banking/messages.ts";
import {
  BANKING_INTENTS,
  type BankingIntent,
  type ChatCommand,
  detectCommand,
  type Slots,
  understand,
} from "../lambdas/agents/banking/nlu.ts";
import { formatJson } from "./json.ts";
import { bankingNluSection, writeReport } from "./report.ts";
import type { BankingNluResults, BenchResults, NluIntentRow, NluScore } from "./results.ts";

/** A labelled message: the development table's shape, with the held-out table's optional fields. */
export type ScoredMessage = HeldOutMessage;

/** What the rules make of one message. */
export interface Reading {
  intent: BankingIntent | null;
  slots: Slots;
  command: ChatCommand | null;
}

export type Reader = (message: string, pending?: BankingIntent) => Reading;

/** The assistant's own reading: the command, and the intent and slots (as answers to `pending`, if any). */
export const readMessage: Reader = (message, pending) => {
  const { intent, slots } = pending ? understand(message, pending) : understand(message);
  return { intent, slots, command: detectCommand(message) };
};

export const DEVELOPMENT_TABLE = "development (examples/banking/messages.ts)";
export const HELD_OUT_TABLE = "held-out (examples/banking/held-out.ts)";

const ROW_ORDER: readonly string[] = [...BANKING_INTENTS, "command", "none"];

// A command is read before anything else: it decides what the conversation does whatever else the
// message asks, so a message that should be a request is wrong when the rules read a command in it.
function requestOf(reading: { intent: BankingIntent | null; command?: ChatCommand | null }): string {
  if (reading.command) return `command ${reading.command}`;
  return reading.intent ?? "none";
}

// Labels never hold undefined values; a reading may (an optional key set to undefined is missing).
function present(slots: Slots): Record<string, unknown> {
  return Object.fromEntries(Object.entries(slots).filter(([, value]) => value !== undefined));
}

const show = (value: unknown) => (value === undefined ? "missing" : JSON.stringify(value));

export function scoreMessages(
  table: string,
  messages: readonly ScoredMessage[],
  read: Reader = readMessage,
): NluScore {
  const score: NluScore = {
    table,
    messages: messages.length,
    intent_right: 0,
    slots_labelled: 0,
    slots_right: 0,
    slots_extra: 0,
    fully_right: 0,
    follow_ups: { messages: 0, fully_right: 0 },
    per_intent: [],
    misses: [],
  };
  const rows = new Map<string, NluIntentRow>();
  for (const labelled of messages) {
    const reading = read(labelled.message, labelled.pending);
    const expectedRequest = requestOf(labelled);
    const gotRequest = requestOf(reading);
    const wrong: string[] = [];
    const requestRight = expectedRequest === gotRequest;
    if (requestRight) score.intent_right++;
    else wrong.push(`request: expected ${expectedRequest}, got ${gotRequest}`);

    // A command's slots are not scored: the conversation acts on the command alone.
    if (!labelled.command) {
      const expected = present(labelled.slots);
      const got = present(reading.slots);
      for (const [name, value] of Object.entries(expected)) {
        score.slots_labelled++;
        if (isDeepStrictEqual(got[name], value)) score.slots_right++;
        else wrong.push(`${name}: expected ${show(value)}, got ${show(got[name])}`);
      }
      for (const [name, value] of Object.entries(got)) {
        if (name in expected) continue;
        score.slots_extra++;
        wrong.push(`${name}: not named, got ${show(value)}`);
      }
    }

    const fullyRight = wrong.length === 0;
    if (fullyRight) score.fully_right++;
    if (labelled.pending) {
      score.follow_ups.messages++;
      if (fullyRight) score.follow_ups.fully_right++;
    }
    const key = labelled.command ? "command" : (labelled.intent ?? "none");
    const row = rows.get(key) ?? { expected: key, messages: 0, intent_right: 0, fully_right: 0 };
    row.messages++;
    if (requestRight) row.intent_right++;
    if (fullyRight) row.fully_right++;
    rows.set(key, row);
    if (!fullyRight) {
      score.misses.push({
        message: labelled.message,
        ...(labelled.pending ? { pending: labelled.pending } : {}),
        expected: { request: expectedRequest, slots: labelled.slots },
        got: { request: gotRequest, slots: present(reading.slots) as Slots },
        wrong,
      });
    }
  }
  score.per_intent = ROW_ORDER.flatMap((key) => rows.get(key) ?? []);
  return score;
}

/** Both tables through the assistant's own reading. */
export function measureBankingNlu(read: Reader = readMessage): BankingNluResults {
  const started = performance.now();
  const tables = [
    scoreMessages(DEVELOPMENT_TABLE, LABELLED_MESSAGES, read),
    scoreMessages(HELD_OUT_TABLE, HELD_OUT_MESSAGES, read),
  ];
  return { tables, elapsed_ms: Math.round((performance.now() - started) * 10) / 10 };
}

/** The results with the held-out table's misses left out (its counts stay), and how many were. */
export function withoutHeldOutMisses(results: BankingNluResults): {
  results: BankingNluResults;
  hidden: number;
} {
  let hidden = 0;
  const tables = results.tables.map((table) => {
    if (table.table !== HELD_OUT_TABLE) return table;
    hidden += table.misses.length;
    return { ...table, misses: [] };
  });
  return { results: { ...results, tables }, hidden };
}

/** bench/results.json with this measure replaced, and BENCHMARKS.md rendered again from it. */
async function updateReport(results: BankingNluResults): Promise<void> {
  const repository = resolve(import.meta.dirname, "..");
  const resultsFile = resolve(repository, "bench", "results.json");
  const bench = JSON.parse(await readFile(resultsFile, "utf8")) as BenchResults;
  const updated: BenchResults = { ...bench, banking_nlu: results };
  await writeFile(resultsFile, formatJson(updated));
  await writeReport(updated, {
    out: resolve(repository, "bench"),
    report: resolve(repository, "BENCHMARKS.md"),
  });
}

async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name("bench/banking-nlu")
    .description("only the benchmark's banking chat-message section; prints it as Markdown")
    .option("--out <file>", "also write the results as JSON to this file")
    .option("--no-held-out-misses", "print the held-out table's counts without its misses")
    .option(
      "--update-report",
      "write the results into bench/results.json and render BENCHMARKS.md again from it",
    )
    .parse(argv);
  const opts = program.opts<{ out?: string; heldOutMisses: boolean; updateReport?: boolean }>();
  const results = measureBankingNlu();
  if (opts.out) await writeFile(resolve(opts.out), formatJson(results));
  if (opts.updateReport) await updateReport(results);
  if (opts.heldOutMisses) {
    console.log(bankingNluSection(results).join("\n"));
    return;
  }
  const { results: shown, hidden } = withoutHeldOutMisses(results);
  console.log([...bankingNluSection(shown), "", `(${hidden} held-out misses not shown.)`].join("\n"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
