// The ReWOO workflow: its four functions (planner, worker, solver, finalize) with exactly the access
// each handler needs, the state machine of statemachine/rewoo.asl.json (the same file the local twin
// runs) and the EventBridge rule that closes runs whose execution ended outside the workflow.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Duration, Validations } from "aws-cdk-lib";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as s3 from "aws-cdk-lib/aws-s3";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Construct } from "constructs";
import { ENV } from "../../lambdas/contracts/environment.ts";
import { RUNS_BY_PROFILE_INDEX } from "../../lambdas/contracts/tables.ts";
import { effectiveFallbackModels } from "../config.ts";
import { DeadLetterQueue } from "./dead-letter-queue.ts";
import { REPO_ROOT } from "./defaults.ts";
import { executionEndedRule } from "./execution-ended-rule.ts";
import type { RewooFunction } from "./rewoo-function.ts";
import {
  definedList,
  documentReadPrefixes,
  type ServiceEnvironments,
  type ServiceFunctionContext,
  serviceFunction,
} from "./service-functions.ts";

export const ASL_FILE = join(REPO_ROOT, "statemachine/rewoo.asl.json");

/** Key prefixes of the artifacts bucket (the Data stack's EVIDENCE_PREFIX and RESULTS_PREFIX). */
export interface ArtifactPrefixes {
  readonly evidence: string;
  readonly results: string;
}

export interface WorkflowProps extends ServiceFunctionContext {
  readonly runsTable: dynamodb.ITable;
  readonly coreBankingTable: dynamodb.ITable;
  readonly documentsBucket: s3.IBucket;
  readonly artifactsBucket: s3.IBucket;
  readonly prefixes: ArtifactPrefixes;
  readonly environments: ServiceEnvironments;
}

export class Workflow extends Construct {
  readonly planner: RewooFunction;
  readonly worker: RewooFunction;
  readonly solver: RewooFunction;
  readonly finalize: RewooFunction;
  readonly stateMachine: sfn.StateMachine;
  /** Standard workflows only: the execution-ended rule's and finalize's failed deliveries. */
  readonly finalizeDeadLetters?: DeadLetterQueue;

  constructor(scope: Construct, id: string, props: WorkflowProps) {
    super(scope, id);
    const { config, environments, runsTable, documentsBucket, artifactsBucket, prefixes } = props;
    const { agent, resultDestinations } = environments;
    const fn = serviceFunction.bind(undefined, this, props);

    // Lambda timeouts sit below the ASL Task TimeoutSeconds (Plan/Solve 300, Work 180, Finalize 60)
    // so a slow invocation fails as a Lambda timeout the Retry/Catch understands, not a states timeout.
    const planner = fn(
      "Planner",
      "lambdas/planner/index.ts",
      {
        description: "ReWOO planner: one LLM call turns the request into a plan",
        memorySize: 1024,
        timeout: Duration.seconds(280),
      },
      agent,
    );
    const worker = fn(
      "Worker",
      "lambdas/worker/index.ts",
      // A full vCPU and room for PDF text extraction.
      {
        description: "ReWOO worker: runs one tool call of the plan",
        memorySize: 2048,
        timeout: Duration.seconds(170),
        reservedConcurrentExecutions: config.reservedConcurrency.worker,
      },
      // Only the worker reads documents, so only its bundle and environment know the OCR engine.
      {
        ...agent,
        [ENV.REWOO_OCR_ENGINE]: config.ocr.engine,
        [ENV.REWOO_OCR_MIN_CONFIDENCE]: String(config.ocr.minConfidence),
        [ENV.REWOO_TEXTRACT_SIGNATURES]: String(
          config.ocr.engine === "textract" && config.ocr.textractSignatures,
        ),
        [ENV.REWOO_TEXTRACT_FORMS]: String(
          config.ocr.engine === "textract" && config.ocr.textractForms === true,
        ),
      },
    );
    const solver = fn(
      "Solver",
      "lambdas/solver/index.ts",
      {
        description: "ReWOO solver: one LLM call reads all evidence and writes the result",
        memorySize: 1024,
        timeout: Duration.seconds(280),
      },
      agent,
    );
    const finalize = fn(
      "Finalize",
      "lambdas/finalize/index.ts",
      {
        description: "Closes a run: result, status, complete event",
        memorySize: 512,
        timeout: Duration.seconds(50),
      },
      { ...agent, ...resultDestinations },
    );
    this.planner = planner;
    this.worker = worker;
    this.solver = solver;
    this.finalize = finalize;

    planner
      .bindTable(runsTable, { access: "readWrite", envName: ENV.RUNS_TABLE })
      // Reads only: a transfer is checked against the customer's accounts and payees before it is confirmed.
      .bindTable(props.coreBankingTable, { access: "read", envName: ENV.CORE_BANKING_TABLE });
    worker
      .bindTable(runsTable, {
        access: "readWrite",
        envName: ENV.RUNS_TABLE,
        indexes: [RUNS_BY_PROFILE_INDEX],
      })
      .bindObjects(documentsBucket, { read: documentReadPrefixes(config) })
      .bindObjectLocations(config.documents.additionalLocations, "read")
      .bindObjects(artifactsBucket, { read: [prefixes.evidence], write: [prefixes.evidence] })
      // The banking tools run in the worker alone: no other function can move money.
      .bindTable(props.coreBankingTable, { access: "readWrite", envName: ENV.CORE_BANKING_TABLE });
    solver
      .bindTable(runsTable, { access: "readWrite", envName: ENV.RUNS_TABLE })
      .bindObjects(artifactsBucket, { read: [prefixes.evidence] });
    // Finalize writes a result only where no object is (If-None-Match), and reads whose an object
    // already there is (HeadObject; ListBucket so a missing key answers 404): its own, from a retry.
    finalize
      .bindTable(runsTable, { access: "readWrite", envName: ENV.RUNS_TABLE })
      .bindObjects(artifactsBucket, { read: [prefixes.results], write: [prefixes.results] })
      .bindObjectLocations(config.results.additionalDestinations, "read")
      .bindObjectLocations(config.results.additionalDestinations, "write");
    if (config.ocr.engine === "textract")
      worker.bindTextract({
        analysis: config.ocr.textractSignatures || config.ocr.textractForms === true,
      });
    if (config.lender.apiTokenSecretArn) {
      const lenderToken = secretsmanager.Secret.fromSecretCompleteArn(
        this,
        "LenderApiToken",
        config.lender.apiTokenSecretArn,
      );
      worker.bindSecret(lenderToken, ENV.LENDER_API_TOKEN_SECRET_ARN);
    }
    if (config.llm.provider === "bedrock") {
      // The planner reviews plans and the solver answers (ReviewPlan, ReviewResult) with the reviewer's model.
      const reviewerModel = config.llm.reviewerModel ?? config.llm.plannerModel;
      // Each role's fallback models are invoked by the same functions as its own model.
      const fallbacks = effectiveFallbackModels(config.llm);
      planner.bindModels([
        ...definedList(config.llm.plannerModel, reviewerModel),
        ...fallbacks.planner,
        ...fallbacks.reviewer,
      ]);
      solver.bindModels([
        ...definedList(config.llm.solverModel, reviewerModel),
        ...fallbacks.solver,
        ...fallbacks.reviewer,
      ]);
      worker.bindModels([...definedList(config.llm.toolModel ?? config.llm.solverModel), ...fallbacks.tool]);
      if (config.llm.guardrail) {
        for (const caller of [planner, solver, worker]) caller.bindGuardrail(config.llm.guardrail.id);
      }
    }

    if (config.llm.provider === "openai" && config.llm.openAiApiKeySecretArn) {
      // The model's callers (the planner and solver, whose reviewer runs in them too, and the worker's
      // `llm` tool) read the key at run time: GetSecretValue on exactly that secret, no DescribeSecret.
      const openAiKey = secretsmanager.Secret.fromSecretCompleteArn(
        this,
        "OpenAiApiKey",
        config.llm.openAiApiKeySecretArn,
      );
      for (const caller of [planner, solver, worker]) {
        caller.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ["secretsmanager:GetSecretValue"],
            resources: [openAiKey.secretArn],
          }),
        );
        // Its name, not the key.
        caller.addEnvironment(ENV.OPENAI_API_KEY_SECRET_ARN, openAiKey.secretArn);
      }
    }

    const workflowLogs = new logs.LogGroup(this, "StateMachineLogs", {
      retention: config.logRetention,
      encryptionKey: props.logsKey,
      removalPolicy: config.removalPolicy,
    });
    this.stateMachine = new sfn.StateMachine(this, "StateMachine", {
      // fromString, not fromFile: the definition stays in the template where assertions can read it.
      definitionBody: sfn.DefinitionBody.fromString(readFileSync(ASL_FILE, "utf8")),
      definitionSubstitutions: {
        PlannerFunctionArn: planner.functionArn,
        WorkerFunctionArn: worker.functionArn,
        SolverFunctionArn: solver.functionArn,
        FinalizeFunctionArn: finalize.functionArn,
      },
      stateMachineType:
        config.workflow.type === "EXPRESS" ? sfn.StateMachineType.EXPRESS : sfn.StateMachineType.STANDARD,
      tracingEnabled: true,
      // Evidence and borrower data travel in state inputs/outputs: never log them.
      logs: { destination: workflowLogs, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });
    // The ASL names plain function ARNs, which CDK cannot see through: grant exactly those.
    this.stateMachine.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["lambda:InvokeFunction"],
        resources: [planner, worker, solver, finalize].map((f) => f.functionArn),
      }),
    );
    Validations.of(this.stateMachine.role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "Only the CloudWatch Logs delivery actions (CreateLogDelivery, PutResourcePolicy, …) and X-Ray writes " +
        "that Step Functions logging and tracing need; none of them supports resource-level permissions.",
    });

    // Standard workflows only: Express executions send no status events to EventBridge. Delivery
    // is asynchronous; finalize must treat a run it already closed as done (HandleFailure's
    // failures arrive here too).
    if (config.workflow.type === "STANDARD") {
      const finalizeDeadLetters = new DeadLetterQueue(this, "FinalizeDeadLetters", {
        deadLettersOf: "the execution-ended rule's finalize target and finalize's asynchronous invocations",
        removalPolicy: config.removalPolicy,
      });
      this.finalizeDeadLetters = finalizeDeadLetters;
      executionEndedRule(this, "UnhandledExecutionEndRule", {
        description: "Closes the run of a ReWOO execution that ended outside the workflow's failure handler",
        stateMachine: this.stateMachine,
        target: finalize,
        deadLetters: finalizeDeadLetters,
      });
    }
  }
}
