// Tables made by a test, as DynamoDB wants them made: CreateTable, then wait until the table is
// ACTIVE before writing to it. The emulator answers CreateTable with the table CREATING and marks it
// ACTIVE a moment later; under the load of the whole suite a PutItem sent at once could still find
// it CREATING and fail with ResourceNotFoundException.
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  type DynamoDBClient,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";

export async function createActiveTable(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
): Promise<void> {
  await client.send(new CreateTableCommand(input));
  await waitUntilTableExists(
    { client, maxWaitTime: 20, minDelay: 1, maxDelay: 1 },
    { TableName: input.TableName },
  );
}
