// A third agent, added the way docs/agents.md says (one folder, one registration), runs a real run
// through the twin: the same workflow, planner, worker, solver and finalize as the loan and banking
// agents, with its own profile and tool. The agent (test/agents/echo) is registered by this
// test only; the planner's text comes from the scripted model, everything else from the agent.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTwin, type Twin } from "../../infra/local/twin.ts";
import { profileNames, registerAgent } from "../../lambdas/agents/registry.ts";
import type { EvaluationRequest } from "../../lambdas/core/types.ts";
import { ECHO_PROFILE, ECHO_TOOL, echoRegistration } from "../agents/echo/agent.ts";

const MESSAGE = "hello from a third agent";

let twin: Twin;

beforeAll(async () => {
  registerAgent(echoRegistration);
  const file = join(mkdtempSync(join(tmpdir(), "rewoo-echo-agent-")), "responses.json");
  writeFileSync(
    file,
    JSON.stringify([
      {
        purpose: "planner",
        text: JSON.stringify([
          { id: "E1", tool: ECHO_TOOL, args: { text: MESSAGE }, depends_on: [], description: "say it back" },
        ]),
      },
    ]),
  );
  twin = await startTwin({
    persist: false,
    env: { REWOO_LLM_PROVIDER: "scripted", REWOO_SCRIPTED_RESPONSES: file },
  });
});

afterAll(async () => {
  await twin?.stop();
});

describe("a test-only agent registered with one line", () => {
  it("is listed beside the built-in agents, and another agent of the same name is refused", () => {
    expect(profileNames()).toEqual(["loan_evaluation", "banking_assistant", ECHO_PROFILE]);
    expect(() => registerAgent(echoRegistration)).toThrow(/already registered/);
  });

  it("owns its tool: its catalog holds its tool only, the loan agent's holds none of it", () => {
    expect([...twin.services.tools.catalog(ECHO_PROFILE).keys()]).toEqual([ECHO_TOOL]);
    expect(twin.services.tools.catalog().has(ECHO_TOOL)).toBe(false);
  });

  it("runs through the twin's workflow: planned, worked, answered and reviewed by its own rules", async () => {
    const runId = "run-echo-agent-1";
    const request: EvaluationRequest = { metadata: {}, instructions: `Say: ${MESSAGE}`, s3_pdf_paths: [] };
    expect(await twin.services.runs.createRun(runId, request, { profile: ECHO_PROFILE })).toBe(true);
    await twin.startExecution(runId, { run_id: runId });
    const run = await twin.waitForRun(runId);

    expect(run.status, JSON.stringify(run.error)).toBe("SUCCEEDED");
    expect(run.profile).toBe(ECHO_PROFILE);
    expect(run.plan?.steps.map((step) => [step.id, step.tool, step.args])).toEqual([
      ["E1", ECHO_TOOL, { text: MESSAGE }],
    ]);
    expect(run.evidence).toHaveLength(1);
    expect(run.evidence[0]).toMatchObject({
      step_id: "E1",
      tool: ECHO_TOOL,
      status: "ok",
      output: { echoed: MESSAGE, length: MESSAGE.length },
    });
    expect(run.result?.summary).toBe(`Echoed: ${MESSAGE}`);
    expect(run.result_review?.approved).toBe(true);
    expect(run.plan_review?.approved).toBe(true);
    // One model call (the planner's); the agent reviews and answers by its own rules.
    expect(run.usage.llm_calls).toBe(1);
  });
});
