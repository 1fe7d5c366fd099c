// The answers a waiting run needs from a person: POST /v1/runs/{run_id}/input (the caller answers the
// run's question) and POST /v1/runs/{run_id}/approval (an operator approves, edits or rejects its
// plan). Each is checked, stored with a condition on the run still waiting with the same task token
// (so of two answers racing, or an answer racing the timeout, exactly one wins), then the token goes
// back to Step Functions and the execution continues. The token itself never leaves the service.
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from "aws-lambda";
import { checkLoanMetadata } from "../agents/loan/request-catalog.ts";
import { profileModule, runQuestions } from "../agents/registry.ts";
import { AnswerError, readAnswers } from "../core/interaction.ts";
import { PlanParseError } from "../core/parse.ts";
import { InvalidRequestError, RequestTooLargeError, validateRequest } from "../core/request.ts";
import { planReviewInput, reviewPlan } from "../core/review.ts";
import type { Approval, Clarification, EvaluationRequest, Plan, Review, RunStatus } from "../core/types.ts";
import { maxStepsFor, PlanValidationError } from "../core/validate.ts";
import type { MetaItem } from "../store/runs.ts";
import type { ApiContext } from "./context.ts";
import { HttpError, json, jsonBody } from "./http.ts";
import { checkRunId } from "./runs.ts";

export async function answerRun(
  runId: string,
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  checkRunId(runId);
  const body = jsonBody(event, ctx.services.config.api.maxBodyBytes, 'a JSON object {"answers": {...}}');
  await refuseCustomerRun(runId, "answered", ctx);
  const clarification = await submitAnswers(runId, body, ctx);
  return json(202, { run_id: runId, status: "RUNNING", clarification });
}

/** Answers `body` ({"answers": {...}}) to the run's open question and lets its execution go on. */
export async function submitAnswers(runId: string, body: unknown, ctx: ApiContext): Promise<Clarification> {
  const { runs, publisher, now } = ctx.services;
  const meta = await runs.getMeta(runId);
  const { token, clarification } = waiting(meta, "AWAITING_INPUT");
  if (clarification?.status !== "asked") {
    throw new HttpError(409, "not_waiting", `run ${runId} has no open question`);
  }
  let answers: Record<string, unknown>;
  try {
    answers = readAnswers(body, clarification.questions);
  } catch (error) {
    if (error instanceof AnswerError) {
      throw new HttpError(400, "invalid_answer", error.message, [
        { field: error.field, message: error.message },
      ]);
    }
    throw error;
  }
  const { request, plan } = answeredRun(meta, answers, ctx);
  // An answered field that the steps still cannot use (e.g. "abc" for an income) was not an answer.
  const unusable = runQuestions({ request, profile: meta.profile }, plan, ctx.services.tools).filter(
    (question) => question.field in answers,
  );
  if (unusable.length > 0) {
    const problems = unusable.map((question) => ({
      field: `answers.${question.field}`,
      message: `expected ${question.expected}, got ${JSON.stringify(answers[question.field])}`,
    }));
    throw new HttpError(
      400,
      "invalid_answer",
      problems.map((p) => `${p.field}: ${p.message}`).join("; "),
      problems,
    );
  }

  const answered = {
    ...clarification,
    status: "answered" as const,
    answered_at: now().toISOString(),
    answer: answers,
  };
  const stored = await runs.updateRun(
    runId,
    { status: "RUNNING", request, plan, clarification: answered, task_token: null },
    { statuses: ["AWAITING_INPUT"], taskToken: token },
  );
  if (!stored) throw stale(runId, "answered");
  await publisher.publish(runId, { stage: "answer", status: "answered", fields: Object.keys(answers) });
  await continueExecution(runId, token, ctx);
  ctx.logger.info("run answered", { run_id: runId, fields: Object.keys(answers) });
  return answered;
}

/**
 * The request and plan with the answers in, validated like the original request and plan: the
 * answer becomes part of them.
 */
function answeredRun(
  meta: MetaItem,
  answers: Record<string, unknown>,
  ctx: ApiContext,
): { request: EvaluationRequest; plan: Plan } {
  const { tools, config, documentPolicy, resultPolicy } = ctx.services;
  const profile = profileModule(meta.profile);
  let answered: { request: EvaluationRequest; plan: Plan };
  try {
    answered = profile.answered(meta.request, meta.plan as Plan, answers, {
      tools: tools.catalog(profile.name),
      maxSteps: maxStepsFor(meta.request, config.maxSteps),
      scope: meta.plan?.scope,
    });
    // A loan request is checked whole (documents, destinations, sizes); another agent's plan checks its args.
    if (!meta.profile)
      validateRequest(answered.request, {
        documents: documentPolicy,
        results: resultPolicy,
        metadataProblems: checkLoanMetadata,
      });
  } catch (error) {
    if (error instanceof RequestTooLargeError) {
      throw new HttpError(413, "request_too_large", error.message, error.problems);
    }
    if (error instanceof InvalidRequestError) {
      // An answered field's problem is the answer's: named as the caller sent it.
      const problems = error.problems.map((problem) => {
        const answered = problem.field.replace(/^metadata\./, "");
        return Object.hasOwn(answers, answered)
          ? {
              field: `answers.${answered}`,
              message: `${problem.message}, got ${JSON.stringify(answers[answered])}`,
            }
          : problem;
      });
      const message = `invalid answer: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`;
      throw new HttpError(400, "invalid_answer", message, problems);
    }
    if (error instanceof PlanValidationError) {
      const problems = error.issues.map((issue) => ({ field: "answers", message: issue }));
      throw new HttpError(400, "invalid_answer", `answers: ${error.issues.join("; ")}`, problems);
    }
    throw error;
  }
  return answered;
}

type Decision =
  | { decision: "approve"; reason?: string }
  | { decision: "reject"; reason: string }
  | { decision: "edit"; plan: unknown; reason?: string };

export async function decideApproval(
  runId: string,
  event: APIGatewayProxyEvent,
  ctx: ApiContext,
): Promise<APIGatewayProxyResult> {
  checkRunId(runId);
  const body = jsonBody(event, ctx.services.config.api.maxBodyBytes, 'a JSON object {"decision": "approve"}');
  await refuseCustomerRun(runId, "decided", ctx);
  return json(202, await submitDecision(runId, body, ctx));
}

/** Decides the plan the run waits on (`body`: {"decision": ...}) and lets its execution go on. */
export async function submitDecision(
  runId: string,
  input: unknown,
  ctx: ApiContext,
): Promise<{ run_id: string; status: "RUNNING"; approval: Approval; plan?: Plan; plan_review?: Review }> {
  const { runs, publisher, now } = ctx.services;
  const body = readDecision(input);
  const meta = await runs.getMeta(runId);
  const { token, approval } = waiting(meta, "AWAITING_APPROVAL");
  if (approval?.status !== "pending") {
    throw new HttpError(409, "not_waiting", `run ${runId} has no plan waiting for approval`);
  }
  const at = now().toISOString();
  let decided: Approval;
  let edited: { plan: Plan; review: ReturnType<typeof reviewPlan> } | undefined;
  switch (body.decision) {
    case "approve":
      decided = { ...approval, status: "approved", decided_at: at, ...reasonOf(body) };
      break;
    case "reject":
      decided = { ...approval, status: "rejected", decided_at: at, reason: body.reason };
      break;
    case "edit": {
      edited = editedPlan(meta, body.plan, ctx);
      decided = { ...approval, status: "edited", decided_at: at, ...reasonOf(body) };
      break;
    }
  }
  const stored = await runs.updateRun(
    runId,
    {
      status: "RUNNING",
      approval: decided,
      task_token: null,
      ...(edited ? { plan: edited.plan, plan_review: edited.review } : {}),
    },
    { statuses: ["AWAITING_APPROVAL"], taskToken: token },
  );
  if (!stored) throw stale(runId, "decided");
  if (edited) {
    await publisher.publish(runId, { stage: "plan", plan: edited.plan });
    await publisher.publish(runId, { stage: "review", target: "plan", ...edited.review });
  }
  await publisher.publish(runId, {
    stage: "approval",
    status: decided.status,
    ...(decided.reason ? { reason: decided.reason } : {}),
  });
  await continueExecution(runId, token, ctx);
  ctx.logger.info("plan decided", { run_id: runId, decision: decided.status });
  return {
    run_id: runId,
    // A rejected run ends REJECTED as soon as the execution reaches Finalize.
    status: "RUNNING",
    approval: decided,
    ...(edited ? { plan: edited.plan, plan_review: edited.review } : {}),
  };
}

/**
 * A run that acts on a customer's money or cards waits for that customer alone: only their "yes" in
 * the chat confirms it and only their words answer it. The operator routes refuse it (409), whoever
 * the caller is: an officer allowed on the REST API is not the customer.
 */
async function refuseCustomerRun(
  runId: string,
  what: "answered" | "decided",
  ctx: ApiContext,
): Promise<void> {
  const meta = await ctx.services.runs.getMeta(runId);
  if (!meta.customer_id) return;
  const message = `run ${runId} is a customer's chat request: it can only be ${what} by that customer in the chat (POST /v1/chat), not through this route`;
  throw new HttpError(409, "customer_decision_required", message, [{ field: "run_id", message }]);
}

function reasonOf(body: { reason?: string }): { reason?: string } {
  return body.reason ? { reason: body.reason } : {};
}

function readDecision(body: unknown): Decision {
  const field = (name: string, message: string) =>
    new HttpError(400, "invalid_decision", `${name}: ${message}`, [{ field: name, message }]);
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw field("(body)", 'expected a JSON object {"decision": "approve" | "reject" | "edit", ...}');
  }
  const { decision, reason, plan, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw field(extra, 'unknown field; expected "decision", "reason" and, to edit, "plan"');
  if (decision !== "approve" && decision !== "reject" && decision !== "edit") {
    throw field(
      "decision",
      `expected "approve", "reject" or "edit", got ${JSON.stringify(decision) ?? "nothing"}`,
    );
  }
  if (reason !== undefined && (typeof reason !== "string" || reason.length > 2000)) {
    throw field("reason", "expected a string of at most 2,000 characters");
  }
  if (decision === "reject") {
    if (typeof reason !== "string" || reason.trim() === "") {
      throw field("reason", "required to reject: say what is wrong with the plan");
    }
    return { decision, reason: reason.trim() };
  }
  if (decision === "edit") {
    if (plan === undefined) {
      throw field("plan", "required to edit: the replacement plan, as steps or as the planner writes it");
    }
    return {
      decision,
      plan,
      ...(typeof reason === "string" && reason.trim() ? { reason: reason.trim() } : {}),
    };
  }
  if (plan !== undefined) throw field("plan", 'only with "decision": "edit"');
  return { decision, ...(typeof reason === "string" && reason.trim() ? { reason: reason.trim() } : {}) };
}

/**
 * The operator's plan, parsed and validated exactly like a planner's output (the same parser, the
 * profile's required steps, the tools and their args, max_steps), then reviewed: a plan the reviewer
 * does not approve (e.g. one that reads a document the request did not send) is refused, and the
 * run keeps waiting.
 */
function editedPlan(
  meta: MetaItem,
  input: unknown,
  ctx: ApiContext,
): { plan: Plan; review: ReturnType<typeof reviewPlan> } {
  const { tools, config } = ctx.services;
  const profile = profileModule(meta.profile);
  const catalog = tools.catalog(profile.name);
  const text = typeof input === "string" ? input : JSON.stringify(input);
  const maxSteps = maxStepsFor(meta.request, config.maxSteps);
  let plan: Plan;
  try {
    plan = profile.planFromText(text, {
      tools: catalog,
      maxSteps,
      request: meta.request,
      scope: meta.plan?.scope,
    });
  } catch (error) {
    if (error instanceof PlanParseError) {
      throw new HttpError(400, "invalid_plan", `plan: ${error.message}`, [
        { field: "plan", message: error.message },
      ]);
    }
    if (error instanceof PlanValidationError) {
      throw new HttpError(
        400,
        "invalid_plan",
        `plan: ${error.message}`,
        error.issues.map((issue) => ({ field: "plan", message: issue })),
      );
    }
    throw error;
  }
  const review = profile.reviewPlan
    ? profile.reviewPlan(plan, meta.request, config.reviewThreshold)
    : reviewPlan(planReviewInput(profile, plan, meta.request, catalog, maxSteps), config.reviewThreshold);
  if (!review.approved) {
    throw new HttpError(
      400,
      "plan_not_approved",
      `plan: the edited plan scored ${review.score}/10 in review: ${review.issues.map((issue) => issue.message).join("; ")}`,
      review.issues.map((issue) => ({
        field: issue.ref ? `plan.${issue.ref}` : "plan",
        message: issue.message,
      })),
    );
  }
  return { plan, review };
}

function waiting(
  meta: MetaItem,
  status: Extract<RunStatus, "AWAITING_INPUT" | "AWAITING_APPROVAL">,
): { token: string } & Pick<MetaItem, "clarification" | "approval"> {
  const what = status === "AWAITING_INPUT" ? "input" : "an approval";
  if (meta.status !== status || !meta.task_token || !meta.plan) {
    throw new HttpError(
      409,
      "not_waiting",
      `run ${meta.run_id} is ${meta.status}; it is not waiting for ${what}`,
    );
  }
  return {
    token: meta.task_token,
    ...(meta.clarification ? { clarification: meta.clarification } : {}),
    ...(meta.approval ? { approval: meta.approval } : {}),
  };
}

function stale(runId: string, what: string): HttpError {
  return new HttpError(
    409,
    "not_waiting",
    `run ${runId} stopped waiting before this could be ${what} (another answer, a timeout or a cancel came first)`,
  );
}

/**
 * Sends the token back. The answer is stored already: if the wait state timed out or its execution
 * ended in between, the run's next state (WaitTimedOut, or a resumed execution) finds it there.
 */
async function continueExecution(runId: string, token: string, ctx: ApiContext): Promise<void> {
  const sent = await ctx.workflow.continueWith(token);
  if (!sent)
    ctx.logger.warn("the wait state no longer waited; the stored answer is read by the next state", {
      run_id: runId,
    });
}
