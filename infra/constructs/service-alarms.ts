// Every alarm of the Service stack (docs/operations.md says what each means and what to do): failed,
// timed-out and throttled executions, each function's errors, reserved-concurrency throttles, the
// dead-letter queues, REST 5xx and live delivery's lag. They notify the topic of Alarms.

import type * as apigateway from "aws-cdk-lib/aws-apigateway";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { Construct } from "constructs";
import { Alarms, type AlarmsProps } from "./alarms.ts";
import type { BatchWorkflow } from "./batch-workflow.ts";
import type { DeadLetterQueue } from "./dead-letter-queue.ts";
import type { RewooFunction } from "./rewoo-function.ts";

export interface ServiceAlarmsProps extends AlarmsProps {
  readonly stateMachine: sfn.StateMachine;
  /** Every function, by the name its alarms carry (`<name>Errors`). */
  readonly functions: Readonly<Record<string, RewooFunction>>;
  /** Functions with reserved concurrency, whose throttles mean the reservation is reached. */
  readonly reserved: Readonly<Record<string, RewooFunction>>;
  readonly batches: BatchWorkflow;
  readonly restApi: apigateway.RestApi;
  /** Standard workflows only. */
  readonly finalizeDeadLetters?: DeadLetterQueue;
  readonly pushDeadLetters: DeadLetterQueue;
  /** The runs-table stream consumer. */
  readonly push: RewooFunction;
}

export class ServiceAlarms extends Alarms {
  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id, props);
    const { stateMachine, batches } = props;
    this.onAny("ExecutionsFailed", stateMachine.metricFailed(), "A ReWOO run failed");
    this.onAny(
      "ExecutionsTimedOut",
      stateMachine.metricTimedOut(),
      "A ReWOO run hit the state machine timeout",
    );
    this.onAny(
      "ExecutionsThrottled",
      stateMachine.metricThrottled(),
      "Step Functions throttled ReWOO executions",
    );
    for (const [name, f] of Object.entries(props.functions)) {
      this.onAny(`${name}Errors`, f.metricErrors(), `The ${name} function raised errors`);
    }
    for (const [name, f] of Object.entries(props.reserved)) {
      this.onAny(
        `${name}Throttles`,
        f.metricThrottles(),
        `The ${name} function reached its reserved concurrency (reservedConcurrency.${name})`,
      );
    }
    this.onAny("BatchesFailed", batches.stateMachine.metricFailed(), "A batch failed");
    this.onAny("BatchesTimedOut", batches.stateMachine.metricTimedOut(), "A batch hit its time limit");
    this.onAny(
      "BatchEndedDeadLetters",
      batches.deadLetters.metricApproximateNumberOfMessagesVisible(),
      "A batch's ending could not be recorded: its event waits in the dead-letter queue",
    );
    this.onAny("RestApi5xx", props.restApi.metricServerError(), "The REST API answered 5xx");
    if (props.finalizeDeadLetters) {
      this.onAny(
        "FinalizeDeadLetters",
        props.finalizeDeadLetters.metricApproximateNumberOfMessagesVisible(),
        "An ended execution's run could not be closed by finalize: its event waits in the dead-letter queue",
      );
    }
    this.onAny(
      "PushDeadLetters",
      props.pushDeadLetters.metricApproximateNumberOfMessagesVisible(),
      "Live delivery skipped stream records after its retries: they wait in the dead-letter queue",
    );
    this.onAny(
      "PushIteratorAge",
      props.push.metric("IteratorAge", { statistic: cloudwatch.Stats.MAXIMUM }),
      "Live delivery lags the runs table's stream by a minute or more",
      60_000,
    );
  }
}
