// The run list of GET /v1/runs: newest first, filtered, paged through the by_day and by_loan indexes
// with bounds on what one request may read.
import { GetCommand, QueryCommand, type QueryCommandOutput } from "@aws-sdk/lib-dynamodb";
import type { RunSummary } from "../contracts/api-types.ts";
import { RESUMABLE_STATUSES, type RunStatus } from "../contracts/run-status.ts";
import { RUNS_BY_DAY, RUNS_BY_LOAN } from "../contracts/tables.ts";
import { dayKey, loanKey, loanNumberOf, META, runKey } from "./keys.ts";
import { InvalidCursorError, type RunListCursor } from "./run-cursor.ts";
import type { MetaItem, RunsTable } from "./run-item.ts";

/**
 * Runs newest first, filtered, one page at a time (GET /v1/runs). Without a loan number it walks the
 * by_day index day by day from `to` back to `from`, one Query (with a FilterExpression) after the
 * other, never a Scan; with one, that loan's partition of by_loan. One call reads at most
 * `bounds.maxItemsRead` index items in at most `bounds.maxQueries` Queries: when the bound or the
 * limit stops it, `cursor` says where the next page starts, even if this page has fewer than
 * `limit` runs (filters that match little must not make one request read the whole table). The
 * last page has no cursor.
 */
export async function listRecentRuns(
  at: RunsTable,
  query: RunListQuery,
  listBounds: Partial<ListBounds> = {},
): Promise<RunListPage> {
  // A cursor only ever continues a walk: a run id search is one page.
  if (query.runId !== undefined && !query.cursor) return findRun(at, query.runId, query, listBounds);
  const bounds = { ...DEFAULT_LIST_BOUNDS, ...listBounds };
  const filter = listFilter(query);
  const runs: RunSummary[] = [];
  let read = 0;
  let queries = 0;

  // One position in an index: the partition (a day of by_day, or the loan's), and where in it.
  type Position =
    | { day: string; key?: Record<string, unknown> }
    | { loan: string; key?: Record<string, unknown> };
  let position: Position | undefined;
  if (query.cursor) position = query.cursor;
  else if (query.loanNumber !== undefined) position = { loan: query.loanNumber };
  else position = { day: query.to };
  if ("day" in position && (position.day > query.to || position.day < query.from)) {
    throw new InvalidCursorError("the cursor is outside the days asked for");
  }
  if (
    ("loan" in position && position.loan !== query.loanNumber) ||
    ("day" in position && query.loanNumber !== undefined)
  ) {
    throw new InvalidCursorError("the cursor belongs to another search");
  }

  while (position) {
    if (read >= bounds.maxItemsRead || queries >= bounds.maxQueries) {
      return { runs, cursor: cursorAt(position) };
    }
    const keyCondition: {
      IndexName: string;
      KeyConditionExpression: string;
      names: Record<string, string>;
      values: Record<string, unknown>;
    } =
      "day" in position
        ? {
            IndexName: RUNS_BY_DAY.name,
            KeyConditionExpression: "#ipk = :ipk",
            names: { "#ipk": RUNS_BY_DAY.partitionKey.name },
            values: { ":ipk": dayKey(position.day) },
          }
        : {
            IndexName: RUNS_BY_LOAN.name,
            // The sort key starts with the creation time: the day range is a key condition here.
            KeyConditionExpression: "#ipk = :ipk AND #isk BETWEEN :from AND :to",
            names: { "#ipk": RUNS_BY_LOAN.partitionKey.name, "#isk": RUNS_BY_LOAN.sortKey.name },
            values: { ":ipk": loanKey(position.loan), ":from": query.from, ":to": `${query.to}\uffff` },
          };
    const page: QueryCommandOutput = await at.ddb.send(
      new QueryCommand({
        TableName: at.table,
        IndexName: keyCondition.IndexName,
        KeyConditionExpression: keyCondition.KeyConditionExpression,
        ...(filter.expression ? { FilterExpression: filter.expression } : {}),
        ExpressionAttributeNames: { ...keyCondition.names, ...filter.names },
        ExpressionAttributeValues: { ...keyCondition.values, ...filter.values },
        ScanIndexForward: false,
        Limit: Math.min(bounds.queryPageSize, bounds.maxItemsRead - read),
        ...(position.key ? { ExclusiveStartKey: position.key } : {}),
      }),
    );
    queries += 1;
    read += page.ScannedCount ?? page.Items?.length ?? 0;
    const items = (page.Items ?? []) as MetaItem[];
    const room = query.limit - runs.length;
    if (items.length >= room) {
      // The page is full: the next one starts right after the last run it shows (runs read after it
      // in this Query are read again then, none skipped), or where this Query stopped.
      const last = items[room - 1] as MetaItem & Record<string, unknown>;
      runs.push(...items.slice(0, room).map(runSummary));
      const rest = items.length > room || page.LastEvaluatedKey;
      const next: Position | undefined = rest
        ? { ...position, key: items.length > room ? indexKeyOf(last, position) : page.LastEvaluatedKey }
        : nextPartition(position, query.from);
      return next ? { runs, cursor: cursorAt(next) } : { runs };
    }
    runs.push(...items.map(runSummary));
    position = page.LastEvaluatedKey
      ? { ...position, key: page.LastEvaluatedKey }
      : nextPartition(position, query.from);
  }
  return { runs };
}

/**
 * q= a run id: that run, if it exists and passes the other filters. A run id that names no run may
 * still be a loan number (loan systems number loans freely): then that search.
 */
async function findRun(
  at: RunsTable,
  runId: string,
  query: RunListQuery,
  listBounds: Partial<ListBounds>,
): Promise<RunListPage> {
  const { Item } = await at.ddb.send(
    new GetCommand({ TableName: at.table, Key: { pk: runKey(runId), sk: META } }),
  );
  const meta = Item as MetaItem | undefined;
  if (!meta && query.loanNumber !== undefined) {
    return listRecentRuns(at, { ...query, runId: undefined }, listBounds);
  }
  return { runs: meta && matches(meta, query) ? [runSummary(meta)] : [] };
}

/** What GET /v1/runs asks the store for; the API has checked every field. */
export interface RunListQuery {
  /** Only runs in one of these statuses; absent: any. */
  statuses?: readonly RunStatus[];
  loanProgram?: string;
  classification?: string;
  /** UTC creation days, `YYYY-MM-DD`, both included; from ≤ to. */
  from: string;
  to: string;
  /** A run id: only that run (the other filters still apply); if no such run exists, loanNumber is searched. */
  runId?: string;
  /** A loan number (as loanNumberOf makes it): the runs whose metadata.loan_number it is, in by_loan. */
  loanNumber?: string;
  limit: number;
  cursor?: RunListCursor;
}

export interface RunListPage {
  runs: RunSummary[];
  /** Where the next page starts; absent on the last page. */
  cursor?: RunListCursor;
}

/** How much one listRecentRuns call may read: items of the index (before filters) and Queries. */
export interface ListBounds {
  maxItemsRead: number;
  maxQueries: number;
  /** Limit of each Query: DynamoDB pages at 1 MB too, so a Query may stop before it. */
  queryPageSize: number;
}

export const DEFAULT_LIST_BOUNDS: ListBounds = { maxItemsRead: 1000, maxQueries: 40, queryPageSize: 200 };

/** The FilterExpression of a run list's filters (the key condition picks the day or the loan). */
function listFilter(query: RunListQuery): {
  expression?: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  if (query.statuses?.length) {
    names["#status"] = "status";
    const placeholders = query.statuses.map((status, index) => {
      values[`:st${index}`] = status;
      return `:st${index}`;
    });
    clauses.push(`#status IN (${placeholders.join(", ")})`);
  }
  const metadata = (field: string, value: string | undefined) => {
    if (value === undefined) return;
    Object.assign(names, { "#request": "request", "#metadata": "metadata", [`#${field}`]: field });
    values[`:${field}`] = value;
    clauses.push(`#request.#metadata.#${field} = :${field}`);
  };
  metadata("loan_program", query.loanProgram);
  metadata("classification", query.classification);
  return { ...(clauses.length ? { expression: clauses.join(" AND ") } : {}), names, values };
}

/** The filters of a run list, checked on one run (q= a run id). */
function matches(meta: MetaItem, query: RunListQuery): boolean {
  const metadata = (meta.request?.metadata ?? {}) as Record<string, unknown>;
  const day = meta.created_at.slice(0, 10);
  return (
    (!query.statuses?.length || query.statuses.includes(meta.status)) &&
    (query.loanProgram === undefined || metadata.loan_program === query.loanProgram) &&
    (query.classification === undefined || metadata.classification === query.classification) &&
    day >= query.from &&
    day <= query.to
  );
}

/** The index key (LastEvaluatedKey) of an item read from the index `position` walks. */
function indexKeyOf(
  item: Record<string, unknown>,
  position: { day: string } | { loan: string },
): Record<string, unknown> {
  const index = "day" in position ? RUNS_BY_DAY : RUNS_BY_LOAN;
  return {
    pk: item.pk,
    sk: item.sk,
    [index.partitionKey.name]: item[index.partitionKey.name],
    [index.sortKey.name]: item[index.sortKey.name],
  };
}

/** The day before `position`'s, unless that is before `from`; a loan's runs are one partition. */
function nextPartition(
  position: { day: string } | { loan: string },
  from: string,
): { day: string } | undefined {
  if (!("day" in position)) return undefined;
  const previous = new Date(Date.parse(`${position.day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return previous >= from ? { day: previous } : undefined;
}

function cursorAt(
  position: { day: string; key?: Record<string, unknown> } | { loan: string; key?: Record<string, unknown> },
): RunListCursor {
  return { v: 1, ...position } as RunListCursor;
}

/** A run as GET /v1/runs shows it: its request's metadata cut to what identifies the loan. */
function runSummary(meta: MetaItem): RunSummary {
  const loan = loanNumberOf(meta.request?.metadata?.loan_number);
  return {
    run_id: meta.run_id,
    status: meta.status,
    mode: meta.mode ?? "rewoo",
    created_at: meta.created_at,
    updated_at: meta.updated_at,
    request: { metadata: pick(meta.request?.metadata, ["loan_program", "classification", "loan_number"]) },
    ...(meta.cost ? { cost: { currency: meta.cost.currency, total: meta.cost.total, estimated: true } } : {}),
    ...(loan !== undefined ? { loan_number: loan } : {}),
    resumable: RESUMABLE_STATUSES.includes(meta.status),
  };
}

function pick(value: unknown, keys: string[]): Record<string, unknown> {
  const source = (value ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => key in source).map((key) => [key, source[key]]));
}
