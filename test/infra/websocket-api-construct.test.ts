// The WebSocket API construct on its own: the route table's routes, the token authorizer on $connect,
// Push consuming the runs table's stream; no unacknowledged cdk-nag finding.
import { Match } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { RewooWebSocketApi } from "../../infra/constructs/websocket-api.ts";
import { WEBSOCKET_ROUTE_KEYS } from "../../lambdas/contracts/routes.ts";
import { bareStack, nagFindings } from "./construct-stack.ts";
import { resourcesOf } from "./synth.ts";

describe("RewooWebSocketApi", () => {
  const bare = bareStack();
  const ws = new RewooWebSocketApi(bare.stack, "Live", { ...bare, environment: bare.environments.base });
  const template = bare.template();

  it("deploys the route table's routes and authorizes $connect with the token", () => {
    const routes = Object.values(resourcesOf(template, "AWS::ApiGatewayV2::Route"));
    expect(routes.map((route) => route.Properties?.RouteKey).sort()).toEqual(
      [...WEBSOCKET_ROUTE_KEYS].sort(),
    );
    template.hasResourceProperties("AWS::ApiGatewayV2::Authorizer", {
      IdentitySource: ["route.request.querystring.token"],
    });
  });

  it("feeds Push from the runs table's stream, with failures to its dead-letter queue", () => {
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      StartingPosition: "LATEST",
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
    const functions = Object.values(resourcesOf(template, "AWS::Lambda::Function"));
    expect(functions).toHaveLength(3);
    for (const fn of functions) expect(fn.Properties?.TracingConfig).toEqual({ Mode: "Active" });
  });

  it("has no unacknowledged cdk-nag AwsSolutions finding", () => {
    expect(nagFindings(bare.app, ws)).toEqual([]);
  });
});
