// Everything stateless: the functions, the workflow (statemachine/rewoo.asl.json, the same file the
// local twin runs), the rule that closes runs the workflow could not close itself, the REST API for
// loan systems, the WebSocket API for dashboards with its stream-fed live delivery, and alarms.
// Every function starts with no access and is bound to exactly what its handler touches.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Aws, CfnOutput, Duration, Stack, type StackProps, Validations } from "aws-cdk-lib";
import * as apigateway from "aws-cdk-lib/aws-apigateway";
import * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import { WebSocketLambdaAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { WebSocketLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as kms from "aws-cdk-lib/aws-kms";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { SqsDestination } from "aws-cdk-lib/aws-lambda-destinations";
import { SqsDlq } from "aws-cdk-lib/aws-lambda-event-sources";
import * as logs from "aws-cdk-lib/aws-logs";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import * as wafv2 from "aws-cdk-lib/aws-wafv2";
import type { Construct } from "constructs";
import { ENV } from "../../lambdas/contracts/environment.ts";
import { EXECUTION_ENDED_PATTERN, PUSH_STREAM_FILTERS } from "../../lambdas/contracts/event-patterns.ts";
import {
  type BodyContract,
  pathParametersOf,
  REST_METHODS,
  WEBSOCKET_ROUTE_KEYS,
  WEBSOCKET_ROUTE_SELECTION_EXPRESSION,
  WEBSOCKET_ROUTES,
  type WebSocketRouteKey,
} from "../../lambdas/contracts/routes.ts";
import { RUNS_BY_DAY_INDEX, RUNS_BY_PROFILE_INDEX } from "../../lambdas/contracts/tables.ts";
import type { RewooConfig } from "../config.ts";
import { Alarms } from "../constructs/alarms.ts";
import { ApiGatewayAccountLogging } from "../constructs/api-gateway-account-logging.ts";
import { BatchWorkflow } from "../constructs/batch-workflow.ts";
import { DeadLetterQueue } from "../constructs/dead-letter-queue.ts";
import {
  API_INTEGRATION_TIMEOUT,
  REPO_ROOT,
  restStageDefaults,
  webSocketAccessLogFormat,
} from "../constructs/defaults.ts";
import { RewooFunction, type RewooFunctionProps } from "../constructs/rewoo-function.ts";
import { type DataStack, EVIDENCE_PREFIX, RESULTS_PREFIX } from "./data-stack.ts";

export const ASL_FILE = join(REPO_ROOT, "statemachine/rewoo.asl.json");

export interface ServiceStackProps extends StackProps {
  readonly config: RewooConfig;
  readonly data: DataStack;
}

export class ServiceStack extends Stack {
  readonly functions: Record<
    "planner" | "worker" | "solver" | "finalize" | "api" | "websocket" | "authorizer" | "push" | "batch",
    RewooFunction
  >;
  readonly stateMachine: sfn.StateMachine;
  readonly batches: BatchWorkflow;
  readonly restApi: apigateway.RestApi;
  readonly webSocketApi: apigwv2.WebSocketApi;
  readonly webSocketStage: apigwv2.WebSocketStage;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { config, data } = props;
    const stageName = config.name;
    this.addStackDependency(data, "buckets are referenced through the data stack's exports");
    const documentsBucket = data.importBucket(this, "Documents");
    const artifactsBucket = data.importBucket(this, "Artifacts");

    const fn = (
      name: string,
      entry: string,
      sizing: Pick<
        RewooFunctionProps,
        "memorySize" | "timeout" | "description" | "reservedConcurrentExecutions"
      >,
      environment: Record<string, string>,
    ) =>
      new RewooFunction(this, name, {
        entry,
        serviceName: `rewoo-${name.toLowerCase()}`,
        logRetention: config.logRetention,
        logEncryptionKey: data.logsKey,
        removalPolicy: config.removalPolicy,
        logLevel: config.logLevel,
        ...sizing,
        environment,
      });

    // lambdas/runtime/config.ts requires these names in every function; names are not access.
    const documentLocations = config.documents.allowedPrefixes.length
      ? config.documents.allowedPrefixes.map((prefix) => `${documentsBucket.bucketName}/${prefix}`)
      : [documentsBucket.bucketName];
    const base = {
      [ENV.RUNS_TABLE]: data.runsTable.tableName,
      [ENV.DOCUMENTS_BUCKET]: documentsBucket.bucketName,
      [ENV.ARTIFACTS_BUCKET]: artifactsBucket.bucketName,
      [ENV.ALLOWED_DOCUMENT_PREFIXES]: [...documentLocations, ...config.documents.additionalLocations].join(
        ",",
      ),
      [ENV.REWOO_MAX_STEPS]: String(config.workflow.maxSteps),
      [ENV.REWOO_MAX_REPLANS]: String(config.workflow.maxReplans),
      [ENV.REWOO_REVIEW_THRESHOLD]: String(config.workflow.reviewThreshold),
      [ENV.REWOO_WAIT_SECONDS]: String(config.workflow.waitSeconds),
      [ENV.REWOO_APPROVAL]: config.workflow.approvalRequired ? "required" : "none",
      [ENV.REWOO_CLARIFICATION]: config.workflow.clarification ? "ask" : "never",
    };
    // Where a request's output_destination may point: checked by the API when it accepts a run,
    // and again by finalize, the only writer, which holds s3:PutObject on exactly these.
    const resultDestinations = {
      [ENV.ALLOWED_RESULT_DESTINATIONS]: [
        `${artifactsBucket.bucketName}/${RESULTS_PREFIX}`,
        ...config.results.additionalDestinations,
      ].join(","),
    };
    // The four workflow functions share one services() configuration, so they agree on the tool
    // catalog, the providers and the limits; only their grants differ.
    const agent = {
      ...base,
      [ENV.REWOO_LLM_PROVIDER]: config.llm.provider,
      // The planner turns this into the RunSteps Map's MaxConcurrencyPath value.
      [ENV.REWOO_WORKER_CONCURRENCY]: String(config.workflow.workerConcurrency),
      ...definedEnv({
        [ENV.REWOO_PLANNER_MODEL]: config.llm.plannerModel,
        [ENV.REWOO_SOLVER_MODEL]: config.llm.solverModel,
        [ENV.REWOO_TOOL_MODEL]: config.llm.toolModel,
        [ENV.REWOO_REVIEWER_MODEL]: config.llm.reviewerModel,
        [ENV.PRECONDITIONS_API_URL]: config.lender.preconditionsApiUrl,
        [ENV.CONDITIONS_AI_API_URL]: config.lender.conditionsAiApiUrl,
      }),
    };

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

    planner.bindTable(data.runsTable, { access: "readWrite", envName: ENV.RUNS_TABLE });
    worker
      .bindTable(data.runsTable, {
        access: "readWrite",
        envName: ENV.RUNS_TABLE,
        indexes: [RUNS_BY_PROFILE_INDEX],
      })
      .bindObjects(documentsBucket, {
        read: config.documents.allowedPrefixes.length ? config.documents.allowedPrefixes : [""],
      })
      .bindObjectLocations(config.documents.additionalLocations, "read")
      .bindObjects(artifactsBucket, { read: [EVIDENCE_PREFIX], write: [EVIDENCE_PREFIX] })
      // The banking tools run in the worker alone: no other function can read or move money.
      .bindTable(data.coreBankingTable, { access: "readWrite", envName: ENV.CORE_BANKING_TABLE });
    solver
      .bindTable(data.runsTable, { access: "readWrite", envName: ENV.RUNS_TABLE })
      .bindObjects(artifactsBucket, { read: [EVIDENCE_PREFIX] });
    finalize
      .bindTable(data.runsTable, { access: "readWrite", envName: ENV.RUNS_TABLE })
      .bindObjects(artifactsBucket, { write: [RESULTS_PREFIX] })
      .bindObjectLocations(config.results.additionalDestinations, "write");
    if (config.ocr.engine === "textract") worker.bindTextract();
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
      planner.bindModels(definedList(config.llm.plannerModel, reviewerModel));
      solver.bindModels(definedList(config.llm.solverModel, reviewerModel));
      worker.bindModels(definedList(config.llm.toolModel ?? config.llm.solverModel));
    }

    // ---- Workflow ------------------------------------------------------------------------------
    const workflowLogs = new logs.LogGroup(this, "StateMachineLogs", {
      retention: config.logRetention,
      encryptionKey: data.logsKey,
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
    let finalizeDeadLetters: DeadLetterQueue | undefined;
    if (config.workflow.type === "STANDARD") {
      finalizeDeadLetters = new DeadLetterQueue(this, "FinalizeDeadLetters", {
        deadLettersOf: "the execution-ended rule's finalize target and finalize's asynchronous invocations",
        removalPolicy: config.removalPolicy,
      });
      new events.Rule(this, "UnhandledExecutionEndRule", {
        description: "Closes the run of a ReWOO execution that ended outside the workflow's failure handler",
        // The same pattern the local twin's event bus applies, narrowed to this state machine.
        eventPattern: {
          source: [...EXECUTION_ENDED_PATTERN.source],
          detailType: [...EXECUTION_ENDED_PATTERN["detail-type"]],
          detail: {
            stateMachineArn: [this.stateMachine.stateMachineArn],
            status: [...EXECUTION_ENDED_PATTERN.detail.status],
          },
        },
        targets: [
          new targets.LambdaFunction(finalize, {
            // EventBridge retries delivery (throttling, a service error) with backoff; an event
            // still undelivered after two hours waits in the queue, whose alarm calls a person.
            retryAttempts: 20,
            maxEventAge: Duration.hours(2),
            deadLetterQueue: finalizeDeadLetters,
          }),
        ],
      });
      // EventBridge invokes asynchronously: a delivered event whose finalize invocation fails
      // (after Lambda's own two retries) lands in the same queue instead of vanishing.
      finalize.configureAsyncInvoke({
        retryAttempts: 2,
        maxEventAge: Duration.hours(2),
        onFailure: new SqsDestination(finalizeDeadLetters),
      });
    }

    // ---- Portfolio batches (statemachine/batch.asl.json: a Distributed Map of evaluations) -------
    this.batches = new BatchWorkflow(this, "Batches", {
      evaluation: this.stateMachine,
      runsTable: data.runsTable,
      artifactsBucket,
      // Lines are validated exactly as the API validates requests: the same locations and limits.
      environment: { ...base, ...resultDestinations },
      logRetention: config.logRetention,
      logEncryptionKey: data.logsKey,
      removalPolicy: config.removalPolicy,
      logLevel: config.logLevel,
    });

    // ---- WebSocket API (dashboards) ------------------------------------------------------------
    const authorizer = fn(
      "Authorizer",
      "lambdas/ws/authorizer.ts",
      {
        description: "WebSocket $connect authorizer: checks the subscribe/operator token",
        memorySize: 256,
        timeout: Duration.seconds(10),
      },
      base,
    ).bindSecret(data.tokenSecret, ENV.REWOO_TOKEN_SECRET_ARN);
    const websocket = fn(
      "WebSocket",
      "lambdas/ws/index.ts",
      {
        description: "WebSocket routes: connect, disconnect, subscribe (replays stored events)",
        memorySize: 512,
        timeout: Duration.seconds(28),
      },
      base,
    );

    // The routes are lambdas/contracts/routes.ts: one integration per route, named after its operation.
    const webSocketRoute = (key: WebSocketRouteKey): apigwv2.WebSocketRouteOptions => {
      const { operation, auth } = WEBSOCKET_ROUTES[key];
      if (auth === "token" && key !== "$connect") {
        throw new Error(
          `WebSocket route ${key}: auth "token" is only possible on $connect (API Gateway authorizes connections, not messages)`,
        );
      }
      const integrationId = `${operation.charAt(0).toUpperCase()}${operation.slice(1)}Integration`;
      return {
        integration: new WebSocketLambdaIntegration(integrationId, websocket),
        ...(auth === "token"
          ? {
              // Browsers cannot set headers on a WebSocket handshake: the token is a query parameter.
              authorizer: new WebSocketLambdaAuthorizer("TokenAuthorizer", authorizer, {
                identitySource: ["route.request.querystring.token"],
              }),
            }
          : {}),
      };
    };
    this.webSocketApi = new apigwv2.WebSocketApi(this, "WebSocketApi", {
      description: `ReWOO run progress (${config.name})`,
      routeSelectionExpression: WEBSOCKET_ROUTE_SELECTION_EXPRESSION,
      connectRouteOptions: webSocketRoute("$connect"),
      disconnectRouteOptions: webSocketRoute("$disconnect"),
      defaultRouteOptions: webSocketRoute("$default"),
    });
    for (const key of WEBSOCKET_ROUTE_KEYS) {
      if (!key.startsWith("$")) this.webSocketApi.addRoute(key, webSocketRoute(key));
      if (WEBSOCKET_ROUTES[key].auth !== "none") continue;
      Validations.of(this.webSocketApi.node.findChild(`${key}-Route`)).acknowledge({
        id: "AwsSolutions-APIG4",
        reason:
          "WebSocket APIs authorize at $connect only (the token authorizer); later routes run on that " +
          "authorized connection and check the connection's scope before subscribing it to a run.",
      });
    }

    const webSocketAccessLogs = new logs.LogGroup(this, "WebSocketAccessLogs", {
      retention: config.logRetention,
      encryptionKey: data.logsKey,
      removalPolicy: config.removalPolicy,
    });
    this.webSocketStage = new apigwv2.WebSocketStage(this, "WebSocketStage", {
      webSocketApi: this.webSocketApi,
      stageName,
      autoDeploy: true,
      throttle: config.api.throttle,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(webSocketAccessLogs),
        format: webSocketAccessLogFormat,
      },
    });
    const webSocketUrl = `wss://${this.webSocketApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${stageName}`;

    // Subscribe replays a run's stored events to the new subscriber itself.
    websocket
      .bindTable(data.runsTable, { access: "read", envName: ENV.RUNS_TABLE })
      .bindWebSocketPush(this.webSocketStage, data.connectionsTable, { access: "readWrite" });

    // Live delivery, off the workflow's critical path: publishers only write EVENT# items, and the
    // runs table's stream hands each new one to Push, which drains it to the run's connections.
    // A failed push is not lost: the connection's cursor stays put and the next event (or a
    // resubscribe) delivers everything after it.
    const pushDeadLetters = new DeadLetterQueue(this, "PushDeadLetters", {
      deadLettersOf: "the runs-table stream consumer (Push)",
      removalPolicy: config.removalPolicy,
    });
    const push = fn(
      "Push",
      "lambdas/ws/stream.ts",
      {
        description:
          "Live delivery: pushes new progress events from the runs table's stream to WebSocket subscribers",
        memorySize: 512,
        timeout: Duration.seconds(60),
      },
      base,
    )
      .bindTable(data.runsTable, { access: "read", envName: ENV.RUNS_TABLE })
      .bindWebSocketPush(this.webSocketStage, data.connectionsTable, { access: "readUpdate" })
      .bindTableStream(data.runsTable, {
        // New events only: whatever happened before a deployment is replayed by subscribe.
        startingPosition: lambda.StartingPosition.LATEST,
        // The handler's own patterns (new EVENT# items), which the local twin's stream applies too.
        filters: PUSH_STREAM_FILTERS.map((pattern) => ({ pattern: JSON.stringify(pattern) })),
        // Dashboards wait on this: small batches, no batching window.
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(0),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        // A record that still fails is skipped rather than holding back its shard's later events.
        retryAttempts: 3,
        maxRecordAge: Duration.minutes(5),
        onFailure: new SqsDlq(pushDeadLetters),
      });

    // ---- REST API (loan systems) ---------------------------------------------------------------
    const api = fn(
      "Api",
      "lambdas/api/index.ts",
      {
        description: "REST API: start, read, cancel and resume runs; answer and approve waiting runs",
        memorySize: 1024,
        timeout: API_INTEGRATION_TIMEOUT,
        reservedConcurrentExecutions: config.reservedConcurrency.api,
      },
      { ...base, ...resultDestinations, [ENV.WEBSOCKET_URL]: webSocketUrl },
    );
    api
      .bindTable(data.runsTable, {
        access: "readWrite",
        envName: ENV.RUNS_TABLE,
        indexes: [RUNS_BY_DAY_INDEX],
      })
      .bindStateMachine(this.stateMachine)
      .bindTaskResponses()
      .bindSecret(data.tokenSecret, ENV.REWOO_TOKEN_SECRET_ARN);
    // POST /v1/batches reads a manifest where documents may be, and writes the batch's numbered copy.
    this.batches.grantCreateBatches(api, {
      documentsBucket,
      documentPrefixes: config.documents.allowedPrefixes,
      additional: config.documents.additionalLocations,
    });

    this.restApi = this.buildRestApi(config, api, data.logsKey);
    // Built from the API id and the literal stage name: the stage itself depends on the function.
    api.addEnvironment(
      ENV.PUBLIC_API_URL,
      `https://${this.restApi.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${stageName}`,
    );

    if (config.api.createAccountLogRole) {
      const accountLogging = new ApiGatewayAccountLogging(this, "ApiGatewayAccountLogging");
      this.restApi.deploymentStage.node.addDependency(accountLogging.account);
      this.webSocketStage.node.addDependency(accountLogging.account);
    }
    // WebSocket execution logs (errors only, never message bodies); WebSocketStage has no prop for it.
    const cfnWebSocketStage = this.webSocketStage.node.defaultChild as apigwv2.CfnStage;
    cfnWebSocketStage.addPropertyOverride("DefaultRouteSettings.LoggingLevel", "ERROR");
    cfnWebSocketStage.addPropertyOverride("DefaultRouteSettings.DataTraceEnabled", false);

    this.functions = {
      planner,
      worker,
      solver,
      finalize,
      api,
      websocket,
      authorizer,
      push,
      batch: this.batches.function,
    };

    // ---- Alarms --------------------------------------------------------------------------------
    const alarms = new Alarms(this, "Alarms", {
      topicArn: config.alarms.topicArn,
      removalPolicy: config.removalPolicy,
    });
    alarms.onAny("ExecutionsFailed", this.stateMachine.metricFailed(), "A ReWOO run failed");
    alarms.onAny(
      "ExecutionsTimedOut",
      this.stateMachine.metricTimedOut(),
      "A ReWOO run hit the state machine timeout",
    );
    alarms.onAny(
      "ExecutionsThrottled",
      this.stateMachine.metricThrottled(),
      "Step Functions throttled ReWOO executions",
    );
    for (const [name, f] of Object.entries(this.functions)) {
      alarms.onAny(`${name}Errors`, f.metricErrors(), `The ${name} function raised errors`);
    }
    for (const [name, f] of Object.entries({ worker, api })) {
      alarms.onAny(
        `${name}Throttles`,
        f.metricThrottles(),
        `The ${name} function reached its reserved concurrency (reservedConcurrency.${name})`,
      );
    }
    alarms.onAny("BatchesFailed", this.batches.stateMachine.metricFailed(), "A batch failed");
    alarms.onAny("BatchesTimedOut", this.batches.stateMachine.metricTimedOut(), "A batch hit its time limit");
    alarms.onAny(
      "BatchEndedDeadLetters",
      this.batches.deadLetters.metricApproximateNumberOfMessagesVisible(),
      "A batch's ending could not be recorded: its event waits in the dead-letter queue",
    );
    alarms.onAny("RestApi5xx", this.restApi.metricServerError(), "The REST API answered 5xx");
    if (finalizeDeadLetters) {
      alarms.onAny(
        "FinalizeDeadLetters",
        finalizeDeadLetters.metricApproximateNumberOfMessagesVisible(),
        "An ended execution's run could not be closed by finalize: its event waits in the dead-letter queue",
      );
    }
    alarms.onAny(
      "PushDeadLetters",
      pushDeadLetters.metricApproximateNumberOfMessagesVisible(),
      "Live delivery skipped stream records after its retries: they wait in the dead-letter queue",
    );
    alarms.onAny(
      "PushIteratorAge",
      push.metric("IteratorAge", { statistic: cloudwatch.Stats.MAXIMUM }),
      "Live delivery lags the runs table's stream by a minute or more",
      60_000,
    );

    // ---- Outputs -------------------------------------------------------------------------------
    new CfnOutput(this, "RestApiUrl", { value: this.restApi.url, description: "REST API base URL (SigV4)" });
    new CfnOutput(this, "WebSocketUrl", { value: webSocketUrl, description: "WebSocket URL (?token=…)" });
    new CfnOutput(this, "StateMachineArn", { value: this.stateMachine.stateMachineArn });
    new CfnOutput(this, "BatchStateMachineArn", { value: this.batches.stateMachine.stateMachineArn });
    new CfnOutput(this, "DocumentsBucketName", { value: documentsBucket.bucketName });
    new CfnOutput(this, "ArtifactsBucketName", { value: artifactsBucket.bucketName });
    new CfnOutput(this, "TokenSecretArn", {
      value: data.tokenSecret.secretArn,
      description: "HMAC key for subscribe/operator tokens",
    });
  }

  private buildRestApi(
    config: RewooConfig,
    handler: RewooFunction,
    logEncryptionKey: kms.IKey,
  ): apigateway.RestApi {
    const accessLogs = new logs.LogGroup(this, "RestApiAccessLogs", {
      retention: config.logRetention,
      encryptionKey: logEncryptionKey,
      removalPolicy: config.removalPolicy,
    });
    const iamAuth = config.api.authorization === "iam";
    const api = new apigateway.RestApi(this, "RestApi", {
      description: `ReWOO loan-conditions agent (${config.name})`,
      endpointConfiguration: { types: [apigateway.EndpointType.REGIONAL] },
      // The account's logging role is handled by ApiGatewayAccountLogging (shared with WebSocket).
      cloudWatchRole: false,
      deployOptions: {
        ...restStageDefaults,
        stageName: config.name,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        throttlingRateLimit: config.api.throttle.rateLimit,
        throttlingBurstLimit: config.api.throttle.burstLimit,
      },
      defaultMethodOptions: iamAuth
        ? { authorizationType: apigateway.AuthorizationType.IAM }
        : { authorizationType: apigateway.AuthorizationType.NONE, apiKeyRequired: true },
    });

    // RestApi adds its own URL output; RestApiUrl below is the one documented.
    api.node.tryRemoveChild("Endpoint");

    const integration = new apigateway.LambdaIntegration(handler, {
      proxy: true,
      // One invoke permission for the whole API instead of one per method and test stage.
      scopePermissionToMethod: false,
    });
    const validator = new apigateway.RequestValidator(this, "RequestValidator", {
      restApi: api,
      validateRequestBody: true,
      validateRequestParameters: true,
    });
    // The handler names every offending field; the gateway only turns away what is not even a request.
    const startModel = new apigateway.Model(this, "EvaluationRequestModel", {
      restApi: api,
      contentType: "application/json",
      schema: {
        schema: apigateway.JsonSchemaVersion.DRAFT4,
        type: apigateway.JsonSchemaType.OBJECT,
        required: ["metadata", "s3_pdf_paths"],
        properties: {
          metadata: { type: apigateway.JsonSchemaType.OBJECT },
          s3_pdf_paths: {
            type: apigateway.JsonSchemaType.ARRAY,
            minItems: 1,
            items: { type: apigateway.JsonSchemaType.STRING },
          },
        },
      },
    });
    api.addGatewayResponse("InvalidBody", {
      type: apigateway.ResponseType.BAD_REQUEST_BODY,
      templates: {
        "application/json":
          '{"error":{"code":"invalid_request","message":"$context.error.message: expected a JSON object with metadata (object) and s3_pdf_paths (non-empty array of strings)"}}',
      },
    });
    const requestModels: Record<BodyContract, apigateway.Model> = { evaluation_request: startModel };
    // The resources and methods are lambdas/contracts/routes.ts: a route added there is deployed here.
    for (const route of REST_METHODS) {
      const resource = api.root.resourceForPath(route.resource);
      const pathParameters = pathParametersOf(route.resource);
      resource.addMethod(route.method, integration, {
        requestValidator: validator,
        ...(pathParameters.length
          ? {
              requestParameters: Object.fromEntries(
                pathParameters.map((p) => [`method.request.path.${p}`, true]),
              ),
            }
          : {}),
        ...(route.body ? { requestModels: { "application/json": requestModels[route.body] } } : {}),
        ...(route.auth === "none"
          ? { authorizationType: apigateway.AuthorizationType.NONE, apiKeyRequired: false }
          : {}),
      });
      if (route.auth === "none") {
        const methodConstruct = resource.node.findChild(route.method);
        for (const id of ["AwsSolutions-APIG4", "AwsSolutions-COG4"]) {
          Validations.of(methodConstruct).acknowledge({
            id,
            reason: route.whyPublic,
          });
        }
      }
    }

    if (iamAuth) {
      Validations.of(api).acknowledge({
        id: "AwsSolutions-COG4",
        reason: "Callers are AWS principals (loan systems) authorized with IAM (SigV4), not Cognito users.",
      });
    } else {
      const plan = api.addUsagePlan("UsagePlan", {
        throttle: config.api.throttle,
        apiStages: [{ api, stage: api.deploymentStage }],
      });
      plan.addApiKey(api.addApiKey("LoanSystemKey"));
      for (const id of ["AwsSolutions-APIG4", "AwsSolutions-COG4"]) {
        Validations.of(api).acknowledge({
          id,
          reason:
            "api.authorization is set to api-key for this environment: callers that are not AWS principals " +
            "present an API key and are throttled by its usage plan.",
        });
      }
    }

    if (config.api.webAclArn) {
      new wafv2.CfnWebACLAssociation(this, "RestApiWebAcl", {
        resourceArn: api.deploymentStage.stageArn,
        webAclArn: config.api.webAclArn,
      });
    } else {
      Validations.of(api).acknowledge({
        id: "AwsSolutions-APIG3",
        reason:
          "No WAF web ACL configured for this environment (api.webAclArn): every method requires " +
          "authorization (SigV4 or API key) and the stage is throttled. Set webAclArn to associate the account's web ACL.",
      });
    }
    return api;
  }
}

function definedEnv<T extends Record<string, string | undefined>>(record: T): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
}

function definedList(...values: Array<string | undefined>): string[] {
  return values.filter((value): value is string => value !== undefined);
}
