// The model reviewer's part of a review, pure: what every agent's reviewer prompt shares (the rules'
// findings handed to the model as facts, the answer's format), the validation of its answer, and
// the merge. The prompts themselves, with the agent's criteria and just enough of the run to judge
// them, are the agent's (AgentProfileModule.reviewerPrompts). The rules stay authoritative: each criterion is the lower of the two
// scores, so the model can only lower a review, and a critical issue (the rules' or the model's)
// keeps it unapproved whatever the scores say.
//
// Everything the run produced (metadata, paths, plan args, the answer, evidence, and the rules'
// findings, which quote paths) reaches the model only inside data tags, as in the planner and
// solver prompts.
import * as z from "zod";
import { balancedJsonEnd } from "./embedded-json.ts";
import { lazily } from "./lazy.ts";
import { dataTag, truncate } from "./prompts.ts";
import { REVIEW_CRITERIA, scoreReview, settleReview } from "./review.ts";
import type {
  EvaluationRequest,
  Evidence,
  Plan,
  Review,
  ReviewCriterion,
  ReviewIssue,
  RunResult,
} from "./types.ts";

/** What the model contributes to a review: its scores and the issues the rules did not name. */
export interface ModelReview {
  criteria: Record<ReviewCriterion, number>;
  issues: ReviewIssue[];
}

export type ModelReviewParse = { ok: true; review: ModelReview } | { ok: false; problems: string[] };

/** A review is a short list; a longer one is a model that lost the task. */
export const MAX_MODEL_ISSUES = 20;
/** A model's issue message is kept to this many characters (it is shown on the run and the dashboard). */
export const MODEL_ISSUE_MESSAGE_CHARS = 300;
export interface PlanReviewPromptInput {
  request: EvaluationRequest;
  plan: Plan;
  /** The agent's tool names. */
  tools: Iterable<string>;
  /** How the instructions were read, in the agent's words. */
  scope?: string;
  /** The rules' review of the same plan. */
  rules: Review;
}

export interface ResultReviewPromptInput {
  request: EvaluationRequest;
  result: RunResult;
  /** The run's evidence with outputs resolved. */
  evidence: Evidence[];
  /** How the instructions were read, in the agent's words. */
  scope?: string;
  /** The rules' review of the same answer. */
  rules: Review;
}

/** The rules' issues (their messages quote paths and ids, so they are data) and scores. */
export function renderFindings(rules: Review): string {
  const lines = rules.issues.map(
    (issue) =>
      `- ${issue.criterion}, ${issue.severity}: ${issue.message}${issue.ref ? ` [${issue.ref}]` : ""}`,
  );
  return [
    "Findings of the rule-based checks (facts):",
    dataTag("findings", {}, lines.length ? lines.join("\n") : "(none)"),
    `Their scores: ${REVIEW_CRITERIA.map((criterion) => `${criterion} ${rules.criteria[criterion]}`).join(", ")}`,
  ].join("\n");
}

// ---------------------------------------------------------------- the model's answer

const SCORE_EXPECTED = "expected an integer from 1 to 10";
/** The schema of a model's review, built at the first review read (lambdas/core/lazy.ts), not at import. */
const modelReviewSchema = /* @__PURE__ */ lazily(() => {
  const score = z
    .number({ error: SCORE_EXPECTED })
    .int({ error: SCORE_EXPECTED })
    .min(1, { error: SCORE_EXPECTED })
    .max(10, { error: SCORE_EXPECTED });

  return z.object({
    criteria: z.strictObject(
      { relevance: score, completeness: score, safety: score, quality: score },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys"
            ? "expected only relevance, completeness, safety, quality"
            : "expected an object of the four criteria",
      },
    ),
    issues: z
      .array(
        z.object({
          criterion: z.enum(REVIEW_CRITERIA, {
            error: "expected relevance, completeness, safety or quality",
          }),
          severity: z.enum(["minor", "major", "critical"], { error: "expected minor, major or critical" }),
          message: z
            .string({ error: "expected a non-empty string" })
            .trim()
            .min(1, { error: "expected a non-empty string" }),
          ref: z.string({ error: "expected the id of a step or finding" }).trim().nullish(),
        }),
        { error: "expected an array of issues" },
      )
      .max(MAX_MODEL_ISSUES, { error: `expected at most ${MAX_MODEL_ISSUES} issues` }),
  });
});

/**
 * The model's review from its answer: the first JSON object holding `criteria` or `issues`
 * (fenced or with prose around it), checked field by field. Never throws: an unusable answer
 * comes back as problems naming each field, what was expected and what was there.
 */
export function parseModelReview(text: string): ModelReviewParse {
  const json = findReviewObject(text);
  if (json === undefined) {
    return {
      ok: false,
      problems: [
        `no JSON object with "criteria" and "issues" in the answer (${JSON.stringify(truncate(text.trim(), 80))})`,
      ],
    };
  }
  const parsed = modelReviewSchema().safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => {
        const path = issue.path.join(".") || "(root)";
        const got = valueAt(json, issue.path);
        return `${path}: ${issue.message}${issue.code === "unrecognized_keys" ? ` (got ${issue.keys.join(", ")})` : `, got ${describeValue(got)}`}`;
      }),
    };
  }
  return {
    ok: true,
    review: {
      criteria: parsed.data.criteria,
      issues: parsed.data.issues.map(({ criterion, severity, message, ref }) => ({
        criterion,
        severity,
        message: truncate(message, MODEL_ISSUE_MESSAGE_CHARS),
        ...(ref ? { ref: truncate(ref, 80) } : {}),
        source: "model" as const,
      })),
    },
  };
}

const MAX_CANDIDATES = 50;

function findReviewObject(text: string): Record<string, unknown> | undefined {
  const ends = new Map<number, number>();
  let tried = 0;
  for (
    let start = text.indexOf("{");
    start !== -1 && tried < MAX_CANDIDATES;
    start = text.indexOf("{", start + 1)
  ) {
    const known = ends.get(start);
    const end = known ?? balancedJsonEnd(text, start, text.length, ends);
    if (end === -1) continue;
    tried += 1;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end + 1));
    } catch {
      continue;
    }
    if (
      value &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      ("criteria" in value || "issues" in value)
    ) {
      return value as Record<string, unknown>;
    }
  }
  return undefined;
}

function valueAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  return truncate(JSON.stringify(value) ?? String(value), 40);
}

// ---------------------------------------------------------------- merge

/**
 * The rules' review and the model's as one: both lists of issues, each criterion the lowest of the
 * rules' score, the model's score and what the model's own issues cost (a model that names a
 * critical safety issue cannot also give safety 9), scored and approved as scoreReview does.
 */
export function mergeReviews(rules: Review, model: ModelReview, threshold?: number): Review {
  const costOfModelIssues = scoreReview(model.issues).criteria;
  const criteria = Object.fromEntries(
    REVIEW_CRITERIA.map((criterion) => [
      criterion,
      Math.min(rules.criteria[criterion], model.criteria[criterion], costOfModelIssues[criterion]),
    ]),
  ) as Record<ReviewCriterion, number>;
  return settleReview(criteria, [...rules.issues, ...model.issues], threshold);
}

/** The rules' review with a minor quality issue saying why the model's answer could not be used. */
export function withUnusableModelReview(rules: Review, problems: string[], threshold?: number): Review {
  const shown = problems.slice(0, 3).join("; ");
  const more = problems.length > 3 ? ` (+${problems.length - 3} more)` : "";
  return scoreReview(
    [
      ...rules.issues,
      {
        criterion: "quality",
        severity: "minor",
        message: `the model review was unusable, so the rule-based review stands: ${shown}${more}`,
      },
    ],
    threshold,
  );
}
