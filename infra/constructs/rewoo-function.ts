// The one function construct every Lambda is built from (like Powertools' FunctionWithLogGroup):
// local esbuild bundle, Node 22 on ARM, X-Ray, its own KMS-encrypted log group with retention,
// Powertools env, and a role that starts empty. Access is added only through the bind* methods, each granting the
// narrowest actions on named resources and setting the environment variable that names them.
import { join } from "node:path";
import { ArnFormat, type Duration, type RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import type * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import type * as kms from "aws-cdk-lib/aws-kms";
import type * as lambda from "aws-cdk-lib/aws-lambda";
import { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { flattenCfnReference } from "cdk-nag/lib/utils/flatten-cfn-reference.js";
import type { Construct } from "constructs";
import { ENV, type RuntimeVariable } from "../../lambdas/contracts/environment.ts";
import { CONNECTIONS_BY_RUN_INDEX } from "../../lambdas/contracts/tables.ts";
import { bundleDefines } from "./bundling.ts";
import { bundlingDefaults, functionDefaults, REPO_ROOT } from "./defaults.ts";

export interface RewooFunctionProps {
  /** Handler file relative to the repository root, exporting `handler`. */
  readonly entry: string;
  readonly description: string;
  /** How this function's log lines and traces are labelled (its POWERTOOLS_SERVICE_NAME). */
  readonly serviceName: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly logRetention: logs.RetentionDays;
  /** The environment's log key (CloudWatch Logs encrypts with it; the function needs no KMS access). */
  readonly logEncryptionKey: kms.IKey;
  readonly removalPolicy: RemovalPolicy;
  /** Instances that may run at once, reserved out of the account's pool; unset: unreserved. */
  readonly reservedConcurrentExecutions?: number;
  readonly logLevel: string;
  readonly environment?: Record<string, string>;
}

/**
 * readUpdate: what a WebSocket publisher does to the connections table (find a run's connections,
 * take and advance a delivery lease, delete gone connections) without creating connections.
 */
export type TableAccess = "read" | "readWrite" | "readUpdate";

const TABLE_ACTIONS: Record<TableAccess, string[]> = {
  read: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
  readWrite: [
    "dynamodb:GetItem",
    "dynamodb:BatchGetItem",
    "dynamodb:Query",
    "dynamodb:ConditionCheckItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
  ],
  readUpdate: ["dynamodb:GetItem", "dynamodb:Query", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
};

export class RewooFunction extends NodejsFunction {
  private readonly acknowledged = new Set<string>();
  /** The handler file, relative to the repository root (what bench/bundles.ts bundles). */
  readonly entry: string;
  /** The esbuild `define`s its bundle is built with (infra/constructs/bundling.ts). */
  readonly bundleDefines: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, props: RewooFunctionProps) {
    const defines = bundleDefines(props.environment);
    const logGroup = new logs.LogGroup(scope, `${id}LogGroup`, {
      retention: props.logRetention,
      encryptionKey: props.logEncryptionKey,
      removalPolicy: props.removalPolicy,
    });
    // Our own role: the default one carries AWSLambdaBasicExecutionRole, which may write to every
    // log group in the account.
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal("lambda.amazonaws.com"),
      description: `${props.serviceName}: ${props.description}`,
    });
    super(scope, id, {
      ...functionDefaults,
      entry: join(REPO_ROOT, props.entry),
      projectRoot: REPO_ROOT,
      depsLockFilePath: join(REPO_ROOT, "package-lock.json"),
      description: props.description,
      memorySize: props.memorySize,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      role,
      logGroup,
      bundling: {
        ...bundlingDefaults,
        tsconfig: join(REPO_ROOT, "tsconfig.json"),
        define: defines,
      },
      environment: {
        [ENV.POWERTOOLS_SERVICE_NAME]: props.serviceName,
        [ENV.POWERTOOLS_LOG_LEVEL]: props.logLevel,
        [ENV.NODE_OPTIONS]: "--enable-source-maps",
        ...props.environment,
      },
    });
    this.entry = props.entry;
    this.bundleDefines = defines;
    // The group's ARN already ends in `:*`: the streams of this one group.
    this.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["logs:CreateLogStream", "logs:PutLogEvents"],
        resources: [logGroup.logGroupArn],
      }),
    );
    Validations.of(role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason:
        "Only X-Ray's PutTraceSegments/PutTelemetryRecords (tracing), which have no resource-level permissions.",
    });
    Validations.of(this).acknowledge({
      id: "AwsSolutions-L1",
      reason:
        "Pinned to NODEJS_22_X, the runtime the handlers are built and tested for (esbuild target node22); " +
        "moving to a newer runtime is a deliberate, tested change rather than a side effect of a CDK upgrade.",
    });
  }

  /** Read (or read/write) items of a table and the named indexes, nothing else. */
  bindTable(
    table: dynamodb.ITable,
    options: { access: TableAccess; envName: RuntimeVariable; indexes?: readonly string[] },
  ): this {
    const resources = [
      table.tableArn,
      ...(options.indexes ?? []).map((index) => `${table.tableArn}/index/${index}`),
    ];
    this.addToRolePolicy(new iam.PolicyStatement({ actions: TABLE_ACTIONS[options.access], resources }));
    this.addEnvironment(options.envName, table.tableName);
    return this;
  }

  /**
   * Object access under key prefixes. Matching is `startsWith`, exactly like the documents policy
   * in lambdas/core/documents.ts: prefix `rm-conditions/` allows `rm-conditions/a.pdf`.
   */
  bindObjects(bucket: s3.IBucket, options: { read?: readonly string[]; write?: readonly string[] }): this {
    const read = options.read ?? [];
    const write = options.write ?? [];
    if (read.length > 0) {
      this.allowRuntimeNamed(
        ["s3:GetObject"],
        read.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
        "Objects under a fixed key prefix of one named bucket; object keys are per run or per document.",
      );
      // Without ListBucket a missing key answers 403 instead of 404, and the worker could not say
      // "document not found".
      this.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ["s3:ListBucket"],
          resources: [bucket.bucketArn],
          conditions: { StringLike: { "s3:prefix": read.map((prefix) => `${prefix}*`) } },
        }),
      );
    }
    if (write.length > 0) {
      this.allowRuntimeNamed(
        ["s3:PutObject"],
        write.map((prefix) => bucket.arnForObjects(`${prefix}*`)),
        "Objects under a fixed key prefix of one named bucket; object keys are per run.",
      );
    }
    return this;
  }

  /** Same as bindObjects, for locations given by name (`bucket` or `bucket/prefix`) in the config. */
  bindObjectLocations(locations: readonly string[], access: "read" | "write"): this {
    if (locations.length === 0) return this;
    const arn = (location: string) => {
      const [bucket, ...rest] = location.split("/");
      return { bucket: `arn:${Stack.of(this).partition}:s3:::${bucket}`, prefix: rest.join("/") };
    };
    const targets = locations.map(arn);
    this.allowRuntimeNamed(
      [access === "read" ? "s3:GetObject" : "s3:PutObject"],
      targets.map(({ bucket, prefix }) => `${bucket}/${prefix}*`),
      "A bucket/prefix location named in this environment's configuration; object keys are per document or run.",
    );
    if (access === "read") {
      for (const { bucket, prefix } of targets) {
        this.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ["s3:ListBucket"],
            resources: [bucket],
            conditions: { StringLike: { "s3:prefix": [`${prefix}*`] } },
          }),
        );
      }
    }
    return this;
  }

  bindSecret(secret: secretsmanager.ISecret, envName: RuntimeVariable): this {
    secret.grantRead(this);
    this.addEnvironment(envName, secret.secretArn);
    return this;
  }

  /**
   * bedrock:InvokeModel on these model ids only. The Converse API is authorized by InvokeModel;
   * there is no separate Converse action. A cross-region inference profile (`us.…`, `eu.…`,
   * `global.…`) also needs the foundation model in every region the profile routes to.
   */
  bindModels(modelIds: readonly string[]): this {
    const stack = Stack.of(this);
    const models = new Set<string>();
    const anyRegionModels = new Set<string>();
    for (const modelId of new Set(modelIds)) {
      const profile = /^(us|eu|apac|us-gov|ca|jp|au|global)\.(.+)$/.exec(modelId);
      if (profile?.[2]) {
        models.add(
          `arn:${stack.partition}:bedrock:${stack.region}:${stack.account}:inference-profile/${modelId}`,
        );
        anyRegionModels.add(`arn:${stack.partition}:bedrock:*::foundation-model/${profile[2]}`);
      } else {
        models.add(`arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${modelId}`);
      }
    }
    this.addToRolePolicy(
      new iam.PolicyStatement({ actions: ["bedrock:InvokeModel"], resources: [...models] }),
    );
    if (anyRegionModels.size > 0) {
      this.allowRuntimeNamed(
        ["bedrock:InvokeModel"],
        [...anyRegionModels],
        "One foundation model, in whichever region its cross-region inference profile routes the call to.",
      );
    }
    return this;
  }

  /**
   * bedrock:ApplyGuardrail on the one guardrail the model calls are made under: Bedrock checks it
   * for every Converse call that names a guardrail.
   */
  bindGuardrail(guardrailId: string): this {
    const stack = Stack.of(this);
    const arn = guardrailId.startsWith("arn:")
      ? guardrailId
      : `arn:${stack.partition}:bedrock:${stack.region}:${stack.account}:guardrail/${guardrailId}`;
    this.addToRolePolicy(new iam.PolicyStatement({ actions: ["bedrock:ApplyGuardrail"], resources: [arn] }));
    return this;
  }

  /**
   * Amazon Textract's asynchronous text detection, and with `signatures` its document analysis
   * (the SIGNATURES feature). Textract reads the S3 object with this role's own credentials, so the
   * document grants (bindObjects) already cover what it reads, and a bucket encrypted with a
   * customer key needs kms:Decrypt for this role as it does anyway.
   */
  /** `analysis`: the document analysis API (SIGNATURES, FORMS, TABLES), else text detection. */
  bindTextract(options: { analysis?: boolean } = {}): this {
    const actions = options.analysis
      ? ["textract:StartDocumentAnalysis", "textract:GetDocumentAnalysis"]
      : ["textract:StartDocumentTextDetection", "textract:GetDocumentTextDetection"];
    this.addToRolePolicy(new iam.PolicyStatement({ actions, resources: ["*"] }));
    Validations.of(this.role as iam.Role).acknowledge({
      id: "AwsSolutions-IAM5[Resource::*]",
      reason: `Textract's ${actions.map((action) => action.replace("textract:", "")).join(" and ")} support no resource-level permissions; the documents Textract may read are still bounded by this role's s3:GetObject grants.`,
    });
    return this;
  }

  /** Push progress events to dashboards: find a run's connections, post to them, forget gone ones. */
  bindWebSocketPush(
    stage: apigwv2.IWebSocketStage,
    connections: dynamodb.ITable,
    options: { access?: TableAccess } = {},
  ): this {
    this.bindTable(connections, {
      access: options.access ?? "readUpdate",
      envName: ENV.CONNECTIONS_TABLE,
      indexes: [CONNECTIONS_BY_RUN_INDEX],
    });
    const stack = Stack.of(this);
    this.allowRuntimeNamed(
      ["execute-api:ManageConnections"],
      [
        stack.formatArn({
          service: "execute-api",
          resource: stage.api.apiId,
          resourceName: `${stage.stageName}/*/@connections/*`,
        }),
      ],
      "The @connections of this one WebSocket API stage; connection ids exist only once a client connects.",
    );
    this.addEnvironment(ENV.WEBSOCKET_ENDPOINT, stage.callbackUrl);
    return this;
  }

  /**
   * Consume a table's stream (event source mapping). The role may read that one stream and nothing
   * else: DynamoEventSource would also grant dynamodb:ListStreams on every stream of the account.
   */
  bindTableStream(
    table: dynamodb.ITable,
    options: Omit<lambda.EventSourceMappingOptions, "eventSourceArn">,
  ): this {
    if (!table.tableStreamArn) throw new Error(`${table.node.path}: the table has no stream to consume`);
    this.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [
          "dynamodb:DescribeStream",
          "dynamodb:GetRecords",
          "dynamodb:GetShardIterator",
          "dynamodb:ListStreams",
        ],
        resources: [table.tableStreamArn],
      }),
    );
    this.addEventSourceMapping(`${table.node.id}Stream`, {
      ...options,
      eventSourceArn: table.tableStreamArn,
    });
    return this;
  }

  /** Start, describe and stop executions of one state machine. */
  bindStateMachine(stateMachine: sfn.StateMachine): this {
    this.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ["states:StartExecution"],
        resources: [stateMachine.stateMachineArn],
      }),
    );
    this.allowRuntimeNamed(
      ["states:DescribeExecution", "states:StopExecution"],
      [
        Stack.of(this).formatArn({
          service: "states",
          resource: "execution",
          resourceName: `${stateMachine.stateMachineName}:*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      "Executions of this one state machine; each is named after its run id at start.",
    );
    this.addEnvironment(ENV.STATE_MACHINE_ARN, stateMachine.stateMachineArn);
    return this;
  }

  /**
   * Lets the function send a waiting state's task token back (a run's answer or approval). Only the
   * API function is given this: a run continues only through the API's checks.
   */
  bindTaskResponses(): this {
    this.allowRuntimeNamed(
      ["states:SendTaskSuccess", "states:SendTaskFailure", "states:SendTaskHeartbeat"],
      ["*"],
      "The task-token actions (SendTaskSuccess/Failure/Heartbeat) support no resource-level permissions; " +
        "the token itself names the one waiting state, and only this function holds it (read from the run).",
    );
    return this;
  }

  /**
   * A statement whose resources end in a wildcard because the names exist only at run time (object
   * keys, connection ids, execution names). Each such resource is acknowledged for cdk-nag
   * individually, with its reason, so a new wildcard anywhere else still fails synth.
   */
  private allowRuntimeNamed(actions: string[], resources: string[], reason: string): void {
    this.addToRolePolicy(new iam.PolicyStatement({ actions, resources }));
    const stack = Stack.of(this);
    for (const resource of resources) {
      // The finding id is the resolved resource as cdk-nag prints it (`<Logical.Arn>/runs/*`).
      const id = `AwsSolutions-IAM5[Resource::${flattenCfnReference(stack.resolve(resource))}]`;
      if (this.acknowledged.has(id)) continue;
      this.acknowledged.add(id);
      Validations.of(this.role as iam.Role).acknowledge({ id, reason });
    }
  }
}
