// Every function: the shared defaults, its own log group, and only the access its handler needs.
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  actionsOf,
  configWith,
  functionAccess,
  importOf,
  PUBLISHERS,
  resourcesOf,
  resourcesOfStatement,
  SERVICES,
  type Synthesized,
  synthesize,
} from "./synth.ts";

const WORKFLOW = ["rewoo-planner", "rewoo-worker", "rewoo-solver", "rewoo-finalize"] as const;

describe("functions (dev)", () => {
  let dev: Synthesized;
  let access: (service: string) => ReturnType<typeof functionAccess>;
  beforeAll(() => {
    dev = synthesize();
    access = (service) => functionAccess(dev.serviceTemplate, service);
  });

  it("builds every function: the four workflow steps, the REST API and its event stream, the WebSocket routes, the authorizer, live delivery and batches", () => {
    // Besides CDK's own function that copies the dashboard's files into its bucket at deploy time.
    const names = Object.entries(resourcesOf(dev.serviceTemplate, "AWS::Lambda::Function"))
      .filter(([id]) => !id.startsWith("CustomCDKBucketDeployment"))
      .map(([, fn]) => fn.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME);
    expect(names.sort()).toEqual([...SERVICES].sort());
  });

  it("runs every function on Node 22, ARM, with X-Ray, explicit memory and timeout, and Powertools settings", () => {
    for (const service of SERVICES) {
      const { properties, environment } = access(service);
      expect(properties, service).toMatchObject({
        Runtime: "nodejs22.x",
        Architectures: ["arm64"],
        TracingConfig: { Mode: "Active" },
        Handler: "index.handler",
      });
      expect(properties.MemorySize, service).toBeGreaterThanOrEqual(256);
      expect(properties.Timeout, service).toBeGreaterThan(0);
      expect(environment, service).toMatchObject({
        POWERTOOLS_SERVICE_NAME: service,
        POWERTOOLS_LOG_LEVEL: "DEBUG",
      });
    }
  });

  it("gives every function its own log group with the environment's retention, and lets it write only there", () => {
    const groups = resourcesOf(dev.serviceTemplate, "AWS::Logs::LogGroup");
    for (const service of SERVICES) {
      const fn = access(service);
      const groupId = (fn.properties.LoggingConfig.LogGroup as { Ref: string }).Ref;
      expect(groups[groupId]?.Properties?.RetentionInDays, service).toBe(7);
      expect(fn.allowing("logs:PutLogEvents"), service).toEqual([`<${groupId}.Arn>`]);
      // Its own role, not the default one with AWSLambdaBasicExecutionRole (every log group of the account).
      expect(JSON.stringify(fn.statements), service).not.toContain("logs:CreateLogGroup");
    }
    const roles = resourcesOf(dev.serviceTemplate, "AWS::IAM::Role");
    for (const service of SERVICES) {
      const roleId = (access(service).properties.Role as { "Fn::GetAtt": [string] })["Fn::GetAtt"][0];
      expect(roles[roleId]?.Properties?.ManagedPolicyArns, service).toBeUndefined();
    }
  });

  it("encrypts every log group in the template with the environment's log key from the data stack", () => {
    const groups = resourcesOf(dev.serviceTemplate, "AWS::Logs::LogGroup");
    // One per function, the two state machines', and the REST and WebSocket access logs.
    expect(Object.keys(groups)).toHaveLength(SERVICES.length + 4);
    dev.serviceTemplate.allResourcesProperties("AWS::Logs::LogGroup", { KmsKeyId: importOf("LogsKey") });
    dev.dataTemplate.resourceCountIs("AWS::Logs::LogGroup", 0);
  });

  it("reserves concurrency for the worker and the REST API only, as configured", () => {
    expect(access("rewoo-worker").properties.ReservedConcurrentExecutions).toBe(50);
    expect(access("rewoo-api").properties.ReservedConcurrentExecutions).toBe(20);
    for (const service of SERVICES.filter((s) => s !== "rewoo-worker" && s !== "rewoo-api")) {
      expect(access(service).properties.ReservedConcurrentExecutions, service).toBeUndefined();
    }
    for (const [name, metric] of [
      ["worker", "Throttles"],
      ["api", "Throttles"],
    ]) {
      dev.serviceTemplate.hasResourceProperties("AWS::CloudWatch::Alarm", {
        Namespace: "AWS/Lambda",
        MetricName: metric,
        Dimensions: [{ Name: "FunctionName", Value: { Ref: access(`rewoo-${name}`).logicalId } }],
        Threshold: 1,
      });
    }
  });

  it("tells the API, finalize and the batch function (which validates requests as the API does), and only them, where results may be written", () => {
    const expected = {
      "Fn::Join": ["", [expect.objectContaining({ "Fn::Select": [5, expect.anything()] }), "/results/"]],
    };
    for (const service of SERVICES) {
      const destinations = access(service).environment.ALLOWED_RESULT_DESTINATIONS;
      if (service === "rewoo-api" || service === "rewoo-finalize" || service === "rewoo-batch")
        expect(destinations, service).toEqual(expected);
      else expect(destinations, service).toBeUndefined();
    }
    expect(JSON.stringify(access("rewoo-api").environment.ALLOWED_RESULT_DESTINATIONS)).toContain(
      "Rewoo-dev-Data-ArtifactsBucketArn",
    );
  });

  it("uses Resource * only for the X-Ray write actions, the API's task-token answers and the worker's Textract jobs", () => {
    for (const service of SERVICES) {
      const starred = access(service).statements.filter((s) => resourcesOfStatement(s).includes("*"));
      const taskTokens =
        service === "rewoo-api"
          ? ["states:SendTaskFailure", "states:SendTaskHeartbeat", "states:SendTaskSuccess"]
          : [];
      // Textract has no resource-level permissions; what it reads is bounded by the worker's s3:GetObject.
      const textract =
        service === "rewoo-worker" ? ["textract:GetDocumentAnalysis", "textract:StartDocumentAnalysis"] : [];
      expect(starred.flatMap(actionsOf).sort(), service).toEqual([
        ...taskTokens,
        ...textract,
        "xray:PutTelemetryRecords",
        "xray:PutTraceSegments",
      ]);
    }
  });

  it("lets only the worker and the API read documents (the API: batch manifests and presigned reads of run documents)", () => {
    for (const service of SERVICES) {
      const readsDocuments = access(service)
        .allowing("s3:GetObject")
        .filter((resource) => resource.startsWith("Rewoo-dev-Data-DocumentsBucketArn/"));
      if (service === "rewoo-worker") expect(readsDocuments).toEqual(["Rewoo-dev-Data-DocumentsBucketArn/*"]);
      else if (service === "rewoo-api")
        expect(readsDocuments.sort()).toEqual([
          "Rewoo-dev-Data-DocumentsBucketArn/*",
          "Rewoo-dev-Data-DocumentsBucketArn/*.jsonl",
        ]);
      else expect(readsDocuments, service).toEqual([]);
    }
  });

  it("keeps large evidence (runs/) and results (results/) apart: the worker cannot write results", () => {
    const puts = (service: string) => access(service).allowing("s3:PutObject");
    expect(puts("rewoo-worker")).toEqual(["Rewoo-dev-Data-ArtifactsBucketArn/runs/*"]);
    expect(puts("rewoo-finalize")).toEqual(["Rewoo-dev-Data-ArtifactsBucketArn/results/*"]);
    // Presigned uploads (POST /v1/documents) write under the upload prefix of the documents bucket only.
    expect(puts("rewoo-api")).toEqual([
      "Rewoo-dev-Data-DocumentsBucketArn/uploads/*",
      "Rewoo-dev-Data-ArtifactsBucketArn/batches/*/manifest.jsonl",
    ]);
    for (const service of [
      "rewoo-planner",
      "rewoo-solver",
      "rewoo-batch",
      "rewoo-websocket",
      "rewoo-authorizer",
    ]) {
      expect(puts(service), service).toEqual([]);
    }
    expect(access("rewoo-solver").allowing("s3:GetObject")).toEqual([
      "Rewoo-dev-Data-ArtifactsBucketArn/runs/*",
    ]);
  });

  it("lets only live delivery (Push) and the WebSocket handler post to connections, of this API's stage only", () => {
    const apiId = Object.keys(resourcesOf(dev.serviceTemplate, "AWS::ApiGatewayV2::Api"))[0] as string;
    for (const service of ["rewoo-push", "rewoo-websocket"]) {
      expect(access(service).allowing("execute-api:ManageConnections"), service).toEqual([
        `arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<${apiId}>/dev/*/@connections/*`,
      ]);
      expect(access(service).environment.WEBSOCKET_ENDPOINT, service).toBeDefined();
      expect(access(service).environment.CONNECTIONS_TABLE, service).toBeDefined();
    }
  });

  it("leaves publishers (workflow functions, REST API) and the authorizer without any WebSocket access: they only write events", () => {
    for (const service of [...PUBLISHERS, "rewoo-authorizer"]) {
      const fn = access(service);
      expect(fn.allowing("execute-api:ManageConnections"), service).toEqual([]);
      expect(JSON.stringify(fn.statements), service).not.toContain("ConnectionsTable");
      // lambdas/runtime/services.ts builds in-line delivery only when both are set.
      expect(fn.environment.WEBSOCKET_ENDPOINT, service).toBeUndefined();
      expect(fn.environment.CONNECTIONS_TABLE, service).toBeUndefined();
    }
  });

  it("lets only the WebSocket handler create connections; publishers may only find, update and drop them", () => {
    const connectionsTable = Object.keys(
      dev.dataTemplate.findResources("AWS::DynamoDB::Table", {
        Properties: { KeySchema: [{ AttributeName: "connection_id", KeyType: "HASH" }] },
      }),
    )[0] as string;
    for (const service of SERVICES) {
      const puts = access(service)
        .allowing("dynamodb:PutItem")
        .filter((resource) => resource.includes(connectionsTable));
      expect(puts.length > 0, service).toBe(service === "rewoo-websocket");
    }
  });

  it("keeps the authorizer to reading the run and operator token secrets", () => {
    const actions = access("rewoo-authorizer")
      .statements.flatMap(actionsOf)
      .filter((action) => !action.startsWith("xray:") && !action.startsWith("logs:"));
    expect([...new Set(actions)].sort()).toEqual([
      "secretsmanager:DescribeSecret",
      "secretsmanager:GetSecretValue",
    ]);
  });

  it("gives each function the token secrets of the audiences it mints or verifies, and no other", () => {
    const dataSecret = (id: string) => `Rewoo-dev-Data:ExportsOutputRef${id}`;
    const tokenSecrets = (service: string) => {
      const { environment } = access(service);
      const names = Object.keys(environment).filter((name) => /^REWOO_\w+_TOKEN_SECRET/.test(name));
      return Object.fromEntries(
        names
          .sort()
          .map((name) => [name, (environment[name] as { "Fn::ImportValue": string })["Fn::ImportValue"]]),
      );
    };
    // The API verifies customer tokens (POST /v1/chat) and mints run tokens; the customer secret keeps
    // the id of the one secret every audience shared before (the bank's sign-in holds its value).
    expect(tokenSecrets("rewoo-api")).toEqual({
      REWOO_CUSTOMER_TOKEN_SECRET_ARN: expect.stringMatching(
        new RegExp(`^${dataSecret("TokenSecret")}[0-9A-F]+$`),
      ),
      REWOO_RUN_TOKEN_SECRET_ARN: expect.stringMatching(
        new RegExp(`^${dataSecret("RunTokenSecret")}[0-9A-F]+$`),
      ),
    });
    // The $connect authorizer verifies run and operator tokens.
    expect(tokenSecrets("rewoo-authorizer")).toEqual({
      REWOO_OPERATOR_TOKEN_SECRET_ARN: expect.stringMatching(
        new RegExp(`^${dataSecret("OperatorTokenSecret")}[0-9A-F]+$`),
      ),
      REWOO_RUN_TOKEN_SECRET_ARN: expect.stringMatching(
        new RegExp(`^${dataSecret("RunTokenSecret")}[0-9A-F]+$`),
      ),
    });
    const readable = (service: string) =>
      access(service)
        .allowing("secretsmanager:GetSecretValue")
        .map((arn) => arn.replace(/^Rewoo-dev-Data:ExportsOutputRef(\w+?)[0-9A-F]{16}$/, "$1"))
        .sort();
    expect(readable("rewoo-api")).toEqual(["RunTokenSecret", "TokenSecret"]);
    expect(readable("rewoo-authorizer")).toEqual(["OperatorTokenSecret", "RunTokenSecret"]);
    for (const service of SERVICES.filter((name) => name !== "rewoo-api" && name !== "rewoo-authorizer")) {
      expect(tokenSecrets(service), service).toEqual({});
      expect(
        readable(service).filter((id) => id.endsWith("TokenSecret")),
        service,
      ).toEqual([]);
    }
  });

  it("lets only the API start, describe and stop executions, of this state machine only (and start batches)", () => {
    for (const service of SERVICES) {
      const starts = access(service).allowing("states:StartExecution");
      expect(starts.length, service).toBe(service === "rewoo-api" ? 2 : 0);
    }
    expect(access("rewoo-api").allowing("states:StartExecution").sort()).toEqual([
      expect.stringMatching(/^<BatchStateMachine\w+>$/),
      expect.stringMatching(/^<StateMachine\w+>$/),
    ]);
    expect(access("rewoo-api").allowing("states:StopExecution")).toEqual([
      expect.stringMatching(/:execution:<StateMachine\w+\.Name>:\*$/),
    ]);
    expect(access("rewoo-api").environment.STATE_MACHINE_ARN).toEqual({
      Ref: expect.stringMatching(/^StateMachine/),
    });
  });

  it("lets only the API send task results, so a waiting run continues only through its checks", () => {
    for (const action of ["states:SendTaskSuccess", "states:SendTaskFailure", "states:SendTaskHeartbeat"]) {
      for (const service of SERVICES) {
        // Task-token actions take no resource-level permissions: "*" is the only resource AWS accepts.
        expect(access(service).allowing(action), `${service} ${action}`).toEqual(
          service === "rewoo-api" ? ["*"] : [],
        );
      }
    }
    // Those three are the only task-token grants in the whole template (the state machine's role has none).
    const machineRoleActions = Object.values(dev.serviceTemplate.findResources("AWS::IAM::Policy"))
      .flatMap(
        (policy) =>
          (policy as { Properties: { PolicyDocument: { Statement: unknown[] } } }).Properties.PolicyDocument
            .Statement,
      )
      .flatMap((statement) => [(statement as { Action: string | string[] }).Action].flat());
    expect(machineRoleActions.filter((action) => action.startsWith("states:SendTask"))).toHaveLength(3);
  });

  it("grants no Bedrock access with the rule-based provider", () => {
    for (const service of SERVICES)
      expect(access(service).allowing("bedrock:InvokeModel"), service).toEqual([]);
  });

  it("lets only the worker write the core-banking table and the planner read it (to check a transfer before it is confirmed), and tells only them its name", () => {
    const worker = access("rewoo-worker");
    const planner = access("rewoo-planner");
    const roleOf = (fn: typeof worker) => (fn.properties.Role as { "Fn::GetAtt": [string] })["Fn::GetAtt"][0];
    const touching = Object.values(resourcesOf(dev.serviceTemplate, "AWS::IAM::Policy")).filter((policy) =>
      JSON.stringify(policy.Properties?.PolicyDocument).includes("CoreBankingTable"),
    );
    expect(touching.flatMap((policy) => policy.Properties?.Roles)).toEqual(
      expect.arrayContaining([{ Ref: roleOf(worker) }, { Ref: roleOf(planner) }]),
    );
    expect(touching.flatMap((policy) => policy.Properties?.Roles)).toHaveLength(2);
    for (const action of ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"]) {
      expect(planner.allowing(action), action).not.toContainEqual(
        expect.stringMatching(/CoreBankingTable\w*Arn/),
      );
    }
    expect(planner.allowing("dynamodb:Query")).toContainEqual(
      expect.stringMatching(/CoreBankingTable\w*Arn/),
    );
    // A transfer is one TransactWriteItems: Put, Update and ConditionCheck on the table itself.
    for (const action of [
      "dynamodb:GetItem",
      "dynamodb:Query",
      "dynamodb:PutItem",
      "dynamodb:UpdateItem",
      "dynamodb:ConditionCheckItem",
    ]) {
      expect(worker.allowing(action), action).toContainEqual(expect.stringMatching(/CoreBankingTable\w*Arn/));
    }
    for (const service of SERVICES) {
      const table = access(service).environment.CORE_BANKING_TABLE;
      if (service === "rewoo-worker" || service === "rewoo-planner")
        expect(table).toEqual({
          "Fn::ImportValue": expect.stringMatching(/^Rewoo-dev-Data:ExportsOutputRefCoreBankingTable/),
        });
      else expect(table, service).toBeUndefined();
    }
  });

  it("gives the four workflow functions one shared configuration", () => {
    const shared = (service: string) => {
      const {
        POWERTOOLS_SERVICE_NAME: _name,
        ALLOWED_RESULT_DESTINATIONS: _destinations,
        // The worker's alone (it reads the documents): test/infra/ocr.test.ts.
        REWOO_OCR_ENGINE: _ocrEngine,
        REWOO_OCR_MIN_CONFIDENCE: _ocrConfidence,
        REWOO_TEXTRACT_SIGNATURES: _ocrSignatures,
        REWOO_TEXTRACT_FORMS: _ocrForms,
        // The worker's (it runs the banking tools) and the planner's (it checks transfers): the test above.
        CORE_BANKING_TABLE: _coreBanking,
        ...rest
      } = access(service).environment;
      return rest;
    };
    for (const service of WORKFLOW) expect(shared(service), service).toEqual(shared("rewoo-planner"));
    expect(shared("rewoo-planner")).toMatchObject({
      REWOO_LLM_PROVIDER: "rule-based",
      RUNS_TABLE: expect.anything(),
      DOCUMENTS_BUCKET: expect.anything(),
      ARTIFACTS_BUCKET: expect.anything(),
      ALLOWED_DOCUMENT_PREFIXES: expect.anything(),
    });
  });
});

describe("functions with Bedrock, the lender's services and extra locations", () => {
  let custom: Synthesized;
  beforeAll(() => {
    custom = synthesize({
      config: configWith("staging", (base) => ({
        logRetention: RetentionDays.TWO_WEEKS,
        llm: {
          provider: "bedrock",
          plannerModel: "us.anthropic.claude-sonnet-4-20250514-v1:0",
          solverModel: "anthropic.claude-3-5-haiku-20241022-v1:0",
        },
        documents: {
          ...base.documents,
          allowedPrefixes: ["rm-conditions/"],
          additionalLocations: ["lender-archive/returns/"],
        },
        results: { additionalDestinations: ["lender-results/rewoo/"] },
        lender: {
          preconditionsApiUrl: "https://preconditions.lender.example",
          conditionsAiApiUrl: "https://conditions-ai.lender.example",
          apiTokenSecretArn: "arn:aws:secretsmanager:eu-west-1:111122223333:secret:lender-token-AbCdEf",
        },
      })),
    });
  });
  const access = (service: string) => functionAccess(custom.serviceTemplate, service);

  it("lets only the LLM callers invoke only their configured models", () => {
    const models = (service: string) => access(service).allowing("bedrock:InvokeModel").join(" ");
    expect(models("rewoo-planner")).toContain("inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0");
    // A cross-region profile routes to the foundation model in several regions.
    expect(models("rewoo-planner")).toContain(
      ":bedrock:*::foundation-model/anthropic.claude-sonnet-4-20250514-v1:0",
    );
    expect(models("rewoo-planner")).not.toContain("haiku");
    expect(models("rewoo-solver")).toContain("::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0");
    // The solver function also reviews answers, with the reviewer's model: the planner's unless set.
    expect(models("rewoo-solver")).toContain("inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0");
    // The `llm` tool uses the solver's model unless told otherwise.
    expect(models("rewoo-worker")).toContain("foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0");
    for (const service of ["rewoo-finalize", "rewoo-api", "rewoo-websocket", "rewoo-authorizer"]) {
      expect(models(service), service).toBe("");
    }
    expect(access("rewoo-planner").environment).toMatchObject({
      REWOO_LLM_PROVIDER: "bedrock",
      REWOO_PLANNER_MODEL: "us.anthropic.claude-sonnet-4-20250514-v1:0",
      REWOO_SOLVER_MODEL: "anthropic.claude-3-5-haiku-20241022-v1:0",
    });
  });

  it("reads documents only under the configured prefixes, and says so to the functions", () => {
    expect(access("rewoo-worker").allowing("s3:GetObject").sort()).toEqual([
      "Rewoo-staging-Data-ArtifactsBucketArn/runs/*",
      "Rewoo-staging-Data-DocumentsBucketArn/rm-conditions/*",
      // Uploads are meant for s3_pdf_paths: the upload prefix joins the configured ones.
      "Rewoo-staging-Data-DocumentsBucketArn/uploads/*",
      "arn:<AWS::Partition>:s3:::lender-archive/returns/*",
    ]);
    expect(JSON.stringify(access("rewoo-api").environment.ALLOWED_DOCUMENT_PREFIXES)).toContain(
      '"/uploads/,lender-archive/returns/"',
    );
  });

  it("lets finalize write the extra result destinations, and tells the API and finalize that they are allowed", () => {
    expect(access("rewoo-finalize").allowing("s3:PutObject")).toEqual([
      "Rewoo-staging-Data-ArtifactsBucketArn/results/*",
      "arn:<AWS::Partition>:s3:::lender-results/rewoo/*",
    ]);
    // Both look whether a result destination already holds an object (the API: 409; finalize: is it
    // this run's own, from an earlier attempt): read where results go, nothing else of the artifacts.
    expect(access("rewoo-finalize").allowing("s3:GetObject").sort()).toEqual([
      "Rewoo-staging-Data-ArtifactsBucketArn/results/*",
      "arn:<AWS::Partition>:s3:::lender-results/rewoo/*",
    ]);
    expect(
      access("rewoo-api")
        .allowing("s3:GetObject")
        .filter((resource) => !resource.includes("DocumentsBucket") && !resource.includes("lender-archive"))
        .sort(),
    ).toEqual([
      "Rewoo-staging-Data-ArtifactsBucketArn/results/*",
      "arn:<AWS::Partition>:s3:::lender-results/rewoo/*",
    ]);
    for (const service of ["rewoo-api", "rewoo-finalize"]) {
      const destinations = access(service).environment.ALLOWED_RESULT_DESTINATIONS as {
        "Fn::Join": [string, unknown[]];
      };
      expect(destinations["Fn::Join"][1].at(-1), service).toBe("/results/,lender-results/rewoo/");
    }
  });

  it("hands the worker the lender URLs and the name of the token secret, never the token", () => {
    const worker = access("rewoo-worker");
    expect(worker.environment).toMatchObject({
      PRECONDITIONS_API_URL: "https://preconditions.lender.example",
      CONDITIONS_AI_API_URL: "https://conditions-ai.lender.example",
      LENDER_API_TOKEN_SECRET_ARN: "arn:aws:secretsmanager:eu-west-1:111122223333:secret:lender-token-AbCdEf",
    });
    expect(worker.environment.LENDER_API_TOKEN).toBeUndefined();
    expect(worker.allowing("secretsmanager:GetSecretValue")).toEqual([
      "arn:aws:secretsmanager:eu-west-1:111122223333:secret:lender-token-AbCdEf",
    ]);
    expect(access("rewoo-planner").allowing("secretsmanager:GetSecretValue")).toEqual([]);
  });

  it("applies the configured log retention to every function", () => {
    custom.serviceTemplate.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 14 });
  });
});

describe("reserved concurrency (prod)", () => {
  it("reserves more for the worker and the REST API in prod", () => {
    const prod = synthesize({ context: { env: "prod" } });
    expect(prod.config.reservedConcurrency).toEqual({ worker: 200, api: 50 });
    const reserved = (service: string) =>
      functionAccess(prod.serviceTemplate, service).properties.ReservedConcurrentExecutions;
    expect(reserved("rewoo-worker")).toBe(200);
    expect(reserved("rewoo-api")).toBe(50);
  });
});
