// The WebSocket API for dashboards: its routes are lambdas/contracts/routes.ts (WEBSOCKET_ROUTES), the
// $connect authorizer checks the subscribe/operator token, the ws function answers the routes, and
// Push delivers new progress events from the runs table's stream to subscribed connections.
import { Aws, Duration, Validations } from "aws-cdk-lib";
import * as apigwv2 from "aws-cdk-lib/aws-apigatewayv2";
import { WebSocketLambdaAuthorizer } from "aws-cdk-lib/aws-apigatewayv2-authorizers";
import { WebSocketLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as lambda from "aws-cdk-lib/aws-lambda";
import { SqsDlq } from "aws-cdk-lib/aws-lambda-event-sources";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { Construct } from "constructs";
import { ENV } from "../../lambdas/contracts/environment.ts";
import { PUSH_STREAM_FILTERS } from "../../lambdas/contracts/event-patterns.ts";
import {
  WEBSOCKET_ROUTE_KEYS,
  WEBSOCKET_ROUTE_SELECTION_EXPRESSION,
  WEBSOCKET_ROUTES,
  type WebSocketRouteKey,
} from "../../lambdas/contracts/routes.ts";
import { DeadLetterQueue } from "./dead-letter-queue.ts";
import { webSocketAccessLogFormat } from "./defaults.ts";
import type { RewooFunction } from "./rewoo-function.ts";
import { type ServiceFunctionContext, serviceFunction } from "./service-functions.ts";

export interface WebSocketApiProps extends ServiceFunctionContext {
  /** The runs table; Push consumes its stream. */
  readonly runsTable: dynamodb.ITable;
  readonly connectionsTable: dynamodb.ITable;
  /** The $connect authorizer verifies run and operator tokens; it never sees the customer key. */
  readonly tokenSecrets: { readonly run: secretsmanager.ISecret; readonly operator: secretsmanager.ISecret };
  /** lambdas/runtime/config.ts's required variables. */
  readonly environment: Record<string, string>;
}

export class RewooWebSocketApi extends Construct {
  readonly authorizer: RewooFunction;
  readonly websocket: RewooFunction;
  readonly push: RewooFunction;
  readonly api: apigwv2.WebSocketApi;
  readonly stage: apigwv2.WebSocketStage;
  readonly pushDeadLetters: DeadLetterQueue;
  /** wss://…/<stage>, what clients connect to. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: WebSocketApiProps) {
    super(scope, id);
    const { config, environment, runsTable } = props;
    const fn = serviceFunction.bind(undefined, this, props);

    const authorizer = fn(
      "Authorizer",
      "lambdas/ws/authorizer.ts",
      {
        description: "WebSocket $connect authorizer: checks the run (subscribe) or operator token",
        memorySize: 256,
        timeout: Duration.seconds(10),
      },
      environment,
    )
      .bindSecret(props.tokenSecrets.run, ENV.REWOO_RUN_TOKEN_SECRET_ARN)
      .bindSecret(props.tokenSecrets.operator, ENV.REWOO_OPERATOR_TOKEN_SECRET_ARN);
    const websocket = fn(
      "WebSocket",
      "lambdas/ws/index.ts",
      {
        description: "WebSocket routes: connect, disconnect, subscribe (replays stored events)",
        memorySize: 512,
        timeout: Duration.seconds(28),
      },
      environment,
    );
    this.authorizer = authorizer;
    this.websocket = websocket;

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
    this.api = new apigwv2.WebSocketApi(this, "WebSocketApi", {
      description: `ReWOO run progress (${config.name})`,
      routeSelectionExpression: WEBSOCKET_ROUTE_SELECTION_EXPRESSION,
      connectRouteOptions: webSocketRoute("$connect"),
      disconnectRouteOptions: webSocketRoute("$disconnect"),
      defaultRouteOptions: webSocketRoute("$default"),
    });
    for (const key of WEBSOCKET_ROUTE_KEYS) {
      if (!key.startsWith("$")) this.api.addRoute(key, webSocketRoute(key));
      if (WEBSOCKET_ROUTES[key].auth !== "none") continue;
      Validations.of(this.api.node.findChild(`${key}-Route`)).acknowledge({
        id: "AwsSolutions-APIG4",
        reason:
          "WebSocket APIs authorize at $connect only (the token authorizer); later routes run on that " +
          "authorized connection and check the connection's scope before subscribing it to a run.",
      });
    }

    const accessLogs = new logs.LogGroup(this, "WebSocketAccessLogs", {
      retention: config.logRetention,
      encryptionKey: props.logsKey,
      removalPolicy: config.removalPolicy,
    });
    this.stage = new apigwv2.WebSocketStage(this, "WebSocketStage", {
      webSocketApi: this.api,
      stageName: config.name,
      autoDeploy: true,
      throttle: config.api.throttle,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: webSocketAccessLogFormat,
      },
    });
    // WebSocket execution logs (errors only, never message bodies); WebSocketStage has no prop for it.
    const cfnStage = this.stage.node.defaultChild as apigwv2.CfnStage;
    cfnStage.addPropertyOverride("DefaultRouteSettings.LoggingLevel", "ERROR");
    cfnStage.addPropertyOverride("DefaultRouteSettings.DataTraceEnabled", false);
    this.url = `wss://${this.api.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${config.name}`;

    // Subscribe replays a run's stored events to the new subscriber itself.
    websocket
      .bindTable(runsTable, { access: "read", envName: ENV.RUNS_TABLE })
      .bindWebSocketPush(this.stage, props.connectionsTable, { access: "readWrite" });

    // Live delivery, off the workflow's critical path: publishers only write EVENT# items, and the
    // runs table's stream hands each new one to Push, which drains it to the run's connections.
    // A failed push is not lost: the connection's cursor stays put and the next event (or a
    // resubscribe) delivers everything after it.
    this.pushDeadLetters = new DeadLetterQueue(this, "PushDeadLetters", {
      deadLettersOf: "the runs-table stream consumer (Push)",
      removalPolicy: config.removalPolicy,
    });
    this.push = fn(
      "Push",
      "lambdas/ws/push.ts",
      {
        description:
          "Live delivery: pushes new progress events from the runs table's stream to WebSocket subscribers",
        memorySize: 512,
        timeout: Duration.seconds(60),
      },
      environment,
    )
      .bindTable(runsTable, { access: "read", envName: ENV.RUNS_TABLE })
      .bindWebSocketPush(this.stage, props.connectionsTable, { access: "readUpdate" })
      .bindTableStream(runsTable, {
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
        onFailure: new SqsDlq(this.pushDeadLetters),
      });
  }
}
