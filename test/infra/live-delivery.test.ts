// Live WebSocket delivery off the critical path: the runs table's stream feeds the Push function,
// which alone (with the WebSocket handler's subscribe replay) posts to connections.
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { functionAccess, importOf, resourcesOf, type Synthesized, synthesize } from "./synth.ts";

describe("live delivery from the runs table's stream (dev)", () => {
  let dev: Synthesized;
  let push: ReturnType<typeof functionAccess>;
  beforeAll(() => {
    dev = synthesize();
    push = functionAccess(dev.serviceTemplate, "rewoo-push");
  });

  const pushDeadLetters = () => {
    const queues = Object.keys(resourcesOf(dev.serviceTemplate, "AWS::SQS::Queue"));
    const id = queues.find((queue) => queue.startsWith("PushDeadLetters"));
    if (!id) throw new Error(`no PushDeadLetters queue among ${queues.join(", ")}`);
    return id;
  };

  it("streams new images of the runs table, and only of the runs table", () => {
    dev.dataTemplate.hasResourceProperties("AWS::DynamoDB::Table", {
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      StreamSpecification: { StreamViewType: "NEW_IMAGE" },
    });
    dev.dataTemplate.hasResourceProperties("AWS::DynamoDB::Table", {
      KeySchema: [{ AttributeName: "connection_id", KeyType: "HASH" }],
      StreamSpecification: Match.absent(),
    });
  });

  it("maps the stream to Push, filtered to inserted EVENT# items, with partial batch failures, bisection, bounded retries and a dead-letter queue", () => {
    dev.serviceTemplate.resourceCountIs("AWS::Lambda::EventSourceMapping", 1);
    dev.serviceTemplate.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: push.logicalId },
      EventSourceArn: importOf("RunsTable\\w*StreamArn"),
      StartingPosition: "LATEST",
      FilterCriteria: {
        Filters: [
          { Pattern: '{"eventName":["INSERT"],"dynamodb":{"Keys":{"sk":{"S":[{"prefix":"EVENT#"}]}}}}' },
        ],
      },
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 0,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 3,
      MaximumRecordAgeInSeconds: 300,
      DestinationConfig: { OnFailure: { Destination: { "Fn::GetAtt": [pushDeadLetters(), "Arn"] } } },
    });
  });

  it("keeps skipped records in an encrypted, TLS-only queue and alarms when one arrives", () => {
    const queue = pushDeadLetters();
    expect(resourcesOf(dev.serviceTemplate, "AWS::SQS::Queue")[queue]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    dev.serviceTemplate.hasResourceProperties("AWS::SQS::QueuePolicy", {
      Queues: [{ Ref: queue }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: "Deny",
            Action: "sqs:*",
            Condition: { Bool: { "aws:SecureTransport": "false" } },
          }),
        ]),
      },
    });
    dev.serviceTemplate.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "AWS/SQS",
      MetricName: "ApproximateNumberOfMessagesVisible",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [queue, "QueueName"] } }],
      Threshold: 1,
      AlarmActions: Match.anyValue(),
    });
    dev.serviceTemplate.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "AWS/Lambda",
      MetricName: "IteratorAge",
      Dimensions: [{ Name: "FunctionName", Value: { Ref: push.logicalId } }],
      Statistic: "Maximum",
      Threshold: 60_000,
    });
  });

  it("lets Push read the runs table and its stream, find, update and drop connections, and post to them: nothing more", () => {
    const actions = push.statements
      .flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]))
      .filter((action) => !action.startsWith("xray:") && !action.startsWith("logs:"));
    expect(new Set(actions)).toEqual(
      new Set([
        "dynamodb:GetItem",
        "dynamodb:BatchGetItem",
        "dynamodb:Query",
        "dynamodb:ConditionCheckItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
        "execute-api:ManageConnections",
        "sqs:SendMessage",
        "sqs:GetQueueAttributes",
        "sqs:GetQueueUrl",
      ]),
    );
    // Writes go to the connections table only (delivery cursor, lease, gone connections).
    for (const write of ["dynamodb:UpdateItem", "dynamodb:DeleteItem"]) {
      expect(push.allowing(write).sort(), write).toEqual([
        expect.stringMatching(/ConnectionsTable\w*Arn/),
        expect.stringMatching(/ConnectionsTable\w*Arn\w*\/index\/by_run$/),
      ]);
    }
    expect(push.allowing("dynamodb:PutItem")).toEqual([]);
    // The stream of the runs table only, not every stream of the account.
    for (const read of ["dynamodb:GetRecords", "dynamodb:ListStreams"]) {
      expect(push.allowing(read), read).toEqual([expect.stringMatching(/RunsTable\w*StreamArn/)]);
    }
    expect(push.allowing("sqs:SendMessage")).toEqual([`<${pushDeadLetters()}.Arn>`]);
    expect(push.environment).toMatchObject({
      RUNS_TABLE: expect.anything(),
      CONNECTIONS_TABLE: expect.anything(),
      WEBSOCKET_ENDPOINT: expect.anything(),
    });
  });

  it("gives Push the stage's management endpoint", () => {
    const endpoint = JSON.stringify(push.environment.WEBSOCKET_ENDPOINT);
    expect(endpoint).toMatch(/"https:\/\/",\{"Ref":"WebSocketApi\w+"\},".execute-api.",/);
    expect(endpoint).toContain('"/dev"');
  });
});
