// Everything a function needs, built once per cold start (Lambda) or once per process (the local
// twin sets the environment first, then calls these). Handlers stay thin adapters.
//
// In layers, because CDK bundles each function into one file (no code splitting) and esbuild keeps
// only what an entry reaches: a handler that asks for a lower layer carries none of the higher ones.
// The lower three live in base-services.ts (re-exported here), which the functions that need no
// more import directly:
//   tableServices()    runs, sessions, events (DynamoDB only)       stream, ws, push
//   liveDelivery()     + WebSocket connections and delivery         ws, push
//   baseServices()     + evidence, documents, batches (S3), policies finalize, batch
//   catalogServices()  + the tool registry: schemas, descriptions,  api (plan edits, answers)
//                        questions, solver views
//   services()         + the models                                  planner, solver, worker, twin
// What the tools do when they run (the reference engines, document reading with its PDF library, the
// lender's clients, the core-banking store) only the worker's entry links (linkToolRuntime), so no other bundle contains it.
// The layers share one cache: in the twin, where every handler runs in one process, the API, the
// planner and the worker see the same stores, the same registry and the same models.
import {
  type BankingToolRunners,
  describeBankingToolCatalog,
} from "../agents/banking/banking-tool-catalog.ts";
import { describeLoanTools, type LoanToolRunners } from "../agents/loan/loan-tool-catalog.ts";
import { registeredAgentTools } from "../agents/registry.ts";
import type { ToolCatalog } from "../core/types.ts";
import { createLlmProviders, type LlmProviders, type ModelBinding } from "../llm/index.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { type BaseServices, baseServices, buildBaseServices, type ServiceOptions } from "./base-services.ts";
import type { Config } from "./config.ts";

export * from "./base-services.ts";

export type CatalogServices = BaseServices & { tools: ToolRegistry; catalog: ToolCatalog };
export type Services = CatalogServices & { llm: LlmProviders };

/** What the tools do when they run: the loan tools' and the banking tools' runners. */
export interface ToolRunners {
  loan: LoanToolRunners;
  banking: BankingToolRunners;
}

/**
 * What the tools do when they run, built from the stores and the `llm` tool's model (read when a tool
 * calls it): lambdas/runtime/tool-runtime.ts.
 */
export type ToolRuntime = (base: BaseServices, toolModel: () => ModelBinding) => ToolRunners;

/**
 * The tool registry over `base`. A tool's runner is asked for only when the tool runs, so the
 * registry describes, validates and asks before (and without) the runners; a tool run without them
 * is refused with what is missing.
 */
export function withTools(base: BaseServices, runners: () => ToolRunners): CatalogServices {
  const tools = new ToolRegistry(
    describeLoanTools(() => runners().loan, base.now),
    {
      banking_assistant: describeBankingToolCatalog(() => runners().banking),
      ...registeredAgentTools(),
    },
  );
  return { ...base, tools, catalog: tools.catalog() };
}

/** The whole graph in a process of its own (tests, benchmarks); tools run when `runtime` is given. */
export function buildServices(
  config: Config,
  options: ServiceOptions & { runtime?: ToolRuntime } = {},
): Services {
  const base = buildBaseServices(config, options);
  const llm = createLlmProviders(config.llm);
  let runners: ToolRunners | undefined;
  const withRegistry = withTools(base, () => {
    if (!options.runtime) throw new ToolRuntimeMissingError();
    runners ??= options.runtime(base, () => llm.tool);
    return runners;
  });
  return { ...withRegistry, llm };
}

export class ToolRuntimeMissingError extends Error {
  override name = "ToolRuntimeMissingError";
  constructor() {
    super(
      "tools run only in the worker: this function has no tool runtime linked (lambdas/worker/index.ts links it with linkToolRuntime)",
    );
  }
}

// ---- Per-process singletons -------------------------------------------------------------------

let catalog: CatalogServices | undefined;
let full: Services | undefined;
let llm: LlmProviders | undefined;
let runtime: ToolRuntime | undefined;
let runners: ToolRunners | undefined;

/**
 * Links what the tools do into this process: called by the worker's entry, the one function that
 * runs tools, so that only its bundle carries the engines, the PDF library and the lender's clients.
 */
export function linkToolRuntime(linked: ToolRuntime): void {
  runtime = linked;
}

/** The base and the tool registry, without models: the API (plan edits, answers to questions). */
export function catalogServices(): CatalogServices {
  catalog ??= withTools(baseServices(), () => {
    if (!runtime) throw new ToolRuntimeMissingError();
    runners ??= runtime(baseServices(), () => {
      // Set by services(), which every function that runs tools builds before its first tool.
      if (!llm) throw new ToolRuntimeMissingError();
      return llm.tool;
    });
    return runners;
  });
  return catalog;
}

/** The base, the tool registry and the models: the planner, the solver, the worker (and the twin). */
export function services(): Services {
  if (!full) {
    const withRegistry = catalogServices();
    llm ??= createLlmProviders(withRegistry.config.llm);
    full = { ...withRegistry, llm };
  }
  return full;
}
