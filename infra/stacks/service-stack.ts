// Everything stateless, composed from one construct per concern: the workflow (its functions, the
// state machine of statemachine/rewoo.asl.json and the rule that closes runs the workflow could not
// close itself), portfolio batches, the WebSocket API for dashboards with its stream-fed live
// delivery, the REST API for loan systems (with its SSE stream method), the dashboard's static site
// and the alarms. Every function starts with no access and is bound to exactly what its handler
// touches.
import { Aws, type CfnElement, CfnOutput, Lazy, Stack, type StackProps } from "aws-cdk-lib";
import type * as apigateway from "aws-cdk-lib/aws-apigateway";
import type * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import type { Construct, IConstruct } from "constructs";
import { ENV } from "../../lambdas/contracts/environment.ts";
import type { RewooConfig } from "../config.ts";
import { ApiGatewayAccountLogging } from "../constructs/api-gateway-account-logging.ts";
import { BatchWorkflow } from "../constructs/batch-workflow.ts";
import { DashboardSite } from "../constructs/dashboard-site.ts";
import { OfficerSignIn } from "../constructs/officer-sign-in.ts";
import { RewooRestApi } from "../constructs/rest-api.ts";
import type { RewooFunction } from "../constructs/rewoo-function.ts";
import { ServiceAlarms } from "../constructs/service-alarms.ts";
import { bindDocumentAccess, serviceEnvironments } from "../constructs/service-functions.ts";
import { RewooWebSocketApi } from "../constructs/websocket-api.ts";
import { Workflow } from "../constructs/workflow.ts";
import { type DataStack, EVIDENCE_PREFIX, RESULTS_PREFIX } from "./data-stack.ts";

export { ASL_FILE } from "../constructs/workflow.ts";

export interface ServiceStackProps extends StackProps {
  readonly config: RewooConfig;
  readonly data: DataStack;
}

export type ServiceFunctionName =
  | "planner"
  | "worker"
  | "solver"
  | "finalize"
  | "api"
  | "stream"
  | "websocket"
  | "authorizer"
  | "push"
  | "batch";

/**
 * The concern constructs whose ids are left out of logical ids: their resources keep the logical ids
 * they had when the stack built them itself, so deployed stacks update in place (functions, APIs,
 * queues and log groups are not replaced by the split into constructs). Known by id, not registered
 * after construction: logical ids are already resolved while a concern builds (cdk-nag's
 * acknowledgements name resolved ARNs).
 */
const TRANSPARENT_CONCERNS = new Set(["Workflow", "RestService", "WebSocketService"]);

export class ServiceStack extends Stack {
  readonly functions: Record<ServiceFunctionName, RewooFunction>;
  readonly workflow: Workflow;
  readonly stateMachine: sfn.StateMachine;
  readonly batches: BatchWorkflow;
  readonly rest: RewooRestApi;
  readonly restApi: apigateway.RestApi;
  readonly webSocket: RewooWebSocketApi;
  readonly webSocketApi: apigwv2.WebSocketApi;
  readonly webSocketStage: apigwv2.WebSocketStage;
  /** The dashboard's static site (config.dashboard.site). */
  readonly dashboard?: DashboardSite;
  /** Officers' sign-in to the site (config.dashboard.signIn, with the site). */
  readonly officerSignIn?: OfficerSignIn;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { config, data } = props;
    this.addStackDependency(data, "buckets are referenced through the data stack's exports");
    const documentsBucket = data.importBucket(this, "Documents");
    const artifactsBucket = data.importBucket(this, "Artifacts");
    const context = { config, logsKey: data.logsKey };
    const environments = serviceEnvironments(
      config,
      { runsTable: data.runsTable, documentsBucket, artifactsBucket },
      RESULTS_PREFIX,
    );

    this.workflow = new Workflow(this, "Workflow", {
      ...context,
      runsTable: data.runsTable,
      coreBankingTable: data.coreBankingTable,
      documentsBucket,
      artifactsBucket,
      prefixes: { evidence: EVIDENCE_PREFIX, results: RESULTS_PREFIX },
      environments,
    });
    this.stateMachine = this.workflow.stateMachine;

    // ---- Portfolio batches (statemachine/batch.asl.json: a Distributed Map of evaluations) -------
    this.batches = new BatchWorkflow(this, "Batches", {
      evaluation: this.stateMachine,
      runsTable: data.runsTable,
      artifactsBucket,
      // Lines are validated exactly as the API validates requests: the same locations and limits.
      environment: { ...environments.base, ...environments.resultDestinations },
      logRetention: config.logRetention,
      logEncryptionKey: data.logsKey,
      removalPolicy: config.removalPolicy,
      logLevel: config.logLevel,
    });

    this.webSocket = new RewooWebSocketApi(this, "WebSocketService", {
      ...context,
      runsTable: data.runsTable,
      connectionsTable: data.connectionsTable,
      tokenSecrets: data.tokenSecrets,
      environment: environments.base,
    });
    this.webSocketApi = this.webSocket.api;
    this.webSocketStage = this.webSocket.stage;

    this.rest = new RewooRestApi(this, "RestService", {
      ...context,
      runsTable: data.runsTable,
      stateMachine: this.stateMachine,
      tokenSecrets: data.tokenSecrets,
      environment: environments.base,
      apiEnvironment: { ...environments.resultDestinations, [ENV.WEBSOCKET_URL]: this.webSocket.url },
    });
    this.restApi = this.rest.api;
    // POST /v1/documents signs uploads under the upload prefix; GET /v1/runs/{run_id}/documents signs reads.
    bindDocumentAccess(this.rest.handler, config, documentsBucket);
    // A request whose output_destination already holds an object is refused (409): the API looks
    // (HeadObject) where results may be written.
    this.rest.handler
      .bindObjects(artifactsBucket, { read: [RESULTS_PREFIX] })
      .bindObjectLocations(config.results.additionalDestinations, "read");
    // POST /v1/batches reads a manifest where documents may be, and writes the batch's numbered copy.
    this.batches.grantCreateBatches(this.rest.handler, {
      documentsBucket,
      documentPrefixes: config.documents.allowedPrefixes,
      additional: config.documents.additionalLocations,
    });

    // ---- The dashboard as a static site, calling both APIs cross-origin --------------------------
    // Origins, not stage URLs, in the page's CSP: the stage depends on the methods, and the preflight
    // methods name the distribution's domain.
    const apiHost = (id: string) => `${id}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    if (config.dashboard.site) {
      // Built before the site, whose CSP names its endpoints; the callback URL is the site's, read
      // once the site exists.
      const signIn =
        config.dashboard.signIn !== false
          ? new OfficerSignIn(this, "OfficerSignIn", {
              restApi: this.restApi,
              siteUrl: Lazy.string({ produce: () => this.dashboard?.url }),
              environment: config.name,
              removalPolicy: config.removalPolicy,
            })
          : undefined;
      this.officerSignIn = signIn;
      this.dashboard = new DashboardSite(this, "Dashboard", {
        endpoints: {
          api: `https://${apiHost(this.restApi.restApiId)}`,
          ws: `wss://${apiHost(this.webSocketApi.apiId)}`,
          documents: `https://${documentsBucket.bucketRegionalDomainName}`,
          ...(signIn ? { signIn: signIn.connectSources } : {}),
        },
        config: {
          api: this.restApi.url,
          ws: this.webSocket.url,
          ...(signIn ? { auth: signIn.authConfig } : {}),
        },
        removalPolicy: config.removalPolicy,
      });
    }
    this.rest.allowBrowserOrigins([
      ...(this.dashboard ? [this.dashboard.origin] : []),
      ...config.dashboard.allowedOrigins,
    ]);

    if (config.api.createAccountLogRole) {
      const accountLogging = new ApiGatewayAccountLogging(this, "ApiGatewayAccountLogging");
      this.restApi.deploymentStage.node.addDependency(accountLogging.account);
      this.webSocketStage.node.addDependency(accountLogging.account);
    }

    const { planner, worker, solver, finalize } = this.workflow;
    const { websocket, authorizer, push } = this.webSocket;
    const api = this.rest.handler;
    this.functions = {
      planner,
      worker,
      solver,
      finalize,
      api,
      stream: this.rest.streamHandler,
      websocket,
      authorizer,
      push,
      batch: this.batches.function,
    };

    new ServiceAlarms(this, "Alarms", {
      topicArn: config.alarms.topicArn,
      removalPolicy: config.removalPolicy,
      stateMachine: this.stateMachine,
      functions: this.functions,
      reserved: { worker, api },
      batches: this.batches,
      restApi: this.restApi,
      finalizeDeadLetters: this.workflow.finalizeDeadLetters,
      pushDeadLetters: this.webSocket.pushDeadLetters,
      push,
    });

    // ---- Outputs -------------------------------------------------------------------------------
    new CfnOutput(this, "RestApiUrl", { value: this.restApi.url, description: "REST API base URL (SigV4)" });
    new CfnOutput(this, "WebSocketUrl", {
      value: this.webSocket.url,
      description: "WebSocket URL (?token=…)",
    });
    if (this.dashboard) {
      new CfnOutput(this, "DashboardUrl", {
        value: this.dashboard.url,
        description: "The dashboard (static site on CloudFront; config.json points it at both APIs)",
      });
    }
    if (this.officerSignIn) {
      new CfnOutput(this, "OfficerUserPoolId", {
        value: this.officerSignIn.userPool.userPoolId,
        description: "Loan officers' user pool (aws cognito-idp admin-create-user --user-pool-id …)",
      });
      new CfnOutput(this, "OfficerSignInUrl", {
        value: this.officerSignIn.authConfig.domain,
        description: "The hosted sign-in page's domain (the dashboard sends officers there)",
      });
    }
    new CfnOutput(this, "StateMachineArn", { value: this.stateMachine.stateMachineArn });
    new CfnOutput(this, "BatchStateMachineArn", { value: this.batches.stateMachine.stateMachineArn });
    new CfnOutput(this, "DocumentsBucketName", { value: documentsBucket.bucketName });
    new CfnOutput(this, "ArtifactsBucketName", { value: artifactsBucket.bucketName });
    for (const [name, audience, description] of [
      ["CustomerTokenSecretArn", "customer", "HMAC key of customer tokens (the bank's sign-in mints them)"],
      ["RunTokenSecretArn", "run", "HMAC key of run (subscribe) tokens"],
      ["OperatorTokenSecretArn", "operator", "HMAC key of operator tokens (rewoo operator-token)"],
    ] as const) {
      new CfnOutput(this, name, { value: data.tokenSecrets[audience].secretArn, description });
    }
  }

  /** A resource's logical id as if the transparent concerns' children were the stack's own. */
  protected override allocateLogicalId(element: CfnElement): string {
    const transparent = (scope: IConstruct) =>
      scope.node.scope === this && TRANSPARENT_CONCERNS.has(scope.node.id);
    const scopes = element.node.scopes;
    if (!scopes.some(transparent)) return super.allocateLogicalId(element);
    // Stack.allocateLogicalId reads only the element's scopes and stack: hand it the path without them.
    const visible = scopes.filter((scope) => !transparent(scope));
    return super.allocateLogicalId({ node: { scopes: visible }, stack: this } as unknown as CfnElement);
  }
}
