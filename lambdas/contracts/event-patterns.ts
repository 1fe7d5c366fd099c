// Event patterns shared by a handler, the CDK stack that subscribes it and the local twin that emulates
// the subscription. Data only, for the same reason as routes.ts: the CDK app imports this module.

/** Lambda event filter patterns of the push function's stream mapping: new progress-event items only (sk EVENT#…). */
export const PUSH_STREAM_FILTERS = [
  { eventName: ["INSERT"], dynamodb: { Keys: { sk: { S: [{ prefix: "EVENT#" }] } } } },
];

/** The detail-type of Step Functions' execution status events on EventBridge. */
export const EXECUTION_STATUS_CHANGE = "Step Functions Execution Status Change";

/**
 * The EventBridge rule's pattern (the CDK stack adds this state machine's ARN to `detail`; the twin
 * has one state machine): the endings the workflow's own handler may not have recorded.
 */
export const EXECUTION_ENDED_PATTERN = {
  source: ["aws.states"],
  "detail-type": [EXECUTION_STATUS_CHANGE],
  detail: { status: ["FAILED", "TIMED_OUT", "ABORTED"] },
} as const;
