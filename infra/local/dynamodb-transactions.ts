// DynamoDB transactions (TransactWriteItems, TransactGetItems) for the local twin. dynalite answers
// both with UnknownOperationException, so this sits in front of dynalite's HTTP handler, on the same
// endpoint: requests aimed at the two operations are answered here, every other request reaches
// dynalite untouched. Real AWS SDK v3 clients (TransactWriteItemsCommand, the document client's
// TransactWriteCommand) work against it unchanged.
//
// How a write transaction runs: transactions go one at a time through one in-process queue; the
// before-image of every item is read (consistent GetItem); each action is applied as the single-item
// conditional operation it amounts to (Put → PutItem, Update → UpdateItem, Delete → DeleteItem,
// ConditionCheck → the before-image put back under the condition, or for a missing item a DeleteItem
// of nothing under the condition: neither changes anything). When a condition fails, the actions not
// yet applied only have their conditions evaluated, every action applied so far is undone by writing
// its before-image back, and the answer is TransactionCanceledException with one reason per action
// (None, or ConditionalCheckFailed with the old item when ReturnValuesOnConditionCheckFailure is
// ALL_OLD), as DynamoDB answers. ClientRequestToken makes a committed transaction idempotent for 10
// minutes: the same request again succeeds without being applied again, another request under the
// same token is refused (IdempotentParameterMismatchException).
//
// What is not reproduced:
// - atomicity if the twin's process dies mid-transaction: the actions applied so far stay applied;
// - isolation against NON-transactional writes to the same items (DynamoDB refuses those with
//   TransactionConflict while a transaction holds the item; here they interleave);
// - a token's transaction still in progress (TransactionInProgressException): a repeat waits its turn
//   in the queue and then sees the committed transaction;
// - a cancelled transaction does not consume its token (a repeat is evaluated afresh);
// - data errors an action meets while applied (an update's operand of the wrong type, an item over
//   400 KB) answer dynalite's ValidationException, after everything is undone, where DynamoDB would
//   cancel with a ValidationError reason;
// - ConsumedCapacity and ItemCollectionMetrics are not returned; the 4 MB aggregate size limit is
//   not checked;
// - transactional writes are not recorded by the twin's DynamoDB Streams emulation.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import { crc32 } from "node:zlib";

type AttributeMap = Record<string, unknown>;
type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** DynamoDB's limit on the actions of one transaction. */
export const MAX_TRANSACTION_ACTIONS = 100;
/** How long a committed transaction's ClientRequestToken makes a repeat of it a no-op. */
export const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;
const MAX_TOKEN_LENGTH = 36;

const API = "DynamoDB_20120810";
const DYNAMODB_ERROR = "com.amazonaws.dynamodb.v20120810#";
const VALIDATION_ERROR = "com.amazon.coral.validate#ValidationException";
const CONDITION_FAILED_MESSAGE = "The conditional request failed";
const ACTION_KINDS = ["ConditionCheck", "Put", "Delete", "Update"] as const;
type ActionKind = (typeof ACTION_KINDS)[number];

interface Action {
  kind: ActionKind;
  table: string;
  /** Key of the item, or (Put) the item itself, from which the key attributes are taken. */
  key?: AttributeMap;
  item?: AttributeMap;
  updateExpression?: string;
  conditionExpression?: string;
  names?: Record<string, string>;
  values?: AttributeMap;
  returnOldOnFailure: boolean;
}

interface Get {
  table: string;
  key: AttributeMap;
  projection?: string;
  names?: Record<string, string>;
}

interface Reason {
  Code: string;
  Message?: string;
  Item?: AttributeMap;
}

/** An answer in DynamoDB's wire form: HTTP status and JSON body. */
interface Answer {
  status: number;
  body: Record<string, unknown>;
}

class AnswerError extends Error {
  constructor(readonly answer: Answer) {
    super(String(answer.body.message ?? answer.body.Message ?? answer.body.__type));
  }
}

const validation = (message: string) =>
  new AnswerError({ status: 400, body: { __type: VALIDATION_ERROR, message } });

export interface DynamoDbTransactionsOptions {
  /** Milliseconds since the epoch; tests move it to see a token's window close. */
  now?: () => number;
}

export class LocalDynamoDbTransactions {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly committed = new Map<string, { requestHash: string; expiresAt: number }>();
  private readonly now: () => number;

  constructor(
    private readonly dynalite: RequestHandler,
    options: DynamoDbTransactionsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Answers one request that was aimed at TransactWriteItems or TransactGetItems. */
  async handle(req: IncomingMessage, res: ServerResponse, operation: string): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let answer: Answer;
    let input: unknown;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      input = undefined;
    }
    if (!isObject(input)) {
      answer = { status: 400, body: { __type: "com.amazon.coral.service#SerializationException" } };
    } else {
      try {
        answer =
          operation === "TransactWriteItems"
            ? await this.transactWrite(input, req.headers)
            : await this.transactGet(input, req.headers);
      } catch (error) {
        if (!(error instanceof AnswerError)) throw error;
        answer = error.answer;
      }
    }
    send(res, answer, req.headers["content-type"]);
  }

  private async transactWrite(input: Record<string, unknown>, headers: IncomingHttpHeaders): Promise<Answer> {
    const actions = parseWriteActions(input.TransactItems);
    const token = input.ClientRequestToken;
    if (token !== undefined && (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH)) {
      throw validation(
        `1 validation error detected: Value '${String(token)}' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to ${MAX_TOKEN_LENGTH}`,
      );
    }
    if (token === "") {
      throw validation(
        "1 validation error detected: Value '' at 'clientRequestToken' failed to satisfy constraint: Member must have length greater than or equal to 1",
      );
    }
    const requestHash = hashOf({ ...input, ClientRequestToken: undefined });
    return this.serialized(async () => {
      const inner = new DynaliteCalls(this.dynalite, headers);
      if (typeof token === "string") {
        this.forgetExpiredTokens();
        const earlier = this.committed.get(token);
        if (earlier && earlier.requestHash !== requestHash) {
          throw new AnswerError({
            status: 400,
            body: {
              __type: `${DYNAMODB_ERROR}IdempotentParameterMismatchException`,
              message: "Request parameters do not match the previous request made with the same client token",
            },
          });
        }
        if (earlier) return { status: 200, body: {} };
      }
      const keys = await keysOf(
        inner,
        actions.map((action) => ({ table: action.table, key: action.key ?? action.item ?? {} })),
      );
      const before = await Promise.all(
        actions.map((action, index) => inner.getItem(action.table, keys[index] as AttributeMap)),
      );
      const reasons: Reason[] = [];
      const applied: number[] = [];
      let cancelled = false;
      try {
        for (const [index, action] of actions.entries()) {
          const image = before[index];
          const key = keys[index] as AttributeMap;
          if (cancelled) {
            reasons.push(await evaluateCondition(inner, action, key, image));
            continue;
          }
          try {
            await apply(inner, action, key, image);
            if (action.kind !== "ConditionCheck") applied.push(index);
            reasons.push({ Code: "None" });
          } catch (error) {
            if (!isConditionFailure(error)) throw error;
            cancelled = true;
            reasons.push(conditionFailed(action, image));
          }
        }
      } catch (error) {
        await restore(inner, actions, keys, before, applied);
        throw error;
      }
      if (cancelled) {
        await restore(inner, actions, keys, before, applied);
        return {
          status: 400,
          body: {
            __type: `${DYNAMODB_ERROR}TransactionCanceledException`,
            CancellationReasons: reasons,
            Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons
              .map((reason) => reason.Code)
              .join(", ")}]`,
          },
        };
      }
      if (typeof token === "string") {
        this.committed.set(token, { requestHash, expiresAt: this.now() + IDEMPOTENCY_WINDOW_MS });
      }
      return { status: 200, body: {} };
    });
  }

  private async transactGet(input: Record<string, unknown>, headers: IncomingHttpHeaders): Promise<Answer> {
    const gets = parseGets(input.TransactItems);
    return this.serialized(async () => {
      const inner = new DynaliteCalls(this.dynalite, headers);
      await keysOf(inner, gets);
      const items = await Promise.all(
        gets.map((get) =>
          inner.call("GetItem", {
            TableName: get.table,
            Key: get.key,
            ConsistentRead: true,
            ...(get.projection !== undefined ? { ProjectionExpression: get.projection } : {}),
            ...(get.names ? { ExpressionAttributeNames: get.names } : {}),
          }),
        ),
      );
      return {
        status: 200,
        body: { Responses: items.map((answer) => (answer.Item ? { Item: answer.Item } : {})) },
      };
    });
  }

  /** One transaction at a time, in arrival order; a failed one does not stop the next. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private forgetExpiredTokens(): void {
    const now = this.now();
    for (const [token, record] of this.committed) if (record.expiresAt <= now) this.committed.delete(token);
  }
}

/**
 * Puts the transactions layer in front of the DynamoDB emulator's request handler. Attach it before
 * anything else wraps the server's handler (the twin's DynamoDB Streams), so that those layers see
 * the transactions as one more operation they pass on.
 */
export function attachDynamoDbTransactions(
  server: Server,
  options: DynamoDbTransactionsOptions = {},
): LocalDynamoDbTransactions {
  const [original] = server.listeners("request") as RequestHandler[];
  if (!original)
    throw new Error("the DynamoDB emulator has no request handler to put transactions in front of");
  const transactions = new LocalDynamoDbTransactions(original, options);
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const [api, operation] = String(req.headers["x-amz-target"] ?? "").split(".");
    if (
      req.method === "POST" &&
      api === API &&
      (operation === "TransactWriteItems" || operation === "TransactGetItems")
    ) {
      transactions.handle(req, res, operation).catch((error: unknown) => {
        send(
          res,
          {
            status: 500,
            body: { __type: `${DYNAMODB_ERROR}InternalServerError`, message: String(error) },
          },
          req.headers["content-type"],
        );
      });
      return;
    }
    original(req, res);
  });
  return transactions;
}

// --- the request's shape, checked as DynamoDB checks it, with its messages ---------------------------

function parseWriteActions(items: unknown): Action[] {
  const list = checkedList(items);
  return list.map((entry, index) => {
    const position = `transactItems.${index + 1}.member`;
    const present = isObject(entry) ? ACTION_KINDS.filter((kind) => entry[kind] !== undefined) : [];
    if (present.length !== 1 || !isObject(entry)) {
      throw validation("TransactItems can only contain one of Check, Put, Update or Delete");
    }
    const kind = present[0] as ActionKind;
    const body = entry[kind];
    const field = `${position}.${lowerFirst(kind)}`;
    if (!isObject(body)) throw validation(notNull(field));
    const action: Action = {
      kind,
      table: requiredString(body.TableName, `${field}.tableName`),
      returnOldOnFailure: returnValuesOnFailure(body.ReturnValuesOnConditionCheckFailure, field),
    };
    if (kind === "Put") action.item = requiredMap(body.Item, `${field}.item`);
    else action.key = requiredMap(body.Key, `${field}.key`);
    if (kind === "Update")
      action.updateExpression = requiredString(body.UpdateExpression, `${field}.updateExpression`);
    if (kind === "ConditionCheck") {
      action.conditionExpression = requiredString(body.ConditionExpression, `${field}.conditionExpression`);
    } else if (body.ConditionExpression !== undefined) {
      action.conditionExpression = requiredString(body.ConditionExpression, `${field}.conditionExpression`);
    }
    if (isObject(body.ExpressionAttributeNames))
      action.names = body.ExpressionAttributeNames as Record<string, string>;
    if (isObject(body.ExpressionAttributeValues)) action.values = body.ExpressionAttributeValues;
    return action;
  });
}

function parseGets(items: unknown): Get[] {
  const list = checkedList(items);
  return list.map((entry, index) => {
    const field = `transactItems.${index + 1}.member.get`;
    const body = isObject(entry) ? entry.Get : undefined;
    if (!isObject(body)) throw validation(notNull(field));
    return {
      table: requiredString(body.TableName, `${field}.tableName`),
      key: requiredMap(body.Key, `${field}.key`),
      ...(typeof body.ProjectionExpression === "string" ? { projection: body.ProjectionExpression } : {}),
      ...(isObject(body.ExpressionAttributeNames)
        ? { names: body.ExpressionAttributeNames as Record<string, string> }
        : {}),
    };
  });
}

function checkedList(items: unknown): unknown[] {
  if (items === undefined || items === null) throw validation(notNull("transactItems"));
  if (!Array.isArray(items)) throw validation("Start of list found where not expected");
  if (items.length < 1) {
    throw validation(
      "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  }
  if (items.length > MAX_TRANSACTION_ACTIONS) {
    throw validation(
      `1 validation error detected: Value '[${items.length} items]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to ${MAX_TRANSACTION_ACTIONS}`,
    );
  }
  return items;
}

function returnValuesOnFailure(value: unknown, field: string): boolean {
  if (value === undefined || value === "NONE") return false;
  if (value === "ALL_OLD") return true;
  throw validation(
    `1 validation error detected: Value '${String(value)}' at '${field}.returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]`,
  );
}

function requiredString(value: unknown, field: string): string {
  if (typeof value !== "string") throw validation(notNull(field));
  return value;
}

function requiredMap(value: unknown, field: string): AttributeMap {
  if (!isObject(value)) throw validation(notNull(field));
  return value;
}

const notNull = (field: string) =>
  `1 validation error detected: Value null at '${field}' failed to satisfy constraint: Member must not be null`;

// --- items, keys and the single-item operations -------------------------------------------------------

/**
 * The key of each item a transaction names (from a Put, its item's key attributes); refuses two
 * actions on one item, as DynamoDB does.
 */
async function keysOf(
  inner: DynaliteCalls,
  targets: ReadonlyArray<{ table: string; key: AttributeMap }>,
): Promise<AttributeMap[]> {
  const schemas = new Map<string, string[]>();
  for (const table of new Set(targets.map((target) => target.table))) {
    const { Table } = (await inner.call("DescribeTable", { TableName: table })) as {
      Table: { KeySchema: Array<{ AttributeName: string }> };
    };
    schemas.set(
      table,
      Table.KeySchema.map((key) => key.AttributeName),
    );
  }
  const seen = new Set<string>();
  return targets.map(({ table, key: source }) => {
    const names = schemas.get(table) ?? [];
    const key = Object.fromEntries(
      names.filter((name) => name in source).map((name) => [name, source[name]]),
    );
    const identity = JSON.stringify([table, names.map((name) => canonical(source[name]))]);
    if (seen.has(identity))
      throw validation("Transaction request cannot include multiple operations on one item");
    seen.add(identity);
    return key;
  });
}

async function apply(
  inner: DynaliteCalls,
  action: Action,
  key: AttributeMap,
  image: AttributeMap | undefined,
): Promise<void> {
  const expressions = {
    ...(action.conditionExpression !== undefined ? { ConditionExpression: action.conditionExpression } : {}),
    ...(action.names ? { ExpressionAttributeNames: action.names } : {}),
    ...(action.values ? { ExpressionAttributeValues: action.values } : {}),
  };
  switch (action.kind) {
    case "Put":
      await inner.call("PutItem", { TableName: action.table, Item: action.item, ...expressions });
      return;
    case "Update":
      await inner.call("UpdateItem", {
        TableName: action.table,
        Key: key,
        UpdateExpression: action.updateExpression,
        ...expressions,
      });
      return;
    case "Delete":
      await inner.call("DeleteItem", { TableName: action.table, Key: key, ...expressions });
      return;
    case "ConditionCheck":
      await check(inner, action, key, image);
  }
}

/** The condition of an action not applied (the transaction is already cancelled): its reason. */
async function evaluateCondition(
  inner: DynaliteCalls,
  action: Action,
  key: AttributeMap,
  image: AttributeMap | undefined,
): Promise<Reason> {
  if (action.conditionExpression === undefined) return { Code: "None" };
  try {
    await check(inner, action, key, image);
    return { Code: "None" };
  } catch (error) {
    if (isConditionFailure(error)) return conditionFailed(action, image);
    throw error;
  }
}

/**
 * Evaluates an action's condition against the item as it is, changing nothing: the item written back
 * as it was, under the condition; a missing item "deleted", which DynamoDB does without writing.
 */
async function check(
  inner: DynaliteCalls,
  action: Action,
  key: AttributeMap,
  image: AttributeMap | undefined,
): Promise<void> {
  const condition = conditionOf(action);
  if (image) await inner.call("PutItem", { TableName: action.table, Item: image, ...condition });
  else await inner.call("DeleteItem", { TableName: action.table, Key: key, ...condition });
}

/**
 * The condition of an action as a request of its own. An update's names and values may serve its
 * update expression alone, and DynamoDB refuses unused ones: only those the condition uses are kept.
 * Other actions' are sent as given, so that DynamoDB's own checks of them apply.
 */
function conditionOf(action: Action): Record<string, unknown> {
  const used =
    action.kind === "Update"
      ? new Set(action.conditionExpression?.match(/[#:][A-Za-z0-9_]+/g) ?? [])
      : undefined;
  const names = used ? pick(action.names, used) : action.names;
  const values = used ? pick(action.values, used) : action.values;
  return {
    ConditionExpression: action.conditionExpression,
    ...(names ? { ExpressionAttributeNames: names } : {}),
    ...(values ? { ExpressionAttributeValues: values } : {}),
  };
}

function pick<T>(map: Record<string, T> | undefined, used: Set<string>): Record<string, T> | undefined {
  if (!map) return undefined;
  const kept = Object.entries(map).filter(([name]) => used.has(name));
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function conditionFailed(action: Action, image: AttributeMap | undefined): Reason {
  return {
    Code: "ConditionalCheckFailed",
    Message: CONDITION_FAILED_MESSAGE,
    ...(action.returnOldOnFailure && image ? { Item: image } : {}),
  };
}

/** Writes back the before-images of the applied actions, last applied first. */
async function restore(
  inner: DynaliteCalls,
  actions: readonly Action[],
  keys: readonly AttributeMap[],
  before: ReadonlyArray<AttributeMap | undefined>,
  applied: readonly number[],
): Promise<void> {
  for (const index of [...applied].reverse()) {
    const action = actions[index] as Action;
    const image = before[index];
    if (image) await inner.call("PutItem", { TableName: action.table, Item: image });
    else await inner.call("DeleteItem", { TableName: action.table, Key: keys[index] });
  }
}

function isConditionFailure(error: unknown): boolean {
  return (
    error instanceof AnswerError &&
    String(error.answer.body.__type).endsWith("#ConditionalCheckFailedException")
  );
}

/**
 * Single-item operations handed to dynalite's own handler in this process, with the caller's
 * headers (its credentials): no socket, and not through the layers above this one.
 */
class DynaliteCalls {
  constructor(
    private readonly dynalite: RequestHandler,
    private readonly headers: IncomingHttpHeaders,
  ) {}

  async getItem(table: string, key: AttributeMap): Promise<AttributeMap | undefined> {
    const answer = await this.call("GetItem", { TableName: table, Key: key, ConsistentRead: true });
    return answer.Item as AttributeMap | undefined;
  }

  /** The operation's answer; a DynamoDB error is thrown as the AnswerError to pass on. */
  call(operation: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
    const body = JSON.stringify(input);
    const req = Object.assign(new PassThrough(), {
      headers: {
        ...this.headers,
        origin: undefined,
        "content-type": "application/x-amz-json-1.0",
        "content-length": String(Buffer.byteLength(body)),
        "x-amz-target": `${API}.${operation}`,
      },
      method: "POST",
      url: "/",
      httpVersion: "1.1",
    });
    return new Promise((resolve, reject) => {
      const res = {
        statusCode: 200,
        setHeader: () => res,
        end: (text?: string) => {
          let parsed: Record<string, unknown>;
          try {
            parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            reject(
              new Error(`dynalite answered ${operation} with ${res.statusCode} and a body that is not JSON`),
            );
            return res;
          }
          if (res.statusCode === 200) resolve(parsed);
          else reject(new AnswerError({ status: res.statusCode, body: parsed }));
          return res;
        },
      };
      this.dynalite(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      req.end(body);
    });
  }
}

// --- helpers --------------------------------------------------------------------------------------

function send(res: ServerResponse, answer: Answer, contentType: string | string[] | undefined): void {
  const body = JSON.stringify(answer.body);
  res.statusCode = answer.status;
  res.setHeader(
    "Content-Type",
    String(contentType ?? "").startsWith("application/json")
      ? "application/json"
      : "application/x-amz-json-1.0",
  );
  res.setHeader("x-amzn-RequestId", randomBytes(39).toString("base64url").toUpperCase());
  // The SDK checks DynamoDB's CRC32 of the body it receives.
  res.setHeader("x-amz-crc32", String(crc32(body)));
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.end(body);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** JSON with object keys sorted: two equal requests hash alike however their keys were ordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function hashOf(value: unknown): string {
  return createHash("sha256").update(canonical(value)).digest("hex");
}
