// Builds API Gateway REST proxy events the way API Gateway does for this API's resources.
import type { APIGatewayProxyEvent } from "aws-lambda";

export interface EventSpec {
  method: string;
  path: string;
  /** The API Gateway resource; defaults to the path with run ids replaced by {run_id}. */
  resource?: string;
  body?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  isBase64Encoded?: boolean;
  stage?: string;
  domainName?: string;
}

export function apiEvent(spec: EventSpec): APIGatewayProxyEvent {
  const stage = spec.stage ?? "prod";
  const resource = spec.resource ?? spec.path.replace(/\/v1\/runs\/[^/]+/, "/v1/runs/{run_id}");
  const runId = /\/v1\/runs\/([^/]+)/.exec(spec.path)?.[1];
  const domainName = spec.domainName ?? "abc123.execute-api.us-east-1.amazonaws.com";
  return {
    resource,
    path: spec.path,
    httpMethod: spec.method,
    headers: { Host: domainName, ...spec.headers },
    multiValueHeaders: {},
    queryStringParameters: spec.query ?? null,
    multiValueQueryStringParameters: null,
    pathParameters: resource.includes("{run_id}") && runId ? { run_id: decodeURIComponent(runId) } : null,
    stageVariables: null,
    body: spec.body ?? null,
    isBase64Encoded: spec.isBase64Encoded ?? false,
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      authorizer: null,
      protocol: "HTTP/1.1",
      httpMethod: spec.method,
      identity: {} as APIGatewayProxyEvent["requestContext"]["identity"],
      path: `/${stage}${spec.path}`,
      stage,
      requestId: "req-1",
      requestTimeEpoch: 0,
      resourceId: "res",
      resourcePath: resource,
      domainName,
    },
  };
}
