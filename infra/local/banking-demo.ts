// The banking assistant's demo bank in the local twin: the demo customers written into the
// core-banking table at boot. Only what is missing is written, so balances, blocked cards and
// transfers from earlier sessions on the same data folder stay as they were left.
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DEMO_CUSTOMERS } from "../../examples/banking/customers.ts";
import { CoreBankingStore } from "../../lambdas/store/core-banking.ts";
import { localDynamoDbClientConfig } from "./provision.ts";

export async function seedDemoBank(options: {
  dynamodbEndpoint: string;
  region: string;
  table: string;
}): Promise<void> {
  const client = new DynamoDBClient(localDynamoDbClientConfig(options.dynamodbEndpoint, options.region));
  try {
    await new CoreBankingStore(DynamoDBDocumentClient.from(client), options.table).seed(DEMO_CUSTOMERS);
  } finally {
    client.destroy();
  }
}
