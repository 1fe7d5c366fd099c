import { describe, expect, it } from "vitest";
import {
  type EvidenceView,
  exactPlaceholder,
  referencedStepIds,
  SubstitutionError,
  substitutePlaceholders,
} from "../../../lambdas/core/placeholders.ts";

const ok = (output: unknown): EvidenceView => ({ status: "ok", output });
const failed = (error: string): EvidenceView => ({ status: "error", error });

function substitutionError(run: () => unknown): SubstitutionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SubstitutionError);
    return error as SubstitutionError;
  }
  throw new Error("expected a SubstitutionError");
}

describe("referencedStepIds", () => {
  it("finds {{E1}}, {{ E2.a[0] }} and #E3 in nested objects and arrays, sorted by step number", () => {
    const args = {
      prompt: "Compare #E3 with {{E1}}",
      nested: { list: ["{{ E2.a[0] }}", 7, null, { deeper: "#E10 then #E3" }] },
    };
    expect(referencedStepIds(args)).toEqual(["E1", "E2", "E3", "E10"]);
  });

  it("does not read #E1 inside #E10", () => {
    expect(referencedStepIds("see #E10 and #E12")).toEqual(["E10", "E12"]);
  });

  it("reads `#E1.` at the end of a sentence as #E1", () => {
    expect(referencedStepIds("The winner is in #E1.")).toEqual(["E1"]);
  });

  it("ignores object keys and non-string values", () => {
    expect(referencedStepIds({ "#E1": 1, "{{E2}}": true })).toEqual([]);
  });
});

describe("exactPlaceholder", () => {
  it("recognizes a string that is one placeholder, surrounding whitespace aside", () => {
    expect(exactPlaceholder("  {{E1.a.b[0]}} ")).toEqual({
      id: "E1",
      path: ["a", "b", 0],
      text: "{{E1.a.b[0]}}",
    });
    expect(exactPlaceholder("#E12")).toEqual({ id: "E12", path: [], text: "#E12" });
  });

  it("does not treat text with a placeholder inside as a single placeholder", () => {
    expect(exactPlaceholder("{{E1}} and {{E2}}")).toBeUndefined();
    expect(exactPlaceholder("#E1.")).toBeUndefined();
  });
});

describe("substitutePlaceholders", () => {
  const evidence = new Map<string, EvidenceView>([
    ["E1", ok({ conditions: [{ id: "C1", title: "Two years of returns" }, { id: "C2" }], count: 2 })],
    ["E2", ok("Melbourne")],
    ["E3", ok(42)],
    ["E4", failed("HTTP 500 from conditions service")],
    ["E10", ok(["a", "b"])],
  ]);

  it("hands a string that is exactly one placeholder the typed evidence value", () => {
    const { args, upstream_errors } = substitutePlaceholders(
      { all: "{{E1}}", number: " #E3 ", list: "{{E10}}" },
      evidence,
    );
    expect(args).toEqual({
      all: { conditions: [{ id: "C1", title: "Two years of returns" }, { id: "C2" }], count: 2 },
      number: 42,
      list: ["a", "b"],
    });
    expect(upstream_errors).toEqual([]);
  });

  it("selects a field with a path, keeping its type", () => {
    const { args } = substitutePlaceholders(
      { conditions: "{{E1.conditions}}", n: "{{ E1.count }}" },
      evidence,
    );
    expect(args.conditions).toEqual([{ id: "C1", title: "Two years of returns" }, { id: "C2" }]);
    expect(args.n).toBe(2);
  });

  it("selects array elements by index, in brackets or after a dot", () => {
    const { args } = substitutePlaceholders(
      { first: "{{E1.conditions[0].title}}", second: "{{E1.conditions.1.id}}", b: "{{E10[1]}}" },
      evidence,
    );
    expect(args).toEqual({ first: "Two years of returns", second: "C2", b: "b" });
  });

  it("writes evidence as text inside a longer string: strings as they are, other values as JSON", () => {
    const { args } = substitutePlaceholders(
      { prompt: "City: #E2. Count: {{E1.count}}. Items: {{E10}}. Also #E100." },
      new Map([...evidence, ["E100", ok({ x: 1 })]]),
    );
    expect(args.prompt).toBe('City: Melbourne. Count: 2. Items: ["a","b"]. Also {"x":1}.');
  });

  it("replaces #E1 but leaves #E10 to its own evidence", () => {
    const { args } = substitutePlaceholders(
      { prompt: "#E1.count vs #E10" },
      new Map([
        ["E1", ok("one")],
        ["E10", ok("ten")],
      ]),
    );
    expect(args.prompt).toBe("one.count vs ten");
  });

  it("substitutes deep inside arrays and objects", () => {
    const { args } = substitutePlaceholders({ docs: [{ city: "#E2" }, "{{E3}}"] }, evidence);
    expect(args).toEqual({ docs: [{ city: "Melbourne" }, 42] });
  });

  it("substitutes the error text of a failed upstream step and lists it in upstream_errors", () => {
    const { args, upstream_errors } = substitutePlaceholders(
      { conditions: "{{E4.conditions}}", prompt: "Summarise #E4 and #E2" },
      evidence,
    );
    expect(args).toEqual({
      conditions: "[E4 failed: HTTP 500 from conditions service]",
      prompt: "Summarise [E4 failed: HTTP 500 from conditions service] and Melbourne",
    });
    expect(upstream_errors).toEqual(["E4"]);
  });

  it("selects a field of an output that is JSON text (LLM tools answer in text)", () => {
    const { args } = substitutePlaceholders(
      { c: "{{E5.conditions[0]}}" },
      new Map([["E5", ok('{"conditions": ["C7"]}')]]),
    );
    expect(args.c).toBe("C7");
  });

  it("names the step, the path and the keys that exist when a path is missing", () => {
    const error = substitutionError(() => substitutePlaceholders({ x: "{{E1.condition}}" }, evidence));
    expect(error.message).toBe(
      'args.x: {{E1.condition}} selects E1.condition, but E1 has no key "condition" (keys there: conditions, count)',
    );
    expect(error.step_id).toBe("E1");
    expect(error.path).toBe("E1.condition");
  });

  it("says how long an array is when an index is out of range", () => {
    const error = substitutionError(() => substitutePlaceholders({ x: "{{E1.conditions[5].id}}" }, evidence));
    expect(error.message).toBe(
      "args.x: {{E1.conditions[5].id}} selects E1.conditions[5].id, but E1.conditions has no index 5 (it is an array of 2)",
    );
  });

  it("refuses to select a field of a plain value", () => {
    const error = substitutionError(() => substitutePlaceholders({ x: "{{E3.value}}" }, evidence));
    expect(error.message).toBe(
      'args.x: {{E3.value}} selects E3.value, but E3 is number 42, which has no fields to select "value" from',
    );
  });

  it("throws when a referenced step has no evidence at all", () => {
    const error = substitutionError(() => substitutePlaceholders({ x: ["#E7"] }, evidence));
    expect(error.message).toBe(
      "args.x[0]: #E7 refers to E7, which has no evidence yet (evidence exists for: E1, E2, E3, E4, E10)",
    );
  });

  it("does not mutate the args or the evidence", () => {
    const args = { conditions: "{{E1.conditions}}", nested: { list: ["#E2"] } };
    const before = structuredClone(args);
    const output = { conditions: ["C1"] };
    const result = substitutePlaceholders(
      args,
      new Map([
        ["E1", ok(output)],
        ["E2", ok("x")],
      ]),
    );
    expect(args).toEqual(before);
    expect(output).toEqual({ conditions: ["C1"] });
    expect(result.args.nested).not.toBe(args.nested);
  });

  it("does not substitute again inside evidence text that itself contains a placeholder", () => {
    const { args } = substitutePlaceholders(
      { prompt: "Answer: #E1" },
      new Map([
        ["E1", ok("see #E2")],
        ["E2", ok("secret")],
      ]),
    );
    expect(args.prompt).toBe("Answer: see #E2");
  });
});
