// What the CDK app deploys against what the contracts say and what the local twin emulates: a change
// made on one side alone fails here. The tables: every DynamoDB table of the Data stack has exactly the
// keys, attribute definitions, indexes, TTL and billing of the table the twin creates
// (infra/local/provision.ts twinTables), and the stream of lambdas/contracts/tables.ts. The APIs: the
// Service stack's REST resources, methods and authorization are REST_ROUTES, and its WebSocket routes
// are WEBSOCKET_ROUTES (lambdas/contracts/routes.ts), which the twin's gateway serves; every route
// resource also answers CORS preflights (OPTIONS), as the twin's gateway does.
import { beforeAll, describe, expect, it } from "vitest";
import { type TwinTable, twinTables } from "../../infra/local/provision.ts";
import {
  REST_METHODS,
  REST_RESOURCES,
  WEBSOCKET_ROUTE_SELECTION_EXPRESSION,
  WEBSOCKET_ROUTES,
} from "../../lambdas/contracts/routes.ts";
import { TABLES } from "../../lambdas/contracts/tables.ts";
import { type Cfn, resourcesOf, type Synthesized, synthesize } from "./synth.ts";

/** The Data stack's tables by the logical-id prefix of their construct, and their name in the twin. */
const TWIN_NAMES = { RunsTable: "runs", ConnectionsTable: "connections", CoreBankingTable: "core-banking" };

type Named = { AttributeName?: string };
const byName = <T extends Named>(list: readonly T[] | undefined) =>
  [...(list ?? [])].sort((a, b) => String(a.AttributeName).localeCompare(String(b.AttributeName)));

type Index = { IndexName?: string; KeySchema?: unknown; Projection?: unknown };
const indexes = (list: readonly Index[] | undefined) =>
  [...(list ?? [])]
    .map(({ IndexName, KeySchema, Projection }) => ({ IndexName, KeySchema, Projection }))
    .sort((a, b) => String(a.IndexName).localeCompare(String(b.IndexName)));

// One synthesis for the whole file: both stacks are asserted on.
let dev: Synthesized;
beforeAll(() => {
  dev = synthesize();
});

describe("the Data stack's tables and the twin's", () => {
  let twin: Map<string, TwinTable>;
  let deployed: Map<string, Cfn>;
  beforeAll(() => {
    twin = new Map(
      twinTables({
        runsTable: TWIN_NAMES.RunsTable,
        connectionsTable: TWIN_NAMES.ConnectionsTable,
        coreBankingTable: TWIN_NAMES.CoreBankingTable,
      }).map((table) => [table.createTable.TableName as string, table]),
    );
    deployed = new Map(
      Object.entries(resourcesOf(dev.dataTemplate, "AWS::DynamoDB::Table")).map(([logicalId, table]) => {
        const prefix = Object.keys(TWIN_NAMES).find((candidate) => logicalId.startsWith(candidate));
        if (!prefix) throw new Error(`table ${logicalId} has no counterpart in the twin`);
        return [TWIN_NAMES[prefix as keyof typeof TWIN_NAMES], table.Properties ?? {}];
      }),
    );
  });

  it("are the same tables", () => {
    expect([...deployed.keys()].sort()).toEqual([...twin.keys()].sort());
  });

  it("have the same keys, attribute definitions and billing", () => {
    for (const [name, table] of deployed) {
      const local = twin.get(name)?.createTable;
      expect(table.KeySchema, name).toEqual(local?.KeySchema);
      expect(byName(table.AttributeDefinitions), name).toEqual(byName(local?.AttributeDefinitions));
      expect(table.BillingMode, name).toBe(local?.BillingMode);
    }
  });

  it("have the same global secondary indexes: names, keys and projections", () => {
    for (const [name, table] of deployed) {
      expect(indexes(table.GlobalSecondaryIndexes), name).toEqual(
        indexes(twin.get(name)?.createTable.GlobalSecondaryIndexes),
      );
    }
    // Not vacuous: the indexes the stores query exist on both sides.
    expect(indexes(deployed.get("runs")?.GlobalSecondaryIndexes).map((i) => i.IndexName)).toEqual([
      "by_day",
      "by_loan",
      "by_profile",
    ]);
    expect(indexes(deployed.get("connections")?.GlobalSecondaryIndexes).map((i) => i.IndexName)).toEqual([
      "by_run",
    ]);
  });

  it("expire items by the same TTL attribute, and only where the twin enables one", () => {
    for (const [name, table] of deployed) {
      expect(table.TimeToLiveSpecification, name).toEqual(
        twin.get(name)?.timeToLive?.TimeToLiveSpecification,
      );
    }
    expect(deployed.get("runs")?.TimeToLiveSpecification).toEqual({
      AttributeName: "expires_at",
      Enabled: true,
    });
  });

  it("stream only the runs table, with the contract's view (the twin records that stream from its writes)", () => {
    const streams = Object.fromEntries(
      [...deployed].map(([name, table]) => [name, table.StreamSpecification?.StreamViewType]),
    );
    expect(streams).toEqual({
      runs: TABLES.runs.stream,
      connections: undefined,
      "core-banking": undefined,
    });
  });
});

describe("the Service stack's APIs and the route contract", () => {
  /** Every REST resource's path, rebuilt from its parents. */
  const resourcePaths = (s: Synthesized) => {
    const resources = resourcesOf(s.serviceTemplate, "AWS::ApiGateway::Resource");
    const pathOf = (ref: unknown): string => {
      const resource = resources[(ref as { Ref?: string }).Ref ?? ""];
      return resource ? `${pathOf(resource.Properties?.ParentId)}/${resource.Properties?.PathPart}` : "";
    };
    return { resources, pathOf };
  };

  it("deploys exactly the contract's REST resources (and the parents their paths need)", () => {
    const { resources, pathOf } = resourcePaths(dev);
    const deployed = Object.keys(resources).map((id) => pathOf({ Ref: id }));
    const expected = new Set(
      REST_RESOURCES.flatMap((resource) => {
        const parts = resource.split("/").slice(1);
        return parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`);
      }),
    );
    expect(deployed.sort()).toEqual([...expected].sort());
  });

  it("deploys exactly the contract's REST methods, each with its authorization", () => {
    const { pathOf } = resourcePaths(dev);
    // OPTIONS methods are CORS preflights (answered by API Gateway itself), not routes: checked below.
    const deployed = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGateway::Method"))
      .filter((method) => method.Properties?.HttpMethod !== "OPTIONS")
      .map(
        (method) =>
          `${method.Properties?.HttpMethod} ${pathOf(method.Properties?.ResourceId)} ${method.Properties?.AuthorizationType}`,
      );
    // Stage authorization is IAM (SigV4) in every environment but one configured for API keys.
    const expected = REST_METHODS.map(
      (route) => `${route.method} ${route.resource} ${route.auth === "none" ? "NONE" : "AWS_IAM"}`,
    );
    expect(deployed.sort()).toEqual(expected.sort());
  });

  it("answers a CORS preflight on every route resource and nowhere else, unauthenticated, with its methods", () => {
    const { pathOf } = resourcePaths(dev);
    const preflights = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGateway::Method")).filter(
      (method) => method.Properties?.HttpMethod === "OPTIONS",
    );
    expect(preflights.map((method) => pathOf(method.Properties?.ResourceId)).sort()).toEqual(
      [...REST_RESOURCES].sort(),
    );
    for (const method of preflights) {
      const path = pathOf(method.Properties?.ResourceId);
      expect(method.Properties?.AuthorizationType, path).toBe("NONE");
      expect(method.Properties?.ApiKeyRequired, path).toBe(false);
      expect(method.Properties?.Integration?.Type, path).toBe("MOCK");
      const routes = REST_METHODS.filter((route) => route.resource === path).map((route) => route.method);
      expect(
        method.Properties?.Integration?.IntegrationResponses?.[0]?.ResponseParameters?.[
          "method.response.header.Access-Control-Allow-Methods"
        ],
        path,
      ).toBe(`'${[...routes, "OPTIONS"].join(",")}'`);
    }
  });

  it("deploys exactly the contract's WebSocket routes, each with its authorization", () => {
    const deployed = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGatewayV2::Route")).map(
      (route) => `${route.Properties?.RouteKey} ${route.Properties?.AuthorizationType ?? "NONE"}`,
    );
    const expected = Object.entries(WEBSOCKET_ROUTES).map(
      ([key, route]) => `${key} ${route.auth === "token" ? "CUSTOM" : "NONE"}`,
    );
    expect(deployed.sort()).toEqual(expected.sort());
    dev.serviceTemplate.hasResourceProperties("AWS::ApiGatewayV2::Api", {
      ProtocolType: "WEBSOCKET",
      RouteSelectionExpression: WEBSOCKET_ROUTE_SELECTION_EXPRESSION,
    });
  });
});
