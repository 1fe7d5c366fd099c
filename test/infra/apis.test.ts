// The REST API for loan systems and the WebSocket API for dashboards.
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { REST_METHODS, WEBSOCKET_ROUTE_KEYS, WEBSOCKET_ROUTES } from "../../lambdas/contracts/routes.ts";
import { type Cfn, configWith, functionAccess, resourcesOf, type Synthesized, synthesize } from "./synth.ts";

/** `METHOD /path` of every API Gateway method, rebuilt from the resource tree. */
function deployedRoutes(s: Synthesized): Map<string, Cfn> {
  const resources = resourcesOf(s.serviceTemplate, "AWS::ApiGateway::Resource");
  const pathOf = (ref: unknown): string => {
    const id = (ref as { Ref?: string }).Ref;
    const resource = id ? resources[id] : undefined;
    if (!resource) return "";
    return `${pathOf(resource.Properties?.ParentId)}/${resource.Properties?.PathPart}`;
  };
  // OPTIONS methods are CORS preflights, not routes (test/infra/dashboard-site.test.ts).
  const methods = Object.values(resourcesOf(s.serviceTemplate, "AWS::ApiGateway::Method")).filter(
    (m) => m.Properties?.HttpMethod !== "OPTIONS",
  );
  return new Map(
    methods.map((m) => [
      `${m.Properties?.HttpMethod} ${pathOf(m.Properties?.ResourceId)}`,
      m.Properties ?? {},
    ]),
  );
}

describe("REST API (dev)", () => {
  let dev: Synthesized;
  let routes: Map<string, Cfn>;
  beforeAll(() => {
    dev = synthesize();
    routes = deployedRoutes(dev);
  });

  it("deploys exactly the methods of the route table", () => {
    const expected = REST_METHODS.map((route) => `${route.method} ${route.resource}`);
    expect([...routes.keys()].sort()).toEqual(expected.sort());
    expect([...routes.keys()]).toEqual(
      expect.arrayContaining([
        "POST /v1/evaluate-conditions",
        "POST /v1/evaluate-loan-conditions",
        "GET /v1/runs",
        "GET /v1/runs/{run_id}",
        "GET /v1/runs/{run_id}/events",
        "POST /v1/runs/{run_id}/cancel",
        "POST /v1/runs/{run_id}/resume",
        "GET /health",
      ]),
    );
  });

  it("deploys each method with the table's authorization, body model and path parameters", () => {
    const models = resourcesOf(dev.serviceTemplate, "AWS::ApiGateway::Model");
    for (const route of REST_METHODS) {
      const key = `${route.method} ${route.resource}`;
      const method = routes.get(key);
      expect(method?.AuthorizationType, key).toBe(route.auth === "none" ? "NONE" : "AWS_IAM");
      const modelRef = method?.RequestModels?.["application/json"]?.Ref as string | undefined;
      expect(
        modelRef === undefined ? undefined : models[modelRef]?.Properties?.Schema?.required,
        key,
      ).toEqual(route.body === "evaluation_request" ? ["metadata", "s3_pdf_paths"] : undefined);
      const parameters = [...route.resource.matchAll(/\{(\w+)\}/g)].map((m) => [
        `method.request.path.${m[1]}`,
        true,
      ]);
      expect(method?.RequestParameters, key).toEqual(
        parameters.length ? Object.fromEntries(parameters) : undefined,
      );
    }
  });

  it("deploys POST /v1/runs/{run_id}/resume like cancel: IAM, the run id required, the API function", () => {
    const resume = routes.get("POST /v1/runs/{run_id}/resume");
    const cancel = routes.get("POST /v1/runs/{run_id}/cancel");
    expect(resume).toMatchObject({
      AuthorizationType: "AWS_IAM",
      RequestParameters: { "method.request.path.run_id": true },
      Integration: { Type: "AWS_PROXY", IntegrationHttpMethod: "POST" },
    });
    expect(resume?.Integration.Uri).toEqual(cancel?.Integration.Uri);
  });

  it("lets the API describe executions of this state machine (resume reads where a run stopped)", () => {
    expect(functionAccess(dev.serviceTemplate, "rewoo-api").allowing("states:DescribeExecution")).toEqual([
      expect.stringMatching(/:execution:<StateMachine\w+\.Name>:\*$/),
    ]);
  });

  it("requires IAM (SigV4) authorization on every method but the liveness probe", () => {
    for (const [route, method] of routes) {
      expect(method.AuthorizationType, route).toBe(route === "GET /health" ? "NONE" : "AWS_IAM");
      expect(method.ApiKeyRequired ?? false, route).toBe(false);
    }
  });

  it("proxies every buffered method to the API function", () => {
    const api = functionAccess(dev.serviceTemplate, "rewoo-api").logicalId;
    const buffered = REST_METHODS.filter((route) => route.transfer !== "stream");
    expect(buffered.length).toBeGreaterThan(5);
    for (const route of buffered) {
      const key = `${route.method} ${route.resource}`;
      const method = routes.get(key) as Cfn;
      expect(method.Integration.Type, key).toBe("AWS_PROXY");
      expect(JSON.stringify(method.Integration.Uri), key).toContain(`"${api}","Arn"`);
      expect(JSON.stringify(method.Integration.Uri), key).toMatch(/\/invocations"\]\]\}$/);
      expect(method.Integration.ResponseTransferMode, key).toBeUndefined();
    }
  });

  it("streams every `transfer: stream` method from the stream function (InvokeWithResponseStream, 15 minutes)", () => {
    const stream = functionAccess(dev.serviceTemplate, "rewoo-stream").logicalId;
    const streamed = REST_METHODS.filter((route) => route.transfer === "stream");
    expect(streamed.map((route) => `${route.method} ${route.resource}`)).toContain(
      "GET /v1/runs/{run_id}/stream",
    );
    for (const route of streamed) {
      const key = `${route.method} ${route.resource}`;
      const method = routes.get(key) as Cfn;
      expect(method.AuthorizationType, key).toBe("AWS_IAM");
      expect(method.Integration).toMatchObject({
        Type: "AWS_PROXY",
        IntegrationHttpMethod: "POST",
        ResponseTransferMode: "STREAM",
        TimeoutInMillis: 15 * 60 * 1000,
      });
      const uri = method.Integration.Uri["Fn::Join"][1] as unknown[];
      expect(JSON.stringify(uri), key).toContain(`"${stream}","Arn"`);
      expect(uri.at(-1), key).toBe("/response-streaming-invocations");
    }
  });

  it("gives the stream function read access to the runs table and nothing else but its logs", () => {
    const stream = functionAccess(dev.serviceTemplate, "rewoo-stream");
    const actions = stream.statements.flatMap((statement) =>
      Array.isArray(statement.Action) ? statement.Action : [statement.Action],
    );
    expect(new Set(actions)).toEqual(
      new Set([
        "dynamodb:GetItem",
        "dynamodb:BatchGetItem",
        "dynamodb:Query",
        "dynamodb:ConditionCheckItem",
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "xray:PutTraceSegments",
        "xray:PutTelemetryRecords",
      ]),
    );
    expect(stream.allowing("dynamodb:GetItem")).toEqual([expect.stringMatching(/RunsTable/)]);
    expect(stream.properties.Timeout).toBe(900);
    expect(stream.environment).toMatchObject({ RUNS_TABLE: expect.anything() });
  });

  it("validates requests: an evaluation body needs metadata and s3_pdf_paths, run routes need the run id", () => {
    for (const [route, method] of routes) expect(method.RequestValidatorId, route).toBeDefined();
    dev.serviceTemplate.hasResourceProperties("AWS::ApiGateway::RequestValidator", {
      ValidateRequestBody: true,
      ValidateRequestParameters: true,
    });
    const model = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGateway::Model"))[0]?.Properties;
    expect(model?.Schema).toMatchObject({
      type: "object",
      required: ["metadata", "s3_pdf_paths"],
      properties: { s3_pdf_paths: { type: "array", minItems: 1 } },
    });
    for (const route of ["POST /v1/evaluate-conditions", "POST /v1/evaluate-loan-conditions"]) {
      expect(routes.get(route)?.RequestModels, route).toEqual({
        "application/json": { Ref: expect.any(String) },
      });
    }
    expect(routes.get("POST /v1/runs/{run_id}/cancel")?.RequestParameters).toEqual({
      "method.request.path.run_id": true,
    });
  });

  it("answers an invalid body in the API's own error shape", () => {
    dev.serviceTemplate.hasResourceProperties("AWS::ApiGateway::GatewayResponse", {
      ResponseType: "BAD_REQUEST_BODY",
      ResponseTemplates: {
        "application/json": Match.stringLikeRegexp('^\\{"error":\\{"code":"invalid_request"'),
      },
    });
  });

  it("writes JSON access logs, traces with X-Ray, throttles, and never logs bodies", () => {
    const stage = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGateway::Stage"))[0]?.Properties;
    expect(stage?.TracingEnabled).toBe(true);
    expect(stage?.AccessLogSetting.DestinationArn).toEqual({
      "Fn::GetAtt": [expect.stringMatching(/^RestApiAccessLogs/), "Arn"],
    });
    expect(JSON.parse(stage?.AccessLogSetting.Format)).toMatchObject({ requestId: "$context.requestId" });
    expect(stage?.MethodSettings).toEqual([
      expect.objectContaining({
        HttpMethod: "*",
        ResourcePath: "/*",
        LoggingLevel: "ERROR",
        DataTraceEnabled: false,
        MetricsEnabled: true,
        ThrottlingRateLimit: dev.config.api.throttle.rateLimit,
        ThrottlingBurstLimit: dev.config.api.throttle.burstLimit,
      }),
    ]);
  });

  it("tells the API function its public URL and the WebSocket URL", () => {
    const env = functionAccess(dev.serviceTemplate, "rewoo-api").environment;
    expect(JSON.stringify(env.PUBLIC_API_URL)).toMatch(/^\{"Fn::Join":\["",\["https:\/\/",\{"Ref":"RestApi/);
    expect(JSON.stringify(env.WEBSOCKET_URL)).toContain('"wss://"');
  });
});

describe("REST API with api.authorization = api-key", () => {
  it("requires an API key on every method and throttles it with a usage plan", () => {
    const keyed = synthesize({
      config: configWith("dev", (base) => ({ api: { ...base.api, authorization: "api-key" } })),
    });
    for (const [route, method] of deployedRoutes(keyed)) {
      expect(method.AuthorizationType, route).toBe("NONE");
      expect(method.ApiKeyRequired, route).toBe(route !== "GET /health");
    }
    keyed.serviceTemplate.resourceCountIs("AWS::ApiGateway::ApiKey", 1);
    keyed.serviceTemplate.hasResourceProperties("AWS::ApiGateway::UsagePlan", {
      Throttle: {
        RateLimit: keyed.config.api.throttle.rateLimit,
        BurstLimit: keyed.config.api.throttle.burstLimit,
      },
    });
  });
});

describe("WebSocket API (dev)", () => {
  let dev: Synthesized;
  beforeAll(() => {
    dev = synthesize();
  });

  const route = (key: string) => {
    const found = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGatewayV2::Route")).find(
      (r) => r.Properties?.RouteKey === key,
    );
    if (!found) throw new Error(`no ${key} route`);
    return found.Properties as Cfn;
  };

  it("has exactly the routes of the route table ($connect, $disconnect, subscribe, $default)", () => {
    const keys = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGatewayV2::Route")).map(
      (r) => r.Properties?.RouteKey,
    );
    expect(keys.sort()).toEqual([...WEBSOCKET_ROUTE_KEYS].sort());
    expect(keys).toEqual(expect.arrayContaining(["$connect", "$default", "$disconnect", "subscribe"]));
    dev.serviceTemplate.hasResourceProperties("AWS::ApiGatewayV2::Api", {
      ProtocolType: "WEBSOCKET",
      RouteSelectionExpression: "$request.body.action",
    });
  });

  it("authorizes only the routes the table says, and sends every route to the WebSocket function", () => {
    const websocketFn = functionAccess(dev.serviceTemplate, "rewoo-websocket").logicalId;
    const integrations = resourcesOf(dev.serviceTemplate, "AWS::ApiGatewayV2::Integration");
    for (const key of WEBSOCKET_ROUTE_KEYS) {
      const deployed = route(key);
      expect(deployed.AuthorizationType ?? "NONE", key).toBe(
        WEBSOCKET_ROUTES[key].auth === "token" ? "CUSTOM" : "NONE",
      );
      const integrationId = (deployed.Target as { "Fn::Join": [string, unknown[]] })["Fn::Join"][1][1] as {
        Ref: string;
      };
      expect(JSON.stringify(integrations[integrationId.Ref]?.Properties?.IntegrationUri), key).toContain(
        `"${websocketFn}","Arn"`,
      );
    }
  });

  it("authorizes $connect with the token authorizer, reading the token from the query string", () => {
    const connect = route("$connect");
    expect(connect.AuthorizationType).toBe("CUSTOM");
    const authorizers = resourcesOf(dev.serviceTemplate, "AWS::ApiGatewayV2::Authorizer");
    const authorizer = authorizers[connect.AuthorizerId.Ref as string]?.Properties;
    expect(authorizer).toMatchObject({
      AuthorizerType: "REQUEST",
      IdentitySource: ["route.request.querystring.token"],
    });
    const authorizerFn = functionAccess(dev.serviceTemplate, "rewoo-authorizer").logicalId;
    expect(JSON.stringify(authorizer?.AuthorizerUri)).toContain(`"${authorizerFn}","Arn"`);
  });

  it("writes access logs and error logs, never message bodies, and throttles", () => {
    dev.serviceTemplate.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
      StageName: "dev",
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: { "Fn::GetAtt": [Match.stringLikeRegexp("^WebSocketAccessLogs"), "Arn"] },
        Format: Match.stringLikeRegexp("\\$context.connectionId"),
      },
      DefaultRouteSettings: {
        LoggingLevel: "ERROR",
        DataTraceEnabled: false,
        ThrottlingRateLimit: dev.config.api.throttle.rateLimit,
        ThrottlingBurstLimit: dev.config.api.throttle.burstLimit,
      },
    });
  });

  it("lets execution logging wait for the account's API Gateway logging role", () => {
    const account = Object.keys(resourcesOf(dev.serviceTemplate, "AWS::ApiGateway::Account"))[0];
    dev.serviceTemplate.hasResource("AWS::ApiGatewayV2::Stage", { DependsOn: Match.arrayWith([account]) });
    dev.serviceTemplate.hasResource("AWS::ApiGateway::Stage", { DependsOn: Match.arrayWith([account]) });
  });
});
