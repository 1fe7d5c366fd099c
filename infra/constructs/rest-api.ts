// The REST API for loan systems: its resources and methods are lambdas/contracts/routes.ts
// (REST_METHODS), each with IAM (or api-key) authorization, request validation and the API function
// behind it; a method whose contract says `transfer: "stream"` is served instead by the stream
// function with API Gateway's response streaming (Server-Sent Events, up to 15 minutes).
import { Aws, Duration, Token, Validations } from "aws-cdk-lib";
import * as apigateway from "aws-cdk-lib/aws-apigateway";
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as logs from "aws-cdk-lib/aws-logs";
import type * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import * as wafv2 from "aws-cdk-lib/aws-wafv2";
import { Construct } from "constructs";
import {
  CORS_ALLOWED_HEADERS,
  CORS_MAX_AGE_SECONDS,
  originPatternProblem,
  originPatternSource,
} from "../../lambdas/contracts/cors.ts";
import { ENV } from "../../lambdas/contracts/environment.ts";
import {
  type BodyContract,
  methodsOf,
  pathParametersOf,
  REST_METHODS,
  REST_RESOURCES,
} from "../../lambdas/contracts/routes.ts";
import { RUNS_BY_DAY_INDEX } from "../../lambdas/contracts/tables.ts";
import { API_INTEGRATION_TIMEOUT, restStageDefaults } from "./defaults.ts";
import type { RewooFunction } from "./rewoo-function.ts";
import { type ServiceFunctionContext, serviceFunction } from "./service-functions.ts";

/**
 * How long one event stream may stay open: API Gateway ends a streamed response after 15 minutes
 * (and its integration timeout may be raised that far only for STREAM). The function may run as long;
 * the handler closes the stream itself before its remaining time runs out.
 */
export const STREAM_TIMEOUT = Duration.minutes(15);

export interface RestApiProps extends ServiceFunctionContext {
  readonly runsTable: dynamodb.ITable;
  /** The workflow the API starts, stops and describes executions of. */
  readonly stateMachine: sfn.StateMachine;
  /** The API verifies customer tokens (POST /v1/chat) and mints run tokens; it never sees the operator key. */
  readonly tokenSecrets: { readonly customer: secretsmanager.ISecret; readonly run: secretsmanager.ISecret };
  /** lambdas/runtime/config.ts's required variables. */
  readonly environment: Record<string, string>;
  /** More variables of the API function alone (result destinations, the WebSocket URL). */
  readonly apiEnvironment: Record<string, string>;
}

export class RewooRestApi extends Construct {
  /** The API function: every buffered method. */
  readonly handler: RewooFunction;
  /** The stream function: every method whose contract says `transfer: "stream"`. */
  readonly streamHandler: RewooFunction;
  readonly api: apigateway.RestApi;
  /** The gateway's answer to a body that is not even a request (its CORS headers come later). */
  private invalidBody?: apigateway.GatewayResponse;

  constructor(scope: Construct, id: string, props: RestApiProps) {
    super(scope, id);
    const { config, runsTable } = props;
    const fn = serviceFunction.bind(undefined, this, props);

    this.handler = fn(
      "Api",
      "lambdas/api/index.ts",
      {
        description: "REST API: start, read, cancel and resume runs; answer and approve waiting runs",
        memorySize: 1024,
        timeout: API_INTEGRATION_TIMEOUT,
        reservedConcurrentExecutions: config.reservedConcurrency.api,
      },
      { ...props.environment, ...props.apiEnvironment },
    )
      .bindTable(runsTable, {
        access: "readWrite",
        envName: ENV.RUNS_TABLE,
        indexes: [RUNS_BY_DAY_INDEX],
      })
      .bindStateMachine(props.stateMachine)
      .bindTaskResponses()
      .bindSecret(props.tokenSecrets.customer, ENV.REWOO_CUSTOMER_TOKEN_SECRET_ARN)
      .bindSecret(props.tokenSecrets.run, ENV.REWOO_RUN_TOKEN_SECRET_ARN);

    // Reads a run and its stored events, nothing else: it writes nothing and starts nothing.
    this.streamHandler = fn(
      "Stream",
      "lambdas/stream/index.ts",
      {
        description: "GET /v1/runs/{run_id}/stream: a run's progress events as Server-Sent Events",
        memorySize: 256,
        timeout: STREAM_TIMEOUT,
      },
      props.environment,
    ).bindTable(runsTable, { access: "read", envName: ENV.RUNS_TABLE });

    this.api = this.buildRestApi(props);
    // Built from the API id and the literal stage name: the stage itself depends on the function.
    this.handler.addEnvironment(
      ENV.PUBLIC_API_URL,
      `https://${this.api.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${config.name}`,
    );
  }

  private buildRestApi(props: RestApiProps): apigateway.RestApi {
    const { config } = props;
    const accessLogs = new logs.LogGroup(this, "RestApiAccessLogs", {
      retention: config.logRetention,
      encryptionKey: props.logsKey,
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

    // RestApi adds its own URL output; the stack's RestApiUrl is the one documented.
    api.node.tryRemoveChild("Endpoint");

    const integrations = {
      buffered: new apigateway.LambdaIntegration(this.handler, {
        proxy: true,
        // One invoke permission for the whole API instead of one per method and test stage.
        scopePermissionToMethod: false,
      }),
      // InvokeWithResponseStream (…/response-streaming-invocations): API Gateway forwards each chunk
      // as the function writes it, past the 29-second limit of buffered integrations.
      stream: new apigateway.LambdaIntegration(this.streamHandler, {
        proxy: true,
        scopePermissionToMethod: false,
        responseTransferMode: apigateway.ResponseTransferMode.STREAM,
        timeout: STREAM_TIMEOUT,
      }),
    };
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
    this.invalidBody = api.addGatewayResponse("InvalidBody", {
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
      resource.addMethod(route.method, integrations[route.transfer ?? "buffered"], {
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

  /**
   * Lets pages on `allowedOrigins` call the API from a browser (CORS). API Gateway answers every
   * resource's OPTIONS preflight itself (a mock integration, unauthenticated as preflights must be:
   * a browser sends them without credentials) with the resource's methods and the allowed headers,
   * echoing the Origin when it is allowed; the API function marks its own answers the same way
   * (REWOO_ALLOWED_ORIGINS, lambdas/api/http.ts withCors); the gateway's own errors echo the Origin.
   * An origin is exact (it may be a token, e.g. the distribution's domain) or a pattern with one `*`.
   */
  allowBrowserOrigins(allowedOrigins: readonly string[]): void {
    if (allowedOrigins.length === 0) return;
    const exact = allowedOrigins.filter((origin) => Token.isUnresolved(origin) || !origin.includes("*"));
    const patterns = allowedOrigins.filter((origin) => !exact.includes(origin));
    for (const origin of allowedOrigins) {
      const problem = Token.isUnresolved(origin) ? undefined : originPatternProblem(origin);
      if (problem) throw new Error(`dashboard.allowedOrigins: ${problem}`);
    }
    // VTL of the mock integration: the Origin header (either case), compared with the exact origins
    // and matched (Java's String.matches, the whole string) against the patterns.
    const conditions = [
      ...exact.map((origin) => `$origin == "${origin}"`),
      ...(patterns.length
        ? [`$origin.matches("(${patterns.map((pattern) => originPatternSource(pattern)).join("|")})")`]
        : []),
    ];
    const template = [
      '#set($origin = $input.params().header.get("Origin"))',
      '#if("$!origin" == "")',
      '  #set($origin = $input.params().header.get("origin"))',
      "#end",
      `#if("$!origin" != "" && (${conditions.join(" || ")}))`,
      "  #set($context.responseOverride.header.Access-Control-Allow-Origin = $origin)",
      "#end",
    ].join("\n");
    for (const path of REST_RESOURCES) {
      const resource = this.api.root.resourceForPath(path);
      const headers: Record<string, string> = {
        "Access-Control-Allow-Methods": `'${[...methodsOf(path), "OPTIONS"].join(",")}'`,
        "Access-Control-Allow-Headers": `'${CORS_ALLOWED_HEADERS.join(",")}'`,
        "Access-Control-Max-Age": `'${CORS_MAX_AGE_SECONDS}'`,
        Vary: "'Origin'",
      };
      // cdk-nag recognises a CORS preflight (OPTIONS with CORS headers) and does not ask it for authorization.
      resource.addMethod(
        "OPTIONS",
        new apigateway.MockIntegration({
          requestTemplates: { "application/json": '{"statusCode": 204}' },
          integrationResponses: [
            {
              statusCode: "204",
              responseParameters: Object.fromEntries(
                Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, value]),
              ),
              responseTemplates: { "application/json": template },
            },
          ],
        }),
        {
          authorizationType: apigateway.AuthorizationType.NONE,
          apiKeyRequired: false,
          methodResponses: [
            {
              statusCode: "204",
              responseParameters: Object.fromEntries(
                [...Object.keys(headers), "Access-Control-Allow-Origin"].map((name) => [
                  `method.response.header.${name}`,
                  true,
                ]),
              ),
            },
          ],
        },
      );
    }

    // Errors API Gateway makes before the function runs (a body that is not a request, a refused
    // signature, throttling): the page can read why. They carry no data, so the Origin is echoed as is.
    const corsEcho = {
      "Access-Control-Allow-Origin": "method.request.header.Origin",
      Vary: "'Origin'",
    };
    this.api.addGatewayResponse("Default4xx", {
      type: apigateway.ResponseType.DEFAULT_4XX,
      responseHeaders: corsEcho,
    });
    this.api.addGatewayResponse("Default5xx", {
      type: apigateway.ResponseType.DEFAULT_5XX,
      responseHeaders: corsEcho,
    });
    const invalidBody = this.invalidBody?.node.defaultChild as apigateway.CfnGatewayResponse | undefined;
    for (const [name, value] of Object.entries(corsEcho)) {
      invalidBody?.addPropertyOverride(`ResponseParameters.gatewayresponse\\.header\\.${name}`, value);
    }

    this.handler.addEnvironment(ENV.REWOO_ALLOWED_ORIGINS, allowedOrigins.join(","));
  }
}
