// A conditional write whose failed condition is an answer, not an error: a claim already taken, a
// lease someone else holds, a run that moved on.
import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";

/** True when `write` was written; false when its ConditionExpression did not hold. Other errors throw. */
export async function conditionalWrite(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
