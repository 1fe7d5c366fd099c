// Portfolio batches: the batch workflow (statemachine/batch.asl.json, the file the local twin runs), its
// function (the Distributed Map's item steps and the batch's bookkeeping), and the rule that records a
// batch stopped or timed out. The workflow's role may read only the batches' numbered manifests, write
// only their results, invoke only the batch function, start only evaluation executions (and its own
// child workflow executions), describe and stop only those, and manage the one EventBridge rule Step
// Functions uses to wait for a child execution (.sync).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ArnFormat, Duration, type RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as kms from "aws-cdk-lib/aws-kms";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as s3 from "aws-cdk-lib/aws-s3";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { flattenCfnReference } from "cdk-nag/lib/utils/flatten-cfn-reference.js";
import { Construct } from "constructs";
import { ENV } from "../../lambdas/contracts/environment.ts";
import { DeadLetterQueue } from "./dead-letter-queue.ts";
import { REPO_ROOT } from "./defaults.ts";
import { executionEndedRule } from "./execution-ended-rule.ts";
import { RewooFunction } from "./rewoo-function.ts";

export const BATCH_ASL_FILE = join(REPO_ROOT, "statemachine/batch.asl.json");
/** Where the API writes each batch's numbered manifest and the ResultWriter its results (lambdas/core/batch.ts). */
export const BATCHES_PREFIX = "batches/";
/** A manifest is a JSON Lines object: the API may read objects with this suffix, and no other document. */
export const MANIFEST_SUFFIX = ".jsonl";
/** The Distributed Map's Label in batch.asl.json: its child workflow executions are `<machine>/<label>:<id>`. */
const MAP_LABEL = "ProcessLines";

export interface BatchWorkflowProps {
  /** The evaluation workflow each line runs as a child execution. */
  readonly evaluation: sfn.StateMachine;
  readonly runsTable: dynamodb.ITable;
  readonly artifactsBucket: s3.IBucket;
  /** The configuration every function gets (tables, buckets, document and result locations, limits). */
  readonly environment: Record<string, string>;
  readonly logRetention: logs.RetentionDays;
  readonly logEncryptionKey: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
  readonly logLevel: string;
}

export class BatchWorkflow extends Construct {
  readonly function: RewooFunction;
  readonly stateMachine: sfn.StateMachine;
  readonly deadLetters: DeadLetterQueue;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: BatchWorkflowProps,
  ) {
    super(scope, id);
    const stack = Stack.of(this);
    // Named, so that the role's grants on the machine's own executions need not reference the
    // machine itself (which depends on the role).
    const stateMachineName = `${stack.stackName}-Batch`;
    const stateMachineArn = stack.formatArn({
      service: "states",
      resource: "stateMachine",
      resourceName: stateMachineName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    this.function = new RewooFunction(stack, "Batch", {
      entry: "lambdas/batch/index.ts",
      serviceName: "rewoo-batch",
      description: "Batches: creates and records each manifest line's run, records the batch's ending",
      memorySize: 512,
      // Below the ASL Tasks' TimeoutSeconds (60), so a slow invocation fails as a Lambda error.
      timeout: Duration.seconds(50),
      logRetention: props.logRetention,
      logEncryptionKey: props.logEncryptionKey,
      removalPolicy: props.removalPolicy,
      logLevel: props.logLevel,
      environment: props.environment,
    }).bindTable(props.runsTable, { access: "readWrite", envName: ENV.RUNS_TABLE });

    const logGroup = new logs.LogGroup(stack, "BatchStateMachineLogs", {
      retention: props.logRetention,
      encryptionKey: props.logEncryptionKey,
      removalPolicy: props.removalPolicy,
    });
    this.stateMachine = new sfn.StateMachine(stack, "BatchStateMachine", {
      stateMachineName,
      // fromString, not fromFile: the definition stays in the template where assertions can read it.
      definitionBody: sfn.DefinitionBody.fromString(readFileSync(BATCH_ASL_FILE, "utf8")),
      definitionSubstitutions: {
        BatchFunctionArn: this.function.functionArn,
        RewooStateMachineArn: props.evaluation.stateMachineArn,
      },
      stateMachineType: sfn.StateMachineType.STANDARD,
      tracingEnabled: true,
      // Lines carry borrowers' loan files: never log execution data.
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });

    const executionsOf = (machineName: string) =>
      stack.formatArn({
        service: "states",
        resource: "execution",
        resourceName: `${machineName}:*`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
    const grant = (actions: string[], resources: string[], whyWildcard?: string) => {
      this.stateMachine.addToRolePolicy(new iam.PolicyStatement({ actions, resources }));
      if (!whyWildcard) return;
      for (const resource of resources) {
        Validations.of(this.stateMachine.role).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(stack.resolve(resource))}]`,
          reason: whyWildcard,
        });
      }
    };
    // The ASL names a plain function ARN, which CDK cannot see through.
    grant(["lambda:InvokeFunction"], [this.function.functionArn]);
    // RunEvaluation (startExecution.sync:2): start an evaluation, follow it, stop it when the batch stops.
    grant(["states:StartExecution"], [props.evaluation.stateMachineArn]);
    grant(
      ["states:DescribeExecution", "states:StopExecution"],
      [executionsOf(props.evaluation.stateMachineName)],
      "Executions of the evaluation workflow; each is named after its run, created per manifest line.",
    );
    grant(
      ["events:PutTargets", "events:PutRule", "events:DescribeRule"],
      [
        stack.formatArn({
          service: "events",
          resource: "rule",
          resourceName: "StepFunctionsGetEventsForStepFunctionsExecutionRule",
        }),
      ],
    );
    // The Distributed Map's child workflow executions are executions of this machine.
    grant(["states:StartExecution"], [stateMachineArn]);
    grant(
      ["states:DescribeExecution", "states:StopExecution"],
      [executionsOf(`${stateMachineName}/${MAP_LABEL}`)],
      "The Distributed Map's child workflow executions (one per manifest line), named by Step Functions.",
    );
    // ItemReader: the numbered manifest the API wrote; ResultWriter: the results beside it.
    grant(
      ["s3:GetObject"],
      [props.artifactsBucket.arnForObjects(`${BATCHES_PREFIX}*/manifest.jsonl`)],
      "Each batch's numbered manifest, under a key named after the batch.",
    );
    grant(
      ["s3:PutObject", "s3:GetObject", "s3:ListMultipartUploadParts", "s3:AbortMultipartUpload"],
      [props.artifactsBucket.arnForObjects(`${BATCHES_PREFIX}*/results/*`)],
      "The Distributed Map's results of each batch, under a prefix named after the batch and its map run.",
    );
    Validations.of(this.stateMachine.role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "Only the CloudWatch Logs delivery actions (CreateLogDelivery, PutResourcePolicy, …) and X-Ray writes " +
        "that Step Functions logging and tracing need; none of them supports resource-level permissions.",
    });

    // A batch stopped, timed out, or failed where FailBatch could not record it: the batch function
    // records the ending (batches are closed exactly once, whoever comes first).
    this.deadLetters = new DeadLetterQueue(stack, "BatchEndedDeadLetters", {
      deadLettersOf: "the batch-ended rule's batch function target and its asynchronous invocations",
      removalPolicy: props.removalPolicy,
    });
    executionEndedRule(stack, "BatchEndedRule", {
      description: "Records the ending of a batch execution that no state of the batch workflow recorded",
      stateMachine: this.stateMachine,
      target: this.function,
      deadLetters: this.deadLetters,
    });
  }

  /**
   * What the REST API needs to create batches: read manifests (JSON Lines objects, `.jsonl`, in the
   * document locations: never the documents themselves), write each batch's numbered copy, start this
   * workflow.
   */
  grantCreateBatches(
    api: RewooFunction,
    locations: {
      documentsBucket: s3.IBucket;
      documentPrefixes: readonly string[];
      additional: readonly string[];
    },
  ): void {
    const stack = Stack.of(this);
    const additional = locations.additional.map((location) => {
      const [bucket, ...rest] = location.split("/");
      return `arn:${stack.partition}:s3:::${bucket}/${rest.join("/")}*${MANIFEST_SUFFIX}`;
    });
    const manifests = [
      ...(locations.documentPrefixes.length ? locations.documentPrefixes : [""]).map((prefix) =>
        locations.documentsBucket.arnForObjects(`${prefix}*${MANIFEST_SUFFIX}`),
      ),
      ...additional,
    ];
    const numbered = this.props.artifactsBucket.arnForObjects(`${BATCHES_PREFIX}*/manifest.jsonl`);
    api.addToRolePolicy(new iam.PolicyStatement({ actions: ["s3:GetObject"], resources: manifests }));
    api.addToRolePolicy(new iam.PolicyStatement({ actions: ["s3:PutObject"], resources: [numbered] }));
    for (const resource of [...manifests, numbered]) {
      Validations.of(api.role as iam.Role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(stack.resolve(resource))}]`,
        reason:
          "Batch manifests: JSON Lines objects (.jsonl) a caller names in the document locations, and each " +
          "batch's numbered copy under a key named after the batch.",
      });
    }
    api.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["states:StartExecution"],
        resources: [this.stateMachine.stateMachineArn],
      }),
    );
    api.addEnvironment(ENV.BATCH_STATE_MACHINE_ARN, this.stateMachine.stateMachineArn);
  }
}
