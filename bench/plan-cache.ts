// The plan cache over a stream of loan requests (docs/architecture.md, "Plan cache"): the same stream
// through a twin with REWOO_PLAN_CACHE=on, once with every request's options.plan_cache false (the
// planner plans each one) and once as sent. Measured: LLM calls and tokens from the run records,
// which plan came from the cache, whether each request's verdicts were the same both times. The
// planner latency saved is modelled (bench/measure.ts LLM_LATENCY_MODEL): offline, the rule-based
// planner answers at once.
//
// `npx tsx bench/plan-cache.ts [--borrowers n]` prints the report's section for this measure alone.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generateSampleDocuments } from "../examples/samples.ts";
import { startTwin } from "../infra/local/twin.ts";
import type { EvaluationRequest, RunRecord, Usage } from "../lambdas/core/types.ts";
import { LLM_LATENCY_MODEL, modelledLlmMs } from "./measure.ts";
import { table } from "./report-format.ts";

export interface PlanCacheResults {
  requests: number;
  shapes: number;
  /** The stream with the cache bypassed (options.plan_cache false) and as sent. */
  off: PlanCacheStream;
  on: PlanCacheStream;
  /** Requests whose result was the same with the cache on as off. */
  same_results: number;
  /** Modelled planner latency of the planner calls the cache saved, in ms (LLM_LATENCY_MODEL). */
  modelled_planner_ms_saved: number;
  elapsed_ms: number;
}

export interface PlanCacheStream {
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_plans: number;
}

/** Three shapes (a return, a return's signature only, three bank statements), each for several borrowers. */
function stream(borrowers: number): Array<{ shape: string; request: EvaluationRequest }> {
  const names = ["Jane Q. Doe", "Rafael Ortiz", "Mei Chen", "Tomasz Nowak", "Amara Obi", "Luis Garza"];
  const requests: Array<{ shape: string; request: EvaluationRequest }> = [];
  for (let i = 0; i < borrowers; i++) {
    const name = names[i % names.length] as string;
    const borrower = {
      name: `${name} ${i}`,
      business_name: `${name.split(" ")[1]} Holdings ${i}`,
      monthly_income: 6000 + 750 * i,
    };
    const taxReturn = (instructions: string) => ({
      metadata: {
        loan_program: "Flex Supreme",
        classification: "1120 Corporate Tax Return",
        as_of_date: "2025-04-15",
        borrower_info: borrower,
        extracted_entities: { ein: `${10 + i}-${3456789 + i}`, tax_year: 2024 },
      },
      instructions,
      s3_pdf_paths: [i % 2 ? "rm-conditions/1120-unsigned.pdf" : "rm-conditions/1120-signed.pdf"],
      options: { clarification: "never" as const },
    });
    requests.push({
      shape: "return",
      request: taxReturn("Evaluate all loan conditions for this tax return"),
    });
    requests.push({ shape: "signature", request: taxReturn("Only check the signature of the return") });
    requests.push({
      shape: "statements",
      request: {
        metadata: {
          loan_program: "Flex Supreme",
          classification: "Bank Statements",
          as_of_date: "2025-04-15",
          borrower_info: borrower,
        },
        instructions: "Check if these bank statements are sufficient for income verification.",
        s3_pdf_paths: [
          "rm-conditions/statement-2025-01.pdf",
          "rm-conditions/statement-2025-02.pdf",
          "rm-conditions/statement-2025-03-nsf.pdf",
        ],
        options: { clarification: "never" },
      },
    });
  }
  return requests;
}

const sum = (usages: Usage[], field: "llm_calls" | "input_tokens" | "output_tokens") =>
  usages.reduce((total, usage) => total + usage[field], 0);

export async function measurePlanCache(options: { borrowers?: number } = {}): Promise<PlanCacheResults> {
  const started = performance.now();
  const twin = await startTwin({
    persist: false,
    env: { REWOO_LLM_PROVIDER: "rule-based", REWOO_PLAN_CACHE: "on", REWOO_TOOL_LATENCY_MS: "" },
  });
  try {
    const bucket = twin.services.config.documentsBucket;
    for (const document of await generateSampleDocuments()) {
      await twin.services.blobs.putBytes({ bucket, key: document.key }, document.bytes, "application/pdf");
    }
    const requests = stream(options.borrowers ?? 4);
    // One at a time, in stream order: a request meets the templates of the ones before it.
    const runAll = async (bypass: boolean): Promise<RunRecord[]> => {
      const records: RunRecord[] = [];
      for (const { request } of requests) {
        const sent = bypass ? { ...request, options: { ...request.options, plan_cache: false } } : request;
        const record = await twin.waitForRun((await twin.startRun(sent)).run_id);
        if (record.status !== "SUCCEEDED") throw new Error(`run ${record.run_id} ended ${record.status}`);
        records.push(record);
      }
      return records;
    };
    const off = await runAll(true);
    const on = await runAll(false);
    const totals = (records: RunRecord[]): PlanCacheStream => ({
      llm_calls: sum(
        records.map((r) => r.usage),
        "llm_calls",
      ),
      input_tokens: sum(
        records.map((r) => r.usage),
        "input_tokens",
      ),
      output_tokens: sum(
        records.map((r) => r.usage),
        "output_tokens",
      ),
      cached_plans: records.filter((r) => r.plan_source === "cache").length,
    });
    // A cached run's usage lacks exactly the planner's call: the difference is what that call cost.
    const savedCalls = on.flatMap((record, i) => {
      const fresh = off[i] as RunRecord;
      if (record.plan_source !== "cache") return [];
      return [
        {
          input_tokens: fresh.usage.input_tokens - record.usage.input_tokens,
          output_tokens: fresh.usage.output_tokens - record.usage.output_tokens,
        },
      ];
    });
    return {
      requests: requests.length,
      shapes: new Set(requests.map((r) => r.shape)).size,
      off: totals(off),
      on: totals(on),
      same_results: on.filter((record, i) => JSON.stringify(record.result) === JSON.stringify(off[i]?.result))
        .length,
      modelled_planner_ms_saved: Math.round(modelledLlmMs(savedCalls)),
      elapsed_ms: Math.round(performance.now() - started),
    };
  } finally {
    await twin.stop();
  }
}

export function planCacheSection(p: PlanCacheResults): string[] {
  const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(0)} %` : "—");
  const row = (label: string, s: PlanCacheStream) => [
    label,
    s.cached_plans,
    s.llm_calls,
    s.input_tokens,
    s.output_tokens,
  ];
  return [
    "## The plan cache",
    "",
    `How measured: a stream of ${p.requests} loan requests (${p.shapes} request shapes, each for ${p.requests / p.shapes} borrowers with their own names, figures and returns) through one twin with \`REWOO_PLAN_CACHE=on\` and the rule-based provider, one at a time: first with every request's \`options.plan_cache: false\` (the planner plans each), then as sent. Counts and tokens are the run records' \`usage\`; the planner latency saved is modelled (${LLM_LATENCY_MODEL.base_ms} ms per call + ${LLM_LATENCY_MODEL.per_input_token_ms} ms per input token + ${LLM_LATENCY_MODEL.per_output_token_ms} ms per output token, the tokens each saved call would have used): offline the planner answers at once. ${(p.elapsed_ms / 1000).toFixed(1)} s.`,
    "",
    table(
      ["stream", "cached plans", "LLM calls", "input tokens", "output tokens"],
      [
        row("cache off", p.off),
        row("cache on", p.on),
        [
          "**saved**",
          "",
          `**${p.off.llm_calls - p.on.llm_calls}** (${percent(p.off.llm_calls - p.on.llm_calls, p.off.llm_calls)})`,
          `${p.off.input_tokens - p.on.input_tokens} (${percent(p.off.input_tokens - p.on.input_tokens, p.off.input_tokens)})`,
          `${p.off.output_tokens - p.on.output_tokens} (${percent(p.off.output_tokens - p.on.output_tokens, p.off.output_tokens)})`,
        ],
      ],
      ["l", "r", "r", "r", "r"],
    ),
    "",
    `The first request of each shape asks the planner and stores its plan; the other ${p.requests - p.shapes} run it filled in with their own metadata and documents. Modelled planner latency saved: ${(p.modelled_planner_ms_saved / 1000).toFixed(1)} s over the stream (${Math.round(p.modelled_planner_ms_saved / Math.max(1, p.on.cached_plans))} ms per cached plan). Same result with the cache as without: ${p.same_results} of ${p.requests} requests.`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf("--borrowers");
  const borrowers = at > 0 ? Number(process.argv[at + 1]) : 4;
  if (!Number.isInteger(borrowers) || borrowers < 1) {
    console.error("--borrowers: expected a positive integer");
    process.exit(2);
  }
  process.env.POWERTOOLS_LOG_LEVEL ??= "ERROR";
  measurePlanCache({ borrowers }).then(
    (results) => {
      console.log(planCacheSection(results).join("\n"));
      console.log(`\n${JSON.stringify(results)}`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
