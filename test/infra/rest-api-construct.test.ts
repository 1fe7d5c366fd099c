// The REST API construct on its own: the route table's methods, IAM on all but the public ones,
// X-Ray on the stage, the stream method served by the stream function with response streaming;
// no unacknowledged cdk-nag finding.
import * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { describe, expect, it } from "vitest";
import { RewooRestApi } from "../../infra/constructs/rest-api.ts";
import { REST_METHODS } from "../../lambdas/contracts/routes.ts";
import { bareStack, nagFindings } from "./construct-stack.ts";
import { resourcesOf } from "./synth.ts";

describe("RewooRestApi", () => {
  const bare = bareStack();
  const stateMachine = new sfn.StateMachine(bare.stack, "Evaluation", {
    definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(bare.stack, "Pass")),
  });
  const rest = new RewooRestApi(bare.stack, "Rest", {
    ...bare,
    stateMachine,
    environment: bare.environments.base,
    apiEnvironment: bare.environments.resultDestinations,
  });
  const template = bare.template();
  const methods = Object.values(resourcesOf(template, "AWS::ApiGateway::Method"));

  it("deploys one method per route, IAM-authorized unless the route is public", () => {
    expect(methods).toHaveLength(REST_METHODS.length);
    const publicCount = REST_METHODS.filter((route) => route.auth === "none").length;
    expect(methods.filter((m) => m.Properties?.AuthorizationType === "AWS_IAM")).toHaveLength(
      REST_METHODS.length - publicCount,
    );
  });

  it("traces the stage with X-Ray and both functions actively", () => {
    template.hasResourceProperties("AWS::ApiGateway::Stage", { TracingEnabled: true });
    const functions = Object.values(resourcesOf(template, "AWS::Lambda::Function"));
    expect(functions.map((fn) => fn.Properties?.TracingConfig?.Mode)).toEqual(["Active", "Active"]);
  });

  it("streams the transfer: stream methods from the stream function", () => {
    const streamed = methods.filter((m) => m.Properties?.Integration?.ResponseTransferMode === "STREAM");
    expect(streamed).toHaveLength(REST_METHODS.filter((route) => route.transfer === "stream").length);
    const streamFn = bare.stack.getLogicalId(rest.streamHandler.node.defaultChild as never);
    for (const method of streamed) {
      const uri = JSON.stringify(method.Properties?.Integration.Uri);
      expect(uri).toContain(`"${streamFn}","Arn"`);
      expect(uri).toMatch(/\/response-streaming-invocations"\]\]\}$/);
    }
  });

  it("has no unacknowledged cdk-nag AwsSolutions finding", () => {
    expect(nagFindings(bare.app, rest)).toEqual([]);
  });
});
