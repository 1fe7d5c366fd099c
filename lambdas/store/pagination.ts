// DynamoDB answers a Query or a Scan one page (at most 1 MB) at a time, with the key to continue
// from; these read every page of one.
import {
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from "@aws-sdk/lib-dynamodb";

type Item = Record<string, unknown>;

/** Every item the Query matches, in the order DynamoDB returns them. */
export function queryAllPages(ddb: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Item[]> {
  return readAllPages((startKey) =>
    ddb.send(new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) })),
  );
}

/** Every item the Scan matches (its FilterExpression applied). */
export function scanAllPages(ddb: DynamoDBDocumentClient, input: ScanCommandInput): Promise<Item[]> {
  return readAllPages((startKey) =>
    ddb.send(new ScanCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) })),
  );
}

async function readAllPages(
  readPage: (startKey: Item | undefined) => Promise<{ Items?: Item[]; LastEvaluatedKey?: Item }>,
): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await readPage(startKey);
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
