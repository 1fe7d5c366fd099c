import type { WorkflowTask } from "../core/billed-transitions.ts";
import { instrumentHandler } from "../runtime/invocation.ts";
import { createLogger } from "../runtime/logger.ts";
import { services } from "../runtime/services.ts";
import { functionTracer } from "../runtime/tracer.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { CoreBankingStore } from "../store/core-banking.ts";
import { awaitPersonRun, type WaitKind, waitTimedOutRun } from "./await-person.ts";
import { type PlanOutput, planRun, replanRun } from "./plan-run.ts";
import { type HoldingsReader, reviewPlanRun } from "./review-plan.ts";

const SERVICE = "rewoo-planner";
const logger = createLogger(SERVICE);
const tracer = functionTracer(SERVICE);

let bank: CoreBankingStore | undefined;
/** Customers' holdings, read (never written) to check a transfer before it is confirmed. */
const holdings: HoldingsReader = (customerId) => {
  const { config, clients, now } = services();
  if (!config.coreBankingTable) {
    throw new Error("the planner cannot check a transfer: CORE_BANKING_TABLE is not set");
  }
  bank ??= new CoreBankingStore(clients.ddb, config.coreBankingTable, now);
  return bank.holdings(customerId);
};

/**
 * The Plan state sends `{run_id}`; ReviewPlan adds `action: "review"`, the Replan state (after the
 * levels ran) `action: "replan"`. The wait states (AwaitInput, AwaitApproval) send `action: "await"`
 * with what they wait for and their task token; WaitTimedOut `action: "wait_timeout"`.
 */
export type PlannerEvent =
  | { run_id: string; action?: "plan" | "review" | "replan" | "wait_timeout" }
  | { run_id: string; action: "await"; wait: WaitKind; task_token: string };

/** The state of statemachine/rewoo.asl.json that sent the event. */
function stateOf(event: PlannerEvent): WorkflowTask {
  switch (event.action) {
    case "review":
      return "ReviewPlan";
    case "replan":
      return "Replan";
    case "await":
      return event.wait === "approval" ? "AwaitApproval" : "AwaitInput";
    case "wait_timeout":
      return "WaitTimedOut";
    default:
      return "Plan";
  }
}

export const handler = instrumentHandler(
  {
    name: SERVICE,
    tracer,
    memoryMb: 1024,
    meter: (event: PlannerEvent) => ({ runId: event.run_id, task: stateOf(event) }),
    runs: () => services().runs,
    logger,
  },
  async (event): Promise<PlanOutput | object> => {
    const log = logger.createChild({ persistentKeys: { run_id: event.run_id } });
    try {
      switch (event.action) {
        case "review":
          return await reviewPlanRun(event.run_id, services(), log, holdings);
        case "replan":
          return await replanRun(event.run_id, services(), log);
        case "await":
          return await awaitPersonRun(event, services(), log);
        case "wait_timeout":
          return await waitTimedOutRun(event.run_id, services(), log);
        default:
          return await planRun(event.run_id, services(), log);
      }
    } catch (error) {
      log.error(`${event.action ?? "plan"} failed`, error as Error);
      throw forStateMachine(error);
    }
  },
);
