// An EventBridge rule that hands a state machine's executions that ended (failed, timed out, aborted)
// to a function, with the delivery kept as reliable as the ending matters: EventBridge retries for two
// hours, Lambda retries its asynchronous invocation twice, and whatever still fails waits in a
// dead-letter queue whose alarm calls a person. The evaluation workflow (finalize closes the run) and
// the batch workflow (the batch function records the ending) both use it.
import { Duration } from "aws-cdk-lib";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import { SqsDestination } from "aws-cdk-lib/aws-lambda-destinations";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { Construct } from "constructs";
import { EXECUTION_ENDED_PATTERN } from "../../lambdas/contracts/event-patterns.ts";
import type { DeadLetterQueue } from "./dead-letter-queue.ts";

export interface ExecutionEndedRuleProps {
  description: string;
  stateMachine: sfn.IStateMachine;
  target: lambda.Function;
  deadLetters: DeadLetterQueue;
}

/** The rule `id` under `scope` (ids as before, so deployed rules update in place). */
export function executionEndedRule(
  scope: Construct,
  id: string,
  props: ExecutionEndedRuleProps,
): events.Rule {
  const rule = new events.Rule(scope, id, {
    description: props.description,
    // The same pattern the local twin's event bus applies, narrowed to this state machine.
    eventPattern: {
      source: [...EXECUTION_ENDED_PATTERN.source],
      detailType: [...EXECUTION_ENDED_PATTERN["detail-type"]],
      detail: {
        stateMachineArn: [props.stateMachine.stateMachineArn],
        status: [...EXECUTION_ENDED_PATTERN.detail.status],
      },
    },
    targets: [
      new targets.LambdaFunction(props.target, {
        // EventBridge retries delivery (throttling, a service error) with backoff; an event still
        // undelivered after two hours waits in the queue.
        retryAttempts: 20,
        maxEventAge: Duration.hours(2),
        deadLetterQueue: props.deadLetters,
      }),
    ],
  });
  // EventBridge invokes asynchronously: a delivered event whose invocation fails (after Lambda's own
  // two retries) lands in the same queue instead of vanishing.
  props.target.configureAsyncInvoke({
    retryAttempts: 2,
    maxEventAge: Duration.hours(2),
    onFailure: new SqsDestination(props.deadLetters),
  });
  return rule;
}
