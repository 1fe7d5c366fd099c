// The batch workflow as deployed: statemachine/batch.asl.json itself (the file the twin runs), wired to the
// batch function and the evaluation workflow, with a role that can do exactly what a Distributed Map of
// child evaluations needs, and the rule that records stopped batches.
import { readFileSync } from "node:fs";
import aslValidator from "asl-validator";
import type { CfnElement } from "aws-cdk-lib";
import { Match } from "aws-cdk-lib/assertions";
import { flattenCfnReference } from "cdk-nag/lib/utils/flatten-cfn-reference.js";
import { beforeAll, describe, expect, it } from "vitest";
import { BATCH_ASL_FILE } from "../../infra/constructs/batch-workflow.ts";
import {
  actionsOf,
  type Cfn,
  functionAccess,
  resourcesOf,
  resourcesOfStatement,
  type Statement,
  type Synthesized,
  statementsOfRole,
  synthesize,
} from "./synth.ts";

const aslText = readFileSync(BATCH_ASL_FILE, "utf8");
const asl = JSON.parse(aslText);

describe("the batch workflow (dev)", () => {
  let dev: Synthesized;
  let machine: Cfn;
  let machineId: string;
  let evaluationId: string;
  let statements: Statement[];

  beforeAll(() => {
    dev = synthesize();
    const logicalId = (element: unknown) => dev.service.getLogicalId(element as CfnElement);
    machineId = logicalId(dev.service.batches.stateMachine.node.defaultChild);
    evaluationId = logicalId(dev.service.stateMachine.node.defaultChild);
    machine = resourcesOf(dev.serviceTemplate, "AWS::StepFunctions::StateMachine")[machineId]
      ?.Properties as Cfn;
    const roleId = (machine.RoleArn as { "Fn::GetAtt": [string] })["Fn::GetAtt"][0];
    statements = statementsOfRole(dev.serviceTemplate, roleId);
  });

  const allowing = (action: string) =>
    statements
      .filter((statement) => actionsOf(statement).includes(action))
      .flatMap(resourcesOfStatement)
      .map((resource) => flattenCfnReference(resource));

  it("deploys batch.asl.json byte for byte, wired to the batch function and the evaluation workflow", () => {
    expect(machine.DefinitionString).toBe(aslText);
    expect(machine.DefinitionSubstitutions).toEqual({
      BatchFunctionArn: {
        "Fn::GetAtt": [functionAccess(dev.serviceTemplate, "rewoo-batch").logicalId, "Arn"],
      },
      RewooStateMachineArn: { Ref: evaluationId },
    });
    const placeholders = new Set(aslText.match(/\$\{(\w+)\}/g)?.map((p) => p.slice(2, -1)));
    expect([...placeholders].sort()).toEqual(Object.keys(machine.DefinitionSubstitutions).sort());
    const arns: Record<string, string> = {
      BatchFunctionArn: "arn:aws:lambda:eu-west-1:111122223333:function:rewoo-batch",
      RewooStateMachineArn: "arn:aws:states:eu-west-1:111122223333:stateMachine:rewoo",
    };
    const filled = aslText.replace(/\$\{(\w+)\}/g, (_match, name: string) => arns[name] ?? "");
    const validation = aslValidator(JSON.parse(filled), { checkPaths: true, checkArn: true });
    expect(validation.errors).toEqual([]);
  });

  it("is a Standard workflow named after its stack, with X-Ray and ALL-level logs without execution data", () => {
    expect(machine.StateMachineType).toBe("STANDARD");
    expect(machine.StateMachineName).toBe("Rewoo-dev-Service-Batch");
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
    expect(machine.LoggingConfiguration).toMatchObject({ Level: "ALL", IncludeExecutionData: false });
  });

  it("runs each line as a child workflow of a Distributed Map, configured per batch from its input", () => {
    const map = asl.States.ProcessLines;
    expect(map.ItemProcessor.ProcessorConfig).toEqual({ Mode: "DISTRIBUTED", ExecutionType: "STANDARD" });
    expect(map.ItemReader).toEqual({
      Resource: "arn:aws:states:::s3:getObject",
      ReaderConfig: { InputType: "JSONL" },
      Parameters: { "Bucket.$": "$.manifest.bucket", "Key.$": "$.manifest.key" },
    });
    expect(map.MaxConcurrencyPath).toBe("$.max_concurrency");
    expect(map.ToleratedFailurePercentagePath).toBe("$.tolerated_failure_percentage");
    expect(map.ResultWriter.Resource).toBe("arn:aws:states:::s3:putObject");
    expect(map.ItemProcessor.States.RunEvaluation.Resource).toBe(
      "arn:aws:states:::states:startExecution.sync:2",
    );
    expect(map.Label).toBe("ProcessLines");
  });

  it("may invoke only the batch function, start only evaluations and its own child workflows", () => {
    expect(allowing("lambda:InvokeFunction")).toEqual([
      `<${functionAccess(dev.serviceTemplate, "rewoo-batch").logicalId}.Arn>`,
    ]);
    expect(allowing("states:StartExecution").sort()).toEqual(
      [
        `<${evaluationId}>`,
        "arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:stateMachine:Rewoo-dev-Service-Batch",
      ].sort(),
    );
    for (const action of ["states:DescribeExecution", "states:StopExecution"]) {
      expect(allowing(action).sort(), action).toEqual(
        [
          `arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:<${evaluationId}.Name>:*`,
          "arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:Rewoo-dev-Service-Batch/ProcessLines:*",
        ].sort(),
      );
    }
  });

  it("manages only the EventBridge rule Step Functions uses to follow child executions (.sync)", () => {
    for (const action of ["events:PutTargets", "events:PutRule", "events:DescribeRule"]) {
      expect(allowing(action), action).toEqual([
        "arn:<AWS::Partition>:events:<AWS::Region>:<AWS::AccountId>:rule/StepFunctionsGetEventsForStepFunctionsExecutionRule",
      ]);
    }
  });

  it("reads only the batches' numbered manifests and writes only their results", () => {
    expect(allowing("s3:GetObject").sort()).toEqual([
      "Rewoo-dev-Data-ArtifactsBucketArn/batches/*/manifest.jsonl",
      "Rewoo-dev-Data-ArtifactsBucketArn/batches/*/results/*",
    ]);
    for (const action of ["s3:PutObject", "s3:ListMultipartUploadParts", "s3:AbortMultipartUpload"]) {
      expect(allowing(action), action).toEqual(["Rewoo-dev-Data-ArtifactsBucketArn/batches/*/results/*"]);
    }
    const everyAction = new Set(statements.flatMap(actionsOf));
    expect([...everyAction].filter((action) => action.startsWith("s3:")).sort()).toEqual([
      "s3:AbortMultipartUpload",
      "s3:GetObject",
      "s3:ListMultipartUploadParts",
      "s3:PutObject",
    ]);
    expect([...everyAction].some((action) => action.startsWith("dynamodb:"))).toBe(false);
  });

  it("gives the batch function the runs table and the request policies, and nothing to read or start", () => {
    const batch = functionAccess(dev.serviceTemplate, "rewoo-batch");
    expect(batch.allowing("dynamodb:PutItem")).toHaveLength(1);
    expect(batch.allowing("s3:GetObject")).toEqual([]);
    expect(batch.allowing("states:StartExecution")).toEqual([]);
    const api = functionAccess(dev.serviceTemplate, "rewoo-api");
    for (const name of ["ALLOWED_DOCUMENT_PREFIXES", "ALLOWED_RESULT_DESTINATIONS", "DOCUMENTS_BUCKET"]) {
      expect(batch.environment[name], name).toEqual(api.environment[name]);
    }
    // Below the ASL Tasks' TimeoutSeconds, so a slow invocation fails as a Lambda error Retry understands.
    expect(batch.properties.Timeout).toBeLessThan(asl.States.FinishBatch.TimeoutSeconds);
    expect(batch.properties.Timeout).toBeLessThan(
      asl.States.ProcessLines.ItemProcessor.States.StartLine.TimeoutSeconds,
    );
    expect(api.environment.BATCH_STATE_MACHINE_ARN).toEqual({ Ref: machineId });
  });

  it("records stopped and timed-out batches through EventBridge, with bounded retries and a dead-letter queue", () => {
    const batch = functionAccess(dev.serviceTemplate, "rewoo-batch").logicalId;
    dev.serviceTemplate.hasResourceProperties("AWS::Events::Rule", {
      EventPattern: {
        source: ["aws.states"],
        "detail-type": ["Step Functions Execution Status Change"],
        detail: { stateMachineArn: [{ Ref: machineId }], status: ["FAILED", "TIMED_OUT", "ABORTED"] },
      },
      Targets: [
        Match.objectLike({
          Arn: { "Fn::GetAtt": [batch, "Arn"] },
          RetryPolicy: { MaximumRetryAttempts: 20, MaximumEventAgeInSeconds: 7200 },
          DeadLetterConfig: {
            Arn: { "Fn::GetAtt": [Match.stringLikeRegexp("^BatchEndedDeadLetters"), "Arn"] },
          },
        }),
      ],
    });
  });

  it("alarms on failed and timed-out batches", () => {
    for (const metric of ["ExecutionsFailed", "ExecutionsTimedOut"]) {
      dev.serviceTemplate.hasResourceProperties("AWS::CloudWatch::Alarm", {
        Namespace: "AWS/States",
        MetricName: metric,
        Dimensions: [{ Name: "StateMachineArn", Value: { Ref: machineId } }],
      });
    }
  });
});
