// The live display: one listr2 line per plan step that ends with its status and duration. Driven
// with listr2's "test" renderer, which writes each title change as a JSON line.
import { afterEach, describe, expect, it, vi } from "vitest";
import { LiveView } from "../../../cli/view.ts";
import { runEvents } from "./stub-api.ts";

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
});
