// WAITING FOR A PERSON (the AwaitInput / AwaitApproval states, `lambda:invoke.waitForTaskToken`): the
// run stores the state's task token and says what it waits for; the execution then waits, at no
// cost, until the API sends the token back with the answer or the decision (SendTaskSuccess), or the
// wait times out (WaitTimedOut). A resumed execution (twin restart, redrive) waits again with a new
// token; the question is announced once.
import type { Logger } from "@aws-lambda-powertools/logger";
import { runQuestions } from "../agents/registry.ts";
import { deadlineAfter } from "../core/interaction.ts";
import { type Approval, type Clarification, isTerminal } from "../core/types.ts";
import type { Services } from "../runtime/services.ts";

export type WaitKind = "input" | "approval";

export async function awaitPersonRun(
  event: { run_id: string; wait: WaitKind; task_token: string },
  services: Services,
  log: Logger,
): Promise<{ waiting: WaitKind }> {
  const { runs, publisher, config } = services;
  const runId = event.run_id;
  if (typeof event.task_token !== "string" || event.task_token === "") {
    throw new Error(`${event.wait} wait of run ${runId}: the state passed no task token`);
  }
  const meta = await runs.getMeta(runId);
  if (isTerminal(meta.status)) throw new Error(`run ${runId} is already ${meta.status}; not waiting`);
  if (!meta.plan) throw new Error(`run ${runId} has no plan; nothing to wait for`);
  const now = services.now();

  if (event.wait === "input") {
    const first = !meta.clarification;
    const clarification: Clarification = meta.clarification ?? {
      status: "asked",
      questions: runQuestions(meta, meta.plan, services.tools),
      asked_at: now.toISOString(),
      deadline: deadlineAfter(now, config.waitSeconds),
    };
    if (clarification.status !== "asked" || clarification.questions.length === 0) {
      throw new Error(`run ${runId} has no open question (${clarification.status}); not waiting for input`);
    }
    const stored = await runs.updateRun(
      runId,
      { status: "AWAITING_INPUT", clarification, task_token: event.task_token },
      { statuses: ["RUNNING", "AWAITING_INPUT"] },
    );
    if (!stored) throw new Error(`run ${runId} moved on while asking for input; not waiting`);
    if (first) {
      await publisher.publish(runId, {
        stage: "question",
        questions: clarification.questions,
        deadline: clarification.deadline,
      });
    }
    log.info("waiting for input", {
      fields: clarification.questions.map((question) => question.field),
      deadline: clarification.deadline,
      announced: first,
    });
    return { waiting: "input" };
  }

  const first = !meta.approval;
  const approval: Approval = meta.approval ?? {
    status: "pending",
    requested_at: now.toISOString(),
    deadline: deadlineAfter(now, config.waitSeconds),
  };
  if (approval.status !== "pending") {
    throw new Error(`run ${runId}'s plan is already ${approval.status}; not waiting for approval`);
  }
  const stored = await runs.updateRun(
    runId,
    { status: "AWAITING_APPROVAL", approval, task_token: event.task_token },
    { statuses: ["RUNNING", "AWAITING_APPROVAL"] },
  );
  if (!stored) throw new Error(`run ${runId} moved on while asking for approval; not waiting`);
  if (first) {
    await publisher.publish(runId, { stage: "approval", status: "pending", deadline: approval.deadline });
  }
  log.info("waiting for approval", { deadline: approval.deadline, announced: first });
  return { waiting: "approval" };
}

/**
 * The wait ran out (States.Timeout). An unanswered question: the run goes on without the answer (the
 * conditions that needed it come out insufficient_evidence and say no answer came). An approval that
 * never came: the run ends REJECTED. If the answer won the race (stored just before the timeout),
 * the run goes on with it.
 */
export async function waitTimedOutRun(
  runId: string,
  services: Services,
  log: Logger,
): Promise<{ timed_out: WaitKind | null }> {
  const { runs, publisher } = services;
  const meta = await runs.getMeta(runId);
  const at = services.now().toISOString();
  if (meta.status === "AWAITING_INPUT" && meta.clarification?.status === "asked") {
    const clarification: Clarification = { ...meta.clarification, status: "timed_out" };
    if (
      await runs.updateRun(
        runId,
        { status: "RUNNING", clarification, task_token: null },
        { statuses: ["AWAITING_INPUT"] },
      )
    ) {
      await publisher.publish(runId, {
        stage: "answer",
        status: "timed_out",
        fields: clarification.questions.map((question) => question.field),
      });
      log.warn("no answer came; going on without it", { deadline: clarification.deadline });
      return { timed_out: "input" };
    }
  }
  if (meta.status === "AWAITING_APPROVAL" && meta.approval?.status === "pending") {
    const approval: Approval = {
      ...meta.approval,
      status: "timed_out",
      decided_at: at,
      reason: `no decision by ${meta.approval.deadline}`,
    };
    if (
      await runs.updateRun(
        runId,
        { status: "RUNNING", approval, task_token: null },
        { statuses: ["AWAITING_APPROVAL"] },
      )
    ) {
      await publisher.publish(runId, { stage: "approval", status: "timed_out", reason: approval.reason });
      log.warn("no approval came; the run will end REJECTED", { deadline: meta.approval.deadline });
      return { timed_out: "approval" };
    }
  }
  log.info("the wait timed out after the answer or the decision arrived; going on with it");
  return { timed_out: null };
}
