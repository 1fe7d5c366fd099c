// The attempt limit stops runs that keep failing from being redriven forever; a run that was only
// waiting for a person when the twin stopped is not failing, and re-enters its wait at every boot.
import { describe, expect, it } from "vitest";
import type { RunStatus } from "../../../lambdas/core/types.ts";
import {
  MAX_ATTEMPTS,
  type ResumeDeps,
  ResumeRefusedError,
  resumeRun,
} from "../../../lambdas/runs/resume-run.ts";

function deps(status: RunStatus, attempt: number) {
  const started: string[] = [];
  const fake = {
    runs: {
      getMeta: async () => ({
        run_id: "run-1",
        status,
        attempt,
        plan: { steps: [], levels: [], repairs: [] },
      }),
      reopenRun: async () => true,
    },
    publisher: { publish: async () => undefined },
    startExecution: async (name: string) => {
      started.push(name);
    },
  } as unknown as ResumeDeps;
  return { fake, started };
}

describe("resumeRun's attempt limit", () => {
  it("refuses a run that has used its attempts", async () => {
    const { fake, started } = deps("RUNNING", MAX_ATTEMPTS);
    await expect(resumeRun("run-1", fake, { reason: "boot", orphaned: true })).rejects.toBeInstanceOf(
      ResumeRefusedError,
    );
    expect(started).toEqual([]);
  });

  it("lets a run waiting for a person wait again, past the limit", async () => {
    for (const status of ["AWAITING_INPUT", "AWAITING_APPROVAL"] as const) {
      const { fake, started } = deps(status, MAX_ATTEMPTS + 3);
      const resumed = await resumeRun("run-1", fake, { reason: "boot", orphaned: true });
      expect(resumed.attempt).toBe(MAX_ATTEMPTS + 4);
      expect(started).toEqual([`run-1-r${MAX_ATTEMPTS + 4}`]);
    }
  });
});
