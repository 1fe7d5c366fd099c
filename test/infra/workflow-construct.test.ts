// The Workflow construct on its own: four traced functions, the traced state machine invoking exactly
// them, the execution-ended rule to finalize; no unacknowledged cdk-nag finding.
import { Match } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { Workflow } from "../../infra/constructs/workflow.ts";
import { bareStack, nagFindings } from "./construct-stack.ts";
import { resourcesOf } from "./synth.ts";

function build() {
  const bare = bareStack();
  const workflow = new Workflow(bare.stack, "Workflow", {
    ...bare,
    prefixes: { evidence: "runs/", results: "results/" },
  });
  return { ...bare, workflow, template: bare.template() };
}

describe("Workflow", () => {
  const { app, stack, workflow, template } = build();

  it("builds the four workflow functions with active tracing and their service names", () => {
    const functions = Object.values(resourcesOf(template, "AWS::Lambda::Function"));
    expect(
      functions.map((fn) => fn.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME).sort(),
    ).toEqual(["rewoo-finalize", "rewoo-planner", "rewoo-solver", "rewoo-worker"]);
    for (const fn of functions) expect(fn.Properties?.TracingConfig).toEqual({ Mode: "Active" });
  });

  it("builds a traced Standard state machine whose role invokes exactly the four functions", () => {
    template.hasResourceProperties("AWS::StepFunctions::StateMachine", {
      StateMachineType: "STANDARD",
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: Match.objectLike({ IncludeExecutionData: false, Level: "ALL" }),
    });
    const invoke = Object.values(resourcesOf(template, "AWS::IAM::Policy"))
      .flatMap(
        (policy) =>
          policy.Properties?.PolicyDocument.Statement as Array<{ Action: unknown; Resource: unknown }>,
      )
      .filter((statement) => statement.Action === "lambda:InvokeFunction");
    expect(invoke).toHaveLength(1);
    expect(invoke[0]?.Resource).toHaveLength(4);
  });

  it("closes runs whose execution ended outside the workflow: a rule to finalize with a dead-letter queue", () => {
    template.hasResourceProperties("AWS::Events::Rule", {
      EventPattern: Match.objectLike({ source: ["aws.states"] }),
      Targets: [Match.objectLike({ DeadLetterConfig: Match.anyValue(), RetryPolicy: Match.anyValue() })],
    });
    expect(workflow.finalizeDeadLetters).toBeDefined();
  });

  it("has no unacknowledged cdk-nag AwsSolutions finding", () => {
    expect(nagFindings(app, workflow)).toEqual([]);
    // The check is live: the unhardened stand-ins outside the construct do have findings.
    expect(nagFindings(app, stack).length).toBeGreaterThan(0);
  });
});
