// Where an asynchronous delivery that ran out of retries is kept for inspection and redrive:
// SSE-SQS (EventBridge and Lambda can send to it without a key policy), TLS only, and the longest
// retention SQS has, so a weekend's failures are still there on Monday.
import { Duration, type RemovalPolicy, Validations } from "aws-cdk-lib";
import * as sqs from "aws-cdk-lib/aws-sqs";
import type { Construct } from "constructs";

export interface DeadLetterQueueProps {
  /** What delivers into this queue, for the acknowledgement and the reader of the template. */
  readonly deadLettersOf: string;
  /** Messages still waiting here when the stack is deleted. */
  readonly removalPolicy: RemovalPolicy;
}

export class DeadLetterQueue extends sqs.Queue {
  constructor(scope: Construct, id: string, props: DeadLetterQueueProps) {
    super(scope, id, {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this).acknowledge({
      id: "AwsSolutions-SQS3",
      reason:
        `The dead-letter queue of ${props.deadLettersOf}, so it needs none of its own; cdk-nag only ` +
        "recognizes dead-letter queues named by another queue's RedrivePolicy or a function's DeadLetterConfig.",
    });
  }
}
