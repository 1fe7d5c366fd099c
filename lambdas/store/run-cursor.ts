// The `cursor` of GET /v1/runs: where the next page of a run list starts, as base64url JSON. Clients
// treat it as opaque; the store checks every field on the way back in, so a hand-edited cursor is
// refused (InvalidCursorError → 400 `cursor`) rather than turned into a query against some other key.
import * as z from "zod";
import { lazily } from "../core/lazy.ts";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
// The run ids the API accepts (RUN_ID_PATTERN of lambdas/runs/start-run.ts, a layer above the store).
const RUN_PK = /^RUN#run-[\w-]{1,100}$/;

/** A cursor's schema, built when the first one is read (lambdas/core/lazy.ts): most cold starts read none. */
const cursorSchema = /* @__PURE__ */ lazily(() => {
  /** The by_day index's LastEvaluatedKey: the table key and the index key of the last item read. */
  const DayKey = z.strictObject({
    pk: z.string().regex(RUN_PK),
    sk: z.literal("META"),
    gsi2pk: z.string(),
    gsi2sk: z.string().regex(ISO_TIME),
  });

  /** The by_loan index's LastEvaluatedKey. */
  const LoanKey = z.strictObject({
    pk: z.string().regex(RUN_PK),
    sk: z.literal("META"),
    gsi3pk: z.string(),
    gsi3sk: z.string().max(200),
  });

  return z.union([
    /** Walking by_day: resume on `day`, after `key` (absent: from the day's newest run). */
    z.strictObject({ v: z.literal(1), day: z.string().regex(DAY), key: DayKey.optional() }),
    /** Walking one loan number's runs in by_loan, after `key`. */
    z.strictObject({ v: z.literal(1), loan: z.string().min(1).max(200), key: LoanKey }),
  ]);
});

export type RunListCursor = z.infer<ReturnType<typeof cursorSchema>>;

export class InvalidCursorError extends Error {
  override name = "InvalidCursorError";
}

export function encodeCursor(cursor: RunListCursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

/** The cursor `text` encodes; InvalidCursorError when it is not one this store wrote. */
export function decodeCursor(text: string): RunListCursor {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(text)) throw new InvalidCursorError("not a cursor of this API");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw new InvalidCursorError("not a cursor of this API");
  }
  const result = cursorSchema().safeParse(parsed);
  if (!result.success) throw new InvalidCursorError("not a cursor of this API");
  const cursor = result.data;
  // The index key must be the partition the cursor says it walks: anything else was edited.
  if ("day" in cursor && cursor.key && cursor.key.gsi2pk !== `DAY#${cursor.day}`) {
    throw new InvalidCursorError("the cursor's key is not on its day");
  }
  if ("loan" in cursor && cursor.key.gsi3pk !== `LOAN#${cursor.loan}`) {
    throw new InvalidCursorError("the cursor's key is not of its loan number");
  }
  return cursor;
}
