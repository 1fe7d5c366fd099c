// The deployed workflow is statemachine/rewoo.asl.json itself, wired to the right functions.
import { readFileSync } from "node:fs";
import aslValidator from "asl-validator";
import type { CfnElement } from "aws-cdk-lib";
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { ASL_FILE } from "../../infra/stacks/service-stack.ts";
import { type Cfn, functionAccess, resourcesOf, type Synthesized, synthesize } from "./synth.ts";

const aslText = readFileSync(ASL_FILE, "utf8");

type State = {
  Type: string;
  TimeoutSeconds?: number;
  TimeoutSecondsPath?: string;
  Resource?: string;
  ItemProcessor?: { States: Record<string, State> };
};
function tasks(states: Record<string, State>): Array<[string, State]> {
  return Object.entries(states).flatMap(([name, state]) => [
    ...(state.Type === "Task" ? [[name, state] as [string, State]] : []),
    ...(state.ItemProcessor ? tasks(state.ItemProcessor.States) : []),
  ]);
}

describe("the state machine (dev)", () => {
  let dev: Synthesized;
  let stateMachine: Cfn;
  beforeAll(() => {
    dev = synthesize();
    stateMachine = resourcesOf(dev.serviceTemplate, "AWS::StepFunctions::StateMachine")[
      dev.service.getLogicalId(dev.service.stateMachine.node.defaultChild as CfnElement)
    ]?.Properties as Cfn;
  });

  it("deploys the ASL file byte for byte, the same file the local twin runs", () => {
    expect(stateMachine.DefinitionString).toBe(aslText);
  });

  it("substitutes each FunctionArn placeholder with the ARN of the function of that name", () => {
    const arnOf = (service: string) => ({
      "Fn::GetAtt": [functionAccess(dev.serviceTemplate, service).logicalId, "Arn"],
    });
    expect(stateMachine.DefinitionSubstitutions).toEqual({
      PlannerFunctionArn: arnOf("rewoo-planner"),
      WorkerFunctionArn: arnOf("rewoo-worker"),
      SolverFunctionArn: arnOf("rewoo-solver"),
      FinalizeFunctionArn: arnOf("rewoo-finalize"),
    });
    const placeholders = new Set(aslText.match(/\$\{(\w+)\}/g)?.map((p) => p.slice(2, -1)));
    expect([...placeholders].sort()).toEqual(Object.keys(stateMachine.DefinitionSubstitutions).sort());
  });

  it("with the substitutions filled in, passes asl-validator", () => {
    const filled = aslText.replace(
      /\$\{(\w+)FunctionArn\}/g,
      (_match, name: string) => `arn:aws:lambda:eu-west-1:111122223333:function:rewoo-${name.toLowerCase()}`,
    );
    const result = aslValidator(JSON.parse(filled));
    expect(result.errors).toEqual([]);
    expect(result.isValid).toBe(true);
  });

  it("is a Standard workflow with X-Ray and ALL-level logs that never include execution data", () => {
    expect(stateMachine.StateMachineType).toBe("STANDARD");
    expect(stateMachine.TracingConfiguration).toEqual({ Enabled: true });
    expect(stateMachine.LoggingConfiguration).toMatchObject({ Level: "ALL", IncludeExecutionData: false });
  });

  it("may invoke exactly the four workflow functions, and nothing else in Lambda", () => {
    const roleId = (stateMachine.RoleArn as { "Fn::GetAtt": [string] })["Fn::GetAtt"][0];
    const policies = Object.values(resourcesOf(dev.serviceTemplate, "AWS::IAM::Policy")).filter((policy) =>
      JSON.stringify(policy.Properties?.Roles).includes(roleId),
    );
    const lambdaStatements = policies
      .flatMap((policy) => policy.Properties?.PolicyDocument.Statement as Array<Cfn>)
      .filter((statement) => JSON.stringify(statement.Action).includes("lambda:"));
    const functionArns = ["rewoo-planner", "rewoo-worker", "rewoo-solver", "rewoo-finalize"].map(
      (service) => ({
        "Fn::GetAtt": [functionAccess(dev.serviceTemplate, service).logicalId, "Arn"],
      }),
    );
    expect(lambdaStatements).toEqual([
      { Action: "lambda:InvokeFunction", Effect: "Allow", Resource: functionArns },
    ]);
  });

  it("gives the planner the worker concurrency that becomes the RunSteps Map's MaxConcurrencyPath", () => {
    const runSteps = JSON.parse(aslText).States.RunLevels.ItemProcessor.States.RunSteps;
    expect(runSteps.MaxConcurrencyPath).toBe("$.max_concurrency");
    expect(functionAccess(dev.serviceTemplate, "rewoo-planner").environment.REWOO_WORKER_CONCURRENCY).toBe(
      String(dev.config.workflow.workerConcurrency),
    );
  });

  it("lets every Lambda time out before its Task's TimeoutSeconds, so Retry/Catch see a Lambda error", () => {
    const services: Record<string, string> = {
      Plan: "rewoo-planner",
      ReviewPlan: "rewoo-planner",
      AwaitInput: "rewoo-planner",
      AwaitApproval: "rewoo-planner",
      WaitTimedOut: "rewoo-planner",
      Replan: "rewoo-planner",
      Work: "rewoo-worker",
      Solve: "rewoo-solver",
      ReviewResult: "rewoo-solver",
      Finalize: "rewoo-finalize",
      HandleFailure: "rewoo-finalize",
    };
    for (const [name, task] of tasks(JSON.parse(aslText).States)) {
      const fn = functionAccess(dev.serviceTemplate, services[name] as string);
      // A wait state's timeout is how long the run waits for a person, not a bound on its function.
      if (task.TimeoutSecondsPath) continue;
      expect(fn.properties.Timeout, name).toBeLessThan(task.TimeoutSeconds as number);
    }
  });

  it("alarms on failed, timed-out and throttled executions", () => {
    for (const metric of ["ExecutionsFailed", "ExecutionsTimedOut", "ExecutionThrottled"]) {
      dev.serviceTemplate.hasResourceProperties("AWS::CloudWatch::Alarm", {
        Namespace: "AWS/States",
        MetricName: metric,
        Dimensions: [{ Name: "StateMachineArn", Value: Match.anyValue() }],
        Threshold: 1,
        AlarmActions: Match.anyValue(),
      });
    }
  });

  it("publishes its ARN, the REST URL and the WebSocket URL as stack outputs", () => {
    const outputs = dev.serviceTemplate.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs)).toEqual(
      expect.arrayContaining(["StateMachineArn", "RestApiUrl", "WebSocketUrl"]),
    );
    expect(JSON.stringify(outputs.WebSocketUrl?.Value)).toContain("wss://");
  });
});

describe("runs that end outside the workflow's failure handler (dev)", () => {
  let dev: Synthesized;
  let finalize: string;
  let queue: string;
  beforeAll(() => {
    dev = synthesize();
    finalize = functionAccess(dev.serviceTemplate, "rewoo-finalize").logicalId;
    const queues = Object.keys(resourcesOf(dev.serviceTemplate, "AWS::SQS::Queue"));
    queue = queues.find((id) => id.startsWith("FinalizeDeadLetters")) as string;
  });

  it("sends this state machine's FAILED, TIMED_OUT and ABORTED status events to finalize, with bounded retries and a dead-letter queue", () => {
    // Two rules: this one, and the batch workflow's (test/infra/batch.test.ts).
    dev.serviceTemplate.resourceCountIs("AWS::Events::Rule", 2);
    dev.serviceTemplate.hasResourceProperties("AWS::Events::Rule", {
      State: "ENABLED",
      EventPattern: {
        source: ["aws.states"],
        "detail-type": ["Step Functions Execution Status Change"],
        detail: {
          stateMachineArn: [{ Ref: Match.stringLikeRegexp("^StateMachine") }],
          status: ["FAILED", "TIMED_OUT", "ABORTED"],
        },
      },
      Targets: [
        {
          Id: Match.anyValue(),
          Arn: { "Fn::GetAtt": [finalize, "Arn"] },
          // The event as delivered: finalize reads detail.executionArn, detail.status, …
          Input: Match.absent(),
          InputTransformer: Match.absent(),
          RetryPolicy: { MaximumRetryAttempts: 20, MaximumEventAgeInSeconds: 7200 },
          DeadLetterConfig: { Arn: { "Fn::GetAtt": [queue, "Arn"] } },
        },
      ],
    });
  });

  it("lets EventBridge, from this rule only, invoke finalize and write to the dead-letter queue", () => {
    const rule = Object.entries(resourcesOf(dev.serviceTemplate, "AWS::Events::Rule")).find(([, candidate]) =>
      JSON.stringify(candidate.Properties?.Targets).includes(finalize),
    )?.[0] as string;
    dev.serviceTemplate.hasResourceProperties("AWS::Lambda::Permission", {
      Action: "lambda:InvokeFunction",
      FunctionName: { "Fn::GetAtt": [finalize, "Arn"] },
      Principal: "events.amazonaws.com",
      SourceArn: { "Fn::GetAtt": [rule, "Arn"] },
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
          Match.objectLike({
            Effect: "Allow",
            Principal: { Service: "events.amazonaws.com" },
            Action: "sqs:SendMessage",
            Condition: { ArnEquals: { "aws:SourceArn": { "Fn::GetAtt": [rule, "Arn"] } } },
          }),
        ]),
      },
    });
  });

  it("keeps a failed asynchronous finalize invocation in the same encrypted queue, and alarms on its depth", () => {
    expect(resourcesOf(dev.serviceTemplate, "AWS::SQS::Queue")[queue]?.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    dev.serviceTemplate.hasResourceProperties("AWS::Lambda::EventInvokeConfig", {
      FunctionName: { Ref: finalize },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { "Fn::GetAtt": [queue, "Arn"] } } },
    });
    expect(functionAccess(dev.serviceTemplate, "rewoo-finalize").allowing("sqs:SendMessage")).toEqual([
      `<${queue}.Arn>`,
    ]);
    dev.serviceTemplate.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "AWS/SQS",
      MetricName: "ApproximateNumberOfMessagesVisible",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [queue, "QueueName"] } }],
      Threshold: 1,
      ComparisonOperator: "GreaterThanOrEqualToThreshold",
      AlarmActions: Match.anyValue(),
    });
  });

  it("gives finalize no other new access: the state machine still invokes it synchronously", () => {
    const actions = functionAccess(dev.serviceTemplate, "rewoo-finalize")
      .statements.flatMap((statement) =>
        Array.isArray(statement.Action) ? statement.Action : [statement.Action],
      )
      .filter(
        (action) => action.startsWith("sqs:") || action.startsWith("states:") || action.startsWith("events:"),
      );
    expect(actions.sort()).toEqual(["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"]);
  });
});

describe("workflow settings from the configuration", () => {
  it("takes the worker concurrency from context overrides", () => {
    const custom = synthesize({ context: { workerConcurrency: "3" } });
    expect(functionAccess(custom.serviceTemplate, "rewoo-planner").environment.REWOO_WORKER_CONCURRENCY).toBe(
      "3",
    );
    custom.serviceTemplate.hasResourceProperties("AWS::StepFunctions::StateMachine", {
      StateMachineType: "STANDARD",
    });
  });

  it("refuses an Express workflow: runs wait for people with task tokens, which Express does not support", () => {
    expect(() => synthesize({ context: { workflowType: "EXPRESS" } })).toThrow(
      /workflowType "EXPRESS": runs wait for answers and approvals with task tokens/,
    );
  });

  it("turns the plan cache on for the planner, as workflow.planCache says", () => {
    const env = functionAccess(synthesize().serviceTemplate, "rewoo-planner").environment;
    expect(env).toMatchObject({ REWOO_PLAN_CACHE: "on" });
  });

  it("passes the wait settings to the functions", () => {
    const dev = synthesize();
    const env = functionAccess(dev.serviceTemplate, "rewoo-planner").environment;
    expect(env).toMatchObject({
      REWOO_WAIT_SECONDS: "86400",
      REWOO_APPROVAL: "none",
      REWOO_CLARIFICATION: "ask",
    });
    expect(functionAccess(dev.serviceTemplate, "rewoo-api").environment).toMatchObject({
      REWOO_WAIT_SECONDS: "86400",
      REWOO_APPROVAL: "none",
    });
  });
});
