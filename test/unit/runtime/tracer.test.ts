// The SDK clients go through the function's Tracer: in Lambda every call is an X-Ray subsegment
// (the X-Ray SDK's middleware in the client's stack); elsewhere tracing is off and nothing is added.
import { Tracer } from "@aws-lambda-powertools/tracer";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAwsClients, createManagementApiClient } from "../../../lambdas/runtime/clients.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { functionTracer, traceInvocation, tracingWanted } from "../../../lambdas/runtime/tracer.ts";

const XRAY_MIDDLEWARE = "XRaySDKInstrumentation - build";

const config = parseConfig({
  RUNS_TABLE: "runs",
  DOCUMENTS_BUCKET: "documents",
  ARTIFACTS_BUCKET: "artifacts",
  WEBSOCKET_ENDPOINT: "http://127.0.0.1:9/dev",
});

/** A Tracer as Lambda makes it: Powertools enables itself where AWS_EXECUTION_ENV is set. */
function lambdaTracer(): Tracer {
  vi.stubEnv("AWS_EXECUTION_ENV", "AWS_Lambda_nodejs22.x");
  vi.stubEnv("POWERTOOLS_TRACE_ENABLED", undefined);
  // HTTP capture patches node:http for the whole process; the clients' capture is what is tested.
  return new Tracer({ serviceName: "rewoo-test", captureHTTPsRequests: false });
}

const middlewareOf = (client: { middlewareStack: { identify(): string[] } }) =>
  client.middlewareStack.identify();

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the SDK clients", () => {
  it("are captured by an enabled Tracer: DynamoDB (through the document client), S3, the management API", () => {
    const tracer = lambdaTracer();
    expect(tracer.isTracingEnabled()).toBe(true);
    const capture = vi.spyOn(tracer, "captureAWSv3Client");
    const clients = createAwsClients(config, tracer);
    const management = createManagementApiClient(config, tracer);

    // DynamoDB, S3 and the management API: one capture each.
    expect(capture).toHaveBeenCalledTimes(3);
    expect(middlewareOf(clients.ddb)).toContain(XRAY_MIDDLEWARE);
    expect(middlewareOf(clients.s3)).toContain(XRAY_MIDDLEWARE);
    expect(management && middlewareOf(management)).toContain(XRAY_MIDDLEWARE);
  });

  it("are left as they are outside Lambda", () => {
    vi.stubEnv("AWS_EXECUTION_ENV", undefined);
    const tracer = new Tracer({ serviceName: "rewoo-test" });
    expect(tracer.isTracingEnabled()).toBe(false);
    const clients = createAwsClients(config, tracer);
    expect(middlewareOf(clients.ddb)).not.toContain(XRAY_MIDDLEWARE);
    expect(middlewareOf(clients.s3)).not.toContain(XRAY_MIDDLEWARE);
  });

  it("are left as they are in Lambda with POWERTOOLS_TRACE_ENABLED=false", () => {
    vi.stubEnv("AWS_EXECUTION_ENV", "AWS_Lambda_nodejs22.x");
    vi.stubEnv("POWERTOOLS_TRACE_ENABLED", "false");
    const tracer = new Tracer({ serviceName: "rewoo-test", captureHTTPsRequests: false });
    expect(middlewareOf(createAwsClients(config, tracer).s3)).not.toContain(XRAY_MIDDLEWARE);
  });
});

describe("the function's tracer", () => {
  it("is wanted exactly where Powertools would trace: in Lambda, unless turned off, SAM local or Amplify's mock", () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x" })).toBe(true);
    expect(
      tracingWanted({ AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x", POWERTOOLS_TRACE_ENABLED: "FALSE" }),
    ).toBe(false);
    expect(
      tracingWanted({ AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x", POWERTOOLS_TRACE_ENABLED: "true" }),
    ).toBe(true);
    expect(tracingWanted({ AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x", AWS_SAM_LOCAL: "true" })).toBe(false);
    expect(tracingWanted({ AWS_EXECUTION_ENV: "AWS_Lambda_amplify-mock" })).toBe(false);
    // Each disagreement with Powertools' own decision would trace nothing, or load it for nothing.
    for (const env of [
      { AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x" },
      { AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x", POWERTOOLS_TRACE_ENABLED: "false" },
      { AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x", AWS_SAM_LOCAL: "true" },
      {},
    ]) {
      vi.stubEnv("AWS_EXECUTION_ENV", env.AWS_EXECUTION_ENV);
      vi.stubEnv("POWERTOOLS_TRACE_ENABLED", env.POWERTOOLS_TRACE_ENABLED);
      vi.stubEnv("AWS_SAM_LOCAL", env.AWS_SAM_LOCAL);
      const powertools = new Tracer({ serviceName: "rewoo-test", captureHTTPsRequests: false });
      expect(tracingWanted(process.env), JSON.stringify(env)).toBe(powertools.isTracingEnabled());
      vi.unstubAllEnvs();
    }
  });

  it("outside Lambda is a disabled one that leaves clients as they are (Powertools is not even loaded)", () => {
    const tracer = functionTracer("rewoo-test");
    expect(tracer.isTracingEnabled()).toBe(false);
    expect(tracer).not.toBeInstanceOf(Tracer);
    const clients = createAwsClients(config, tracer);
    expect(middlewareOf(clients.s3)).not.toContain(XRAY_MIDDLEWARE);
  });
});

describe("traceInvocation", () => {
  it("runs the handler in a `## name` subsegment of the invocation's segment, annotated", async () => {
    const tracer = lambdaTracer();
    const subsegment = { close: vi.fn() };
    const segment = { addNewSubsegment: vi.fn(() => subsegment) };
    vi.spyOn(tracer, "getSegment").mockReturnValue(segment as never);
    const setSegment = vi.spyOn(tracer, "setSegment").mockImplementation(() => undefined);
    const annotations = vi.spyOn(tracer, "putAnnotation").mockImplementation(() => undefined);

    await expect(traceInvocation(tracer, "rewoo-planner", async () => "planned")).resolves.toBe("planned");

    expect(segment.addNewSubsegment).toHaveBeenCalledWith("## rewoo-planner");
    expect(setSegment.mock.calls.map(([set]) => set)).toEqual([subsegment, segment]);
    expect(subsegment.close).toHaveBeenCalledOnce();
    expect(annotations.mock.calls.map(([key]) => key)).toEqual(["ColdStart", "Service"]);
  });

  it("marks an error on the subsegment with the personal data scrubbed, and rethrows the original", async () => {
    const tracer = lambdaTracer();
    const subsegment = { close: vi.fn() };
    vi.spyOn(tracer, "getSegment").mockReturnValue({ addNewSubsegment: () => subsegment } as never);
    vi.spyOn(tracer, "setSegment").mockImplementation(() => undefined);
    vi.spyOn(tracer, "putAnnotation").mockImplementation(() => undefined);
    const marked = vi.spyOn(tracer, "addErrorAsMetadata").mockImplementation(() => undefined);
    const error = new Error("lookup failed for SSN 123-45-6789");

    await expect(
      traceInvocation(tracer, "rewoo-worker", async () => {
        throw error;
      }),
    ).rejects.toBe(error);

    const recorded = marked.mock.calls[0]?.[0] as Error;
    expect(recorded.message).toContain("lookup failed for SSN");
    expect(recorded.message).not.toContain("123-45-6789");
    expect(subsegment.close).toHaveBeenCalledOnce();
  });

  it("only runs the handler when tracing is off", async () => {
    vi.stubEnv("AWS_EXECUTION_ENV", undefined);
    const tracer = new Tracer({ serviceName: "rewoo-test" });
    const getSegment = vi.spyOn(tracer, "getSegment");
    await expect(traceInvocation(tracer, "rewoo-api", async () => 42)).resolves.toBe(42);
    expect(getSegment).not.toHaveBeenCalled();
  });
});
