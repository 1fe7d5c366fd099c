// The plan cache (docs/architecture.md, "Plan cache"): a request of a shape an earlier run planned for
// gets that run's plan as a template, filled in with its own metadata and documents and validated by
// the agent's planFromText, the validator the planner's output goes through; no planner call. A plan is
// stored only after it passed review unchanged: not a replan, not one a person edits or must approve,
// not one whose template would keep anything of its request (lambdas/core/plan-template.ts).
import { createHash } from "node:crypto";
import type { Logger } from "@aws-lambda-powertools/logger";
import { profileModule } from "../agents/registry.ts";
import { chosenTemplate } from "../core/agent-profiles.ts";
import { approvalRequired } from "../core/interaction.ts";
import {
  canonicalJson,
  fillTemplate,
  PLAN_TEMPLATE_VERSION,
  requestShape,
  templateOf,
} from "../core/plan-template.ts";
import { describeTools, GENERIC_PLANNER_PROMPT, GENERIC_PLANNER_SYSTEM_PROMPT } from "../core/prompts.ts";
import type { EvaluationRequest, Plan, PlanSource, ProfileName } from "../core/types.ts";
import { maxStepsFor } from "../core/validate.ts";
import type { Services } from "../runtime/services.ts";
import { PlanCacheStore } from "../store/plan-cache.ts";
import type { MetaItem } from "../store/runs.ts";
import { plannerScope } from "./scope.ts";

/** The metadata fields the key holds as they are: every request of a shape has the same. */
const SHARED_FIELDS = ["loan_program", "classification"] as const;

let store: { services: Services; cache: PlanCacheStore } | undefined;
function cacheOf(services: Services): PlanCacheStore {
  if (store?.services !== services) {
    const { config, clients, now } = services;
    store = { services, cache: new PlanCacheStore(clients.ddb, config.runsTable, now) };
  }
  return store.cache;
}

/**
 * Whether a run may read and write the cache: the environment's switch and the request's
 * `options.plan_cache`; a ReWOO run (legacy runs make no planner call); an agent whose plan follows
 * from the request's shape. An agent whose planner reads the request's words into the request, or
 * whose plans are checked against a customer's holdings, plans from what is particular to the run.
 */
export function planCacheApplies(
  run: Pick<MetaItem, "request" | "mode" | "profile">,
  config: Services["config"],
): boolean {
  if (!config.planCache || run.request.options?.plan_cache === false) return false;
  if ((run.mode ?? "rewoo") !== "rewoo") return false;
  const profile = profileModule(run.profile);
  return !profile.readRequest && !profile.check;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

interface ShapeKey {
  key: string;
  /** Metadata values the key holds (loan program, classification). */
  shared: string[];
  /** The catalog and prompt text: words a plan may use without them coming from the request. */
  vocabulary: string;
}

/**
 * The cache key of a request: its agent, loan program and classification, its shape (requestShape),
 * the most steps its plan may have, the planner's provider and model, and hashes of the tool catalog
 * and the planner's prompt, so that a change to either starts afresh.
 */
export function shapeKeyOf(
  request: EvaluationRequest,
  profileName: ProfileName | undefined,
  services: Pick<Services, "config" | "tools" | "llm">,
): ShapeKey {
  const { config, tools, llm } = services;
  const profile = profileModule(profileName);
  const catalogText = describeTools(tools.catalog(profile.name));
  const prompt = profile.plannerPrompt
    ? [profile.plannerPrompt.system, chosenTemplate(profile.plannerPrompt, config.llm.plannerPrompt)]
    : [GENERIC_PLANNER_SYSTEM_PROMPT, GENERIC_PLANNER_PROMPT];
  const promptText = [...prompt, profile.defaultInstructions ?? ""].join("\n");
  const shared = SHARED_FIELDS.map((field) => request.metadata[field]).filter(
    (value): value is string => typeof value === "string",
  );
  const material = {
    version: PLAN_TEMPLATE_VERSION,
    profile: profile.name,
    loan_program: request.metadata.loan_program ?? null,
    classification: request.metadata.classification ?? null,
    shape: requestShape(request, plannerScope(request, profileName)),
    max_steps: maxStepsFor(request, config.maxSteps),
    planner: { provider: llm.planner.provider.name, model: llm.planner.model },
    catalog: sha256(catalogText),
    prompt: sha256(promptText),
  };
  return { key: sha256(canonicalJson(material)), shared, vocabulary: `${catalogText}\n${promptText}` };
}

/**
 * The cached plan for a run's request, filled in and validated, or undefined (no template, or one that
 * no longer fills in or validates: it is forgotten, and the planner plans). A store that cannot be read
 * is a miss too: the planner can always plan.
 */
export async function cachedPlan(
  run: Pick<MetaItem, "run_id" | "request" | "mode" | "profile">,
  services: Services,
  log: Logger,
): Promise<Plan | undefined> {
  if (!planCacheApplies(run, services.config)) return undefined;
  const { key } = shapeKeyOf(run.request, run.profile, services);
  let found: Awaited<ReturnType<PlanCacheStore["get"]>>;
  try {
    found = await cacheOf(services).get(key);
  } catch (error) {
    log.warn("plan cache unreadable; the planner plans", { error: (error as Error).message });
    return undefined;
  }
  if (!found) {
    log.info("plan cache miss", { shape_key: key });
    return undefined;
  }
  const profile = profileModule(run.profile);
  try {
    const steps = fillTemplate(found.template, run.request);
    const plan = profile.planFromText(JSON.stringify(steps), {
      tools: services.tools.catalog(profile.name),
      maxSteps: maxStepsFor(run.request, services.config.maxSteps),
      request: run.request,
      scope: plannerScope(run.request, run.profile),
    });
    log.info("plan cache hit: no planner call", { shape_key: key, source_run_id: found.source_run_id });
    return plan;
  } catch (error) {
    log.warn("cached plan no longer valid; forgotten, the planner plans", {
      shape_key: key,
      error: (error as Error).message,
    });
    await changeCache(() => cacheOf(services).delete(key), log);
    return undefined;
  }
}

/**
 * After the plan's first review: a planner's plan that passed it unchanged is stored as its shape's
 * template (unless the template would keep request data: then it is not, and the log says why); a
 * cached plan that failed it is forgotten.
 */
export async function rememberReviewedPlan(
  meta: Pick<MetaItem, "run_id" | "request" | "mode" | "profile" | "plan_source" | "replans" | "approval">,
  reviewed: { plan: Plan; approved: boolean; replanned: boolean },
  services: Services,
  log: Logger,
): Promise<void> {
  const source: PlanSource | undefined = meta.plan_source;
  if (!source || !planCacheApplies(meta, services.config)) return;
  const { key, shared, vocabulary } = shapeKeyOf(meta.request, meta.profile, services);
  if (source === "cache") {
    if (!reviewed.approved || reviewed.replanned) {
      log.warn("cached plan failed review; forgotten", { shape_key: key });
      await changeCache(() => cacheOf(services).delete(key), log);
    }
    return;
  }
  // A person may still edit or reject a plan that waits for approval; a replan answers one run's trouble.
  const unchanged = !reviewed.replanned && (meta.replans ?? 0) === 0 && !meta.approval;
  if (!reviewed.approved || !unchanged) return;
  if (approvalRequired(meta.request, services.config.approvalByDefault)) return;
  const outcome = templateOf({ steps: reviewed.plan.steps, request: meta.request, shared, vocabulary });
  if ("refused" in outcome) {
    log.info("plan not cached: its template would keep request data", {
      shape_key: key,
      problems: outcome.refused,
    });
    return;
  }
  if (await changeCache(() => cacheOf(services).put(key, outcome.template, meta.run_id), log)) {
    log.info("plan cached for its request shape", { shape_key: key });
  }
}

/**
 * A write to the cache that fails is logged, not the run's failure: the run has its plan, and the
 * next run of the shape asks the planner (or meets a template that fails validation and is forgotten).
 */
async function changeCache(write: () => Promise<void>, log: Logger): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    log.warn("plan cache not written", { error: (error as Error).message });
    return false;
  }
}
