// statemachine/rewoo.asl.json is the only definition of the workflow: CDK deploys it and the twin
// runs it. These checks hold it to what AWS accepts and to the rules of README: Architecture.
import { readFileSync } from "node:fs";
import asl from "amazon-states-language-service";
import { describe, expect, it } from "vitest";

const text = readFileSync(new URL("../../statemachine/rewoo.asl.json", import.meta.url), "utf8");
const definition = JSON.parse(text);

type State = Record<string, unknown> & { Type: string };

function allStates(states: Record<string, State>): Array<[string, State]> {
  return Object.entries(states).flatMap(([name, state]) => {
    const processor = state.ItemProcessor as { States: Record<string, State> } | undefined;
    return [[name, state] as [string, State], ...(processor ? allStates(processor.States) : [])];
  });
}

async function aslDiagnostics(source: string) {
  const service = asl.getLanguageService({});
  const document = asl.TextDocument.create("file:///rewoo.asl.json", "json", 0, source);
  return service.doValidation(document, service.parseJSONDocument(document));
}

const LAMBDA_TRANSIENT = [
  "Lambda.ServiceException",
  "Lambda.AWSLambdaException",
  "Lambda.SdkClientException",
  "Lambda.TooManyRequestsException",
];

describe("statemachine/rewoo.asl.json", () => {
  it("is valid Amazon States Language", async () => {
    expect(await aslDiagnostics(text)).toEqual([]);
  });

  it("is checked by a validator that does catch mistakes", async () => {
    const broken = JSON.parse(text);
    delete broken.States.Plan.Next;
    broken.States.Solve.Type = "Tusk";
    expect((await aslDiagnostics(JSON.stringify(broken))).length).toBeGreaterThan(0);
  });

  it("has the ReWOO shape: Plan → ReviewPlan → RunLevels(Map, 1 at a time) → RunSteps(Map) → Work → (a step failed) Replan? → Solve → ReviewResult → Finalize", () => {
    expect(definition.StartAt).toBe("Plan");
    const { Plan, RunLevels, Solve, Finalize } = definition.States;
    // The plan is reviewed before any tool runs; one that fails review goes straight to Finalize.
    expect(Plan.Next).toBe("ReviewPlan");
    expect(definition.States.ReviewPlan).toMatchObject({
      Type: "Task",
      Resource: Plan.Resource,
      Parameters: { "run_id.$": "$.run_id", action: "review" },
      ResultPath: "$.plan",
      Next: "PlanReviewed",
    });
    expect(definition.States.PlanReviewed).toEqual({
      Type: "Choice",
      Comment: expect.any(String),
      Choices: [
        { Variable: "$.plan.needs_review", BooleanEquals: true, Next: "Finalize" },
        { Variable: "$.plan.rejected", BooleanEquals: true, Next: "Finalize" },
        { Variable: "$.plan.wait_for", StringEquals: "input", Next: "AwaitInput" },
        { Variable: "$.plan.wait_for", StringEquals: "approval", Next: "AwaitApproval" },
      ],
      Default: "RunLevels",
    });
    // The waits hold a task token for the planner function to store, then go back to ReviewPlan, which
    // says what follows (another wait, Finalize, or the levels).
    for (const [name, wait] of [
      ["AwaitInput", "input"],
      ["AwaitApproval", "approval"],
    ] as const) {
      expect(definition.States[name], name).toMatchObject({
        Type: "Task",
        Resource: "arn:aws:states:::lambda:invoke.waitForTaskToken",
        Parameters: {
          FunctionName: Plan.Resource,
          Payload: { "run_id.$": "$.run_id", action: "await", wait, "task_token.$": "$$.Task.Token" },
        },
        TimeoutSecondsPath: "$.plan.wait_seconds",
        ResultPath: null,
        Catch: [
          { ErrorEquals: ["States.Timeout"], ResultPath: null, Next: "WaitTimedOut" },
          { ErrorEquals: ["States.ALL"], ResultPath: "$.error", Next: "HandleFailure" },
        ],
        Next: "ReviewPlan",
      });
    }
    expect(definition.States.WaitTimedOut).toMatchObject({
      Type: "Task",
      Resource: Plan.Resource,
      Parameters: { "run_id.$": "$.run_id", action: "wait_timeout" },
      ResultPath: null,
      Next: "ReviewPlan",
    });
    expect(RunLevels).toMatchObject({
      Type: "Map",
      MaxConcurrency: 1,
      ItemsPath: "$.plan.levels",
      // Only the statuses of the steps just run are kept (ids, never evidence).
      ResultSelector: { "statuses.$": "$[*][*].status" },
      ResultPath: "$.levels_run",
    });
    const runSteps = RunLevels.ItemProcessor.States.RunSteps;
    expect(runSteps).toMatchObject({ Type: "Map", MaxConcurrencyPath: "$.max_concurrency" });
    expect(runSteps.ItemProcessor.States.Work).toMatchObject({
      Type: "Task",
      ResultSelector: { "step_id.$": "$.step_id", "status.$": "$.status" },
    });
    // The planner is asked for a new plan only when a step ended in error; otherwise on to the solver.
    expect(RunLevels.Next).toBe("CheckSteps");
    expect(definition.States.CheckSteps).toMatchObject({
      Type: "Pass",
      Parameters: { "failed.$": "States.ArrayContains($.levels_run.statuses, 'error')" },
      ResultPath: "$.levels_run",
      Next: "AnyStepFailed",
    });
    expect(definition.States.AnyStepFailed).toEqual({
      Type: "Choice",
      Comment: expect.any(String),
      Choices: [{ Variable: "$.levels_run.failed", BooleanEquals: true, Next: "Replan" }],
      Default: "Solve",
    });
    expect(definition.States.Replan).toMatchObject({
      Type: "Task",
      Resource: definition.States.Plan.Resource,
      Parameters: { "run_id.$": "$.run_id", action: "replan" },
      ResultPath: "$.plan",
      Next: "Replanned",
    });
    expect(definition.States.Replanned).toEqual({
      Type: "Choice",
      Comment: expect.any(String),
      Choices: [
        // A new plan that acts (moves money) is reviewed and confirmed again before it runs.
        {
          And: [
            { Variable: "$.plan.review_again", IsPresent: true },
            { Variable: "$.plan.review_again", BooleanEquals: true },
          ],
          Next: "ReviewPlan",
        },
        { Variable: "$.plan.replanned", BooleanEquals: true, Next: "RunLevels" },
      ],
      Default: "Solve",
    });
    expect(Solve.Next).toBe("ReviewResult");
    expect(definition.States.ReviewResult).toMatchObject({
      Type: "Task",
      Resource: Solve.Resource,
      Parameters: { "run_id.$": "$.run_id", action: "review" },
      ResultPath: null,
      Next: "Finalize",
    });
    expect(Finalize.Next).toBe("Succeeded");
  });

  it("routes every failure to the failure handler and then to a Fail state", () => {
    for (const name of [
      "Plan",
      "ReviewPlan",
      "WaitTimedOut",
      "RunLevels",
      "Replan",
      "Solve",
      "ReviewResult",
      "Finalize",
    ]) {
      expect(definition.States[name].Catch, name).toEqual([
        { ErrorEquals: ["States.ALL"], ResultPath: "$.error", Next: "HandleFailure" },
      ]);
    }
    expect(definition.States.HandleFailure.Next).toBe("Failed");
    expect(definition.States.Failed.Type).toBe("Fail");
  });

  it("gives every Task a plain function ARN substitution, a timeout and a jittered retry of Lambda's transient errors", () => {
    const tasks = allStates(definition.States).filter(([, state]) => state.Type === "Task");
    expect(tasks.map(([name]) => name).sort()).toEqual([
      "AwaitApproval",
      "AwaitInput",
      "Finalize",
      "HandleFailure",
      "Plan",
      "Replan",
      "ReviewPlan",
      "ReviewResult",
      "Solve",
      "WaitTimedOut",
      "Work",
    ]);
    for (const [name, task] of tasks) {
      // The waits invoke the planner through the callback integration; their wait is the configured one.
      const waits = task.Resource === "arn:aws:states:::lambda:invoke.waitForTaskToken";
      const resource = waits ? (task.Parameters as { FunctionName: string }).FunctionName : task.Resource;
      expect(resource, name).toMatch(/^\$\{(Planner|Worker|Solver|Finalize)FunctionArn\}$/);
      if (waits) expect(task.TimeoutSecondsPath, name).toBe("$.plan.wait_seconds");
      else expect(task.TimeoutSeconds, name).toBeGreaterThan(0);
      const retry = (task.Retry as Array<Record<string, unknown>>)[0];
      expect(retry?.ErrorEquals, name).toEqual(expect.arrayContaining(LAMBDA_TRANSIENT));
      expect(retry, name).toMatchObject({ JitterStrategy: "FULL", BackoffRate: 2 });
    }
  });

  it("uses JSONPath only and passes ids, never evidence", () => {
    expect(text).not.toMatch(/"QueryLanguage"|"Assign"|"Arguments"|"Output"/);
    // Tasks call their functions directly (results unwrapped); only the waits need the callback integration.
    expect(text.match(/arn:aws:states:::lambda:invoke[.\w]*/g)).toEqual([
      "arn:aws:states:::lambda:invoke.waitForTaskToken",
      "arn:aws:states:::lambda:invoke.waitForTaskToken",
    ]);
    const work = definition.States.RunLevels.ItemProcessor.States.RunSteps;
    expect(Object.keys(work.ItemSelector).sort()).toEqual(["level_index.$", "run_id.$", "step_id.$"]);
    expect(Object.keys(definition.States.RunLevels.ItemSelector).sort()).toEqual([
      "level_index.$",
      "max_concurrency.$",
      "run_id.$",
      "step_ids.$",
    ]);
  });
});
