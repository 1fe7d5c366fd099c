// The live display: one listr2 line per plan step that ends with its status and duration. Driven
// with listr2's "test" renderer, which writes each title change as a JSON line.
import { afterEach, describe, expect, it, vi } from "vitest";
import { LiveView } from "../../../cli/view.ts";
import type { ProgressEvent } from "../../../lambdas/core/types.ts";
import { replannedRunEvents, runEvents } from "./stub-api.ts";

afterEach(() => vi.restoreAllMocks());

async function finalTitles(feed: (view: LiveView) => void): Promise<string[]> {
  const written: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  // The test renderer reports failures on stderr as well.
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  const view = new LiveView({ renderer: "test" });
  feed(view);
  await view.finish();
  vi.restoreAllMocks();
  // The last state of each task (by its first title) is what the terminal ends up showing.
  const last = new Map<string, { title: string; state?: string }>();
  for (const line of written.join("").split("\n").filter(Boolean)) {
    const entry = JSON.parse(line) as {
      event: string;
      data: unknown;
      task: { title: string; path: string[] };
    };
    const key = entry.task.path.join(" / ");
    const previous = last.get(key) ?? { title: entry.task.title };
    if (entry.event === "TITLE") previous.title = String(entry.data);
    if (entry.event === "STATE") previous.state = String(entry.data);
    last.set(key, previous);
  }
  return [...last.values()].map(({ title, state }) => `${state} ${title}`);
}

describe("LiveView", () => {
  it("ends with one line per step with its status and duration", async () => {
    const titles = await finalTitles((view) => {
      for (const event of runEvents("FAILED")) view.event(event);
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "COMPLETED Plan: 3 steps in 2 dependency levels",
        "COMPLETED E1 call_preconditions_api (level 0): completed in 12 ms",
        "COMPLETED E2 retrieve_s3_document (level 0): completed in 7 ms",
        "FAILED E3 call_conditions_ai_api (level 1): failed in 30 ms: Conditions AI answered 500",
        "COMPLETED Solver: completed in 1000 ms",
        "FAILED Result: FAILED: States.TaskFailed: boom",
      ]),
    );
  });

  it("settles steps that never ran when the run ends early (cancelled)", async () => {
    const events = runEvents("CANCELLED");
    const titles = await finalTitles((view) => {
      for (const event of [...events.slice(0, 3), { ...events.at(-1), seq: 4 } as (typeof events)[number]]) {
        view.event(event);
      }
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "SKIPPED E1 call_preconditions_api (level 0): did not finish",
        "SKIPPED E3 call_conditions_ai_api (level 1): not run",
        "SKIPPED Solver: not run",
        "FAILED Result: CANCELLED",
      ]),
    );
  });

  it("finishes without any event (following failed before the plan)", async () => {
    const titles = await finalTitles(() => undefined);
    expect(titles).toEqual(
      expect.arrayContaining([
        "SKIPPED Plan: none (the run ended before planning)",
        "SKIPPED Result: unknown",
      ]),
    );
  });

  it("shows a replan under the worker with the new plan's steps, reusing the completed ones", async () => {
    const titles = await finalTitles((view) => {
      for (const event of replannedRunEvents()) view.event(event);
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "COMPLETED E1 call_preconditions_api (level 0): completed in 12 ms",
        "FAILED E3 call_conditions_ai_api (level 1): failed in 30 ms: Conditions AI answered 500",
        "COMPLETED Replanned (attempt 1): E3 call_conditions_ai_api failed: Conditions AI answered 500 → new plan: 1 step to run, 2 reused",
        "COMPLETED E4 call_conditions_ai_api (level 1): completed in 25 ms",
        "COMPLETED Solver: completed in 1000 ms",
        "COMPLETED Result: SUCCEEDED",
      ]),
    );
    // The reused steps are not listed again under the replan.
    expect(titles.filter((title) => title.includes("E1 call_preconditions_api"))).toHaveLength(1);
  });

  it("settles the new plan's steps as not run when the run ends during the replanned round", async () => {
    const events = replannedRunEvents();
    const replanned = events.slice(0, 9);
    const titles = await finalTitles((view) => {
      for (const event of replanned) view.event(event);
      view.event({
        run_id: replanned[0]?.run_id ?? "",
        seq: replanned.length + 1,
        timestamp: "2026-01-01T12:01:00.000Z",
        stage: "complete",
        status: "CANCELLED",
      });
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "SKIPPED E4 call_conditions_ai_api (level 1): not run",
        "SKIPPED Solver: not run",
        "FAILED Result: CANCELLED",
      ]),
    );
  });

  it("tells in the Plan line that the planner planned again before its first valid plan", async () => {
    const events = runEvents("SUCCEEDED");
    const invalid = {
      stage: "replan",
      attempt: 1,
      reason: "the plan was invalid: unknown tool WolframAlpha",
      failed_steps: [],
      run_id: events[0]?.run_id ?? "",
      seq: 1,
      timestamp: "2026-01-01T11:59:59.000Z",
    } as ProgressEvent;
    const titles = await finalTitles((view) => {
      view.event(invalid);
      for (const event of events) view.event({ ...event, seq: event.seq + 1 });
    });
    expect(titles).toEqual(
      expect.arrayContaining([
        "COMPLETED Plan: 3 steps in 2 dependency levels (replanned (attempt 1): the plan was invalid: unknown tool WolframAlpha)",
        "COMPLETED E3 call_conditions_ai_api (level 1): completed in 30 ms",
        "COMPLETED Result: SUCCEEDED",
      ]),
    );
    expect(titles.some((title) => title.includes("new plan"))).toBe(false);
  });
});
