import { describe, expect, it } from "vitest";
import { computeLevels, findCycle } from "../../../lambdas/core/levels.ts";

const graph = (edges: Record<string, string[]>) =>
  Object.entries(edges).map(([id, depends_on]) => ({ id, depends_on }));

describe("computeLevels", () => {
  it("puts a chain in one level per step", () => {
    expect(computeLevels(graph({ E1: [], E2: ["E1"], E3: ["E2"] }))).toEqual([["E1"], ["E2"], ["E3"]]);
  });

  it("runs the two sides of a diamond in the same level", () => {
    expect(computeLevels(graph({ E1: [], E2: ["E1"], E3: ["E1"], E4: ["E2", "E3"] }))).toEqual([
      ["E1"],
      ["E2", "E3"],
      ["E4"],
    ]);
  });

  it("puts independent steps in one level, ordered by step number (E2 before E10)", () => {
    expect(computeLevels(graph({ E10: [], E3: [], E2: [], E1: [] }))).toEqual([["E1", "E2", "E3", "E10"]]);
  });

  it("places a step one level after its deepest dependency", () => {
    expect(computeLevels(graph({ E1: [], E2: ["E1"], E3: ["E2"], E4: ["E1", "E3"], E5: ["E1"] }))).toEqual([
      ["E1"],
      ["E2", "E5"],
      ["E3"],
      ["E4"],
    ]);
  });

  it("accepts steps listed before the steps they depend on", () => {
    expect(computeLevels(graph({ E2: ["E1"], E1: [] }))).toEqual([["E1"], ["E2"]]);
  });

  it("gives an empty plan no levels", () => {
    expect(computeLevels([])).toEqual([]);
  });

  it("refuses a cycle, naming it", () => {
    expect(() => computeLevels(graph({ E1: ["E2"], E2: ["E1"] }))).toThrow(/cycle: E1 -> E2 -> E1/);
  });

  it("refuses a dependency on a step that does not exist", () => {
    expect(() => computeLevels(graph({ E1: ["E9"] }))).toThrow(
      "E1 depends on E9, which is not a step of the plan",
    );
  });
});

describe("findCycle", () => {
  it("returns null for a DAG", () => {
    expect(findCycle(graph({ E1: [], E2: ["E1"], E3: ["E1", "E2"] }))).toBeNull();
  });

  it("returns the cycle as a closed path", () => {
    expect(findCycle(graph({ E1: ["E3"], E2: ["E1"], E3: ["E2"], E4: [] }))).toEqual([
      "E1",
      "E3",
      "E2",
      "E1",
    ]);
  });

  it("finds a self-reference", () => {
    expect(findCycle(graph({ E1: [], E2: ["E2"] }))).toEqual(["E2", "E2"]);
  });

  it("finds a cycle that does not include the first step", () => {
    expect(findCycle(graph({ E1: [], E2: ["E1", "E3"], E3: ["E2"] }))).toEqual(["E2", "E3", "E2"]);
  });
});
