// The report's sections besides the headline tables: layouts, the banking reader, OCR, bundles,
// batches, throughput, worker round trips, where ReWOO loses and what could improve.

import { BUNDLE_TARGETS, describeTarget, targetsFor } from "./bundles.ts";
import type { HeldOutScore } from "./held-out-documents.ts";
import type { LayoutResults } from "./layouts.ts";
import { fixed, int, kib, mib, table } from "./report-format.ts";
import type { BankingNluResults, BenchResults, OcrResults } from "./results.ts";

export function layoutSection(l: LayoutResults): string[] {
  const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "—");
  const out = [
    "## Verdicts on layouts the engines were not written against",
    "",
    `How measured: the labelled loan files of \`examples/layouts/\` (Form 1120 prints and bank layouts of our own design, each with distractors), extracted with \`extractPdfText\` and judged as the agent judges them (PreConditions from the case's metadata, then Conditions AI), every labelled condition compared with its label. Labels come from how each file was generated, never from the engine. ${l.layouts.reduce((n, s) => n + s.cases, 0)} loan files, ${l.verdicts} labelled verdicts, ${(l.elapsed_ms / 1000).toFixed(1)} s.`,
    "",
    table(
      [
        "layout",
        "document",
        "files",
        "verdicts",
        "right",
        "accuracy",
        "false fulfilled",
        "insufficient evidence",
      ],
      [
        ...l.layouts.map((s) => [
          s.layout,
          s.document === "form_1120" ? "Form 1120" : "bank statements",
          s.cases,
          s.verdicts,
          s.right,
          percent(s.right, s.verdicts),
          s.false_fulfilled,
          percent(s.insufficient, s.verdicts),
        ]),
        [
          "**all**",
          "",
          l.layouts.reduce((n, s) => n + s.cases, 0),
          l.verdicts,
          l.right,
          `**${percent(l.right, l.verdicts)}**`,
          `**${l.false_fulfilled}**`,
          percent(l.insufficient, l.verdicts),
        ],
      ],
      ["l", "l", "r", "r", "r", "r", "r", "r"],
    ),
    "",
    `"Fulfilled" verdicts without a citation whose excerpt is on the cited page: ${l.unverified_fulfilled}.`,
  ];
  const misses = l.layouts.flatMap((s) => s.misses.map((miss) => `- ${s.layout}: ${miss}`));
  if (misses.length) out.push("", "Wrong verdicts:", "", ...misses);
  return out;
}

/** One line of the headline for the held-out documents, when they were judged. */
export function heldOutHeadline(h: HeldOutScore | null | undefined): string[] {
  if (!h) return [];
  const percent = ((100 * h.right) / Math.max(1, h.verdicts)).toFixed(1);
  return [
    `- Held-out real documents (official IRS forms, statements of US, UK, Canadian, Irish, Indian, Australian and New Zealand banks, built by authors who never read the engine): ${h.right}/${h.verdicts} verdicts right (${percent} %), ${h.false_fulfilled} false fulfilled, ${h.wrong_not_fulfilled} wrong not_fulfilled${h.with_ocr ? `; with the offline OCR engine reading the image-only pages, as the agent does: ${h.with_ocr.right}/${h.with_ocr.verdicts} (its image-only statements ${h.with_ocr.image_only.right}/${h.with_ocr.image_only.verdicts})` : ""}.`,
  ];
}

/** The held-out corpus read with the offline OCR engine, in a sentence; empty when not measured. */
function heldOutWithOcr(h: HeldOutScore): string[] {
  const o = h.with_ocr;
  if (!o) return [];
  return [
    "",
    `With the offline OCR engine (\`createTesseractEngine\`, as the agent reads a page without a text layer) reading the ${o.pages_ocr} image-only pages: **${o.right}/${o.verdicts}** right, ${o.false_fulfilled} false fulfilled, ${o.wrong_not_fulfilled} wrong not_fulfilled, ${o.insufficient} insufficient_evidence; the image-only statements (a scan and a phone photo built by the corpus's authors, never by the engine's) ${o.image_only.right}/${o.image_only.verdicts}. ${(o.elapsed_ms / 1000).toFixed(1)} s. Only this: \`npx tsx bench/held-out-documents.ts --ocr\`.`,
  ];
}

export function heldOutSection(h: HeldOutScore): string[] {
  const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "—");
  const rows = (
    entries: Record<
      string,
      {
        verdicts: number;
        right: number;
        false_fulfilled: number;
        wrong_not_fulfilled: number;
        insufficient: number;
      }
    >,
  ) =>
    Object.entries(entries)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]) => [
        name,
        t.verdicts,
        t.right,
        percent(t.right, t.verdicts),
        t.false_fulfilled,
        t.wrong_not_fulfilled,
        percent(t.insufficient, t.verdicts),
      ]);
  const header = [
    "",
    "verdicts",
    "right",
    "accuracy",
    "false fulfilled",
    "wrong not_fulfilled",
    "insufficient evidence",
  ];
  const align: Array<"l" | "r"> = ["l", "r", "r", "r", "r", "r", "r"];
  return [
    "## Verdicts on real documents nobody here designed (held-out corpus)",
    "",
    `How measured: the hand-labelled loan files of \`test/fixtures/held-out-documents/\` (official IRS Form 1120, 1120-S and 1065 PDFs filled through their own fields and flattened, signed typed, drawn, as images or not at all; bank statements after real layouts of US, UK, Canadian, Irish, Indian, Australian and New Zealand banks and a brokerage, some image only), judged as the agent judges them (PreConditions, then Conditions AI over the extracted text, no OCR engine: an image-only statement is insufficient_evidence here) and compared with their labels. Three batches, each built and labelled by an author who never read the engine; batch 3 was scored once, blind, before any change made after seeing it: 71/100 right, 3 false fulfilled, 2 wrong not_fulfilled (batch 2, seen only after the first changes of this work: 86/125 on the engine before them). ${h.files} loan files, ${h.verdicts} labelled verdicts, ${(h.elapsed_ms / 1000).toFixed(1)} s. Only this section: \`npx tsx bench/held-out-documents.ts --section\`.`,
    "",
    ...heldOutWithOcr(h).slice(1),
    ...(h.with_ocr ? [""] : []),
    table(["**batch**", ...header.slice(1)], rows(h.by_batch), align),
    "",
    table(
      ["**source**", ...header.slice(1)],
      [
        ...rows(h.by_source),
        [
          "**all**",
          h.verdicts,
          h.right,
          `**${percent(h.right, h.verdicts)}**`,
          `**${h.false_fulfilled}**`,
          `**${h.wrong_not_fulfilled}**`,
          percent(h.insufficient, h.verdicts),
        ],
      ],
      align,
    ),
    "",
    table(
      ["condition", "verdicts", "right", "accuracy"],
      Object.entries(h.by_condition)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([id, c]) => [id, c.verdicts, c.right, percent(c.right, c.verdicts)]),
      ["l", "r", "r", "r"],
    ),
    "",
    "Wrong verdicts:",
    "",
    ...h.misses.map((miss) => `- ${miss.length > 400 ? `${miss.slice(0, 400)}…` : miss}`),
  ];
}

/** One line of the headline for the banking chat-message section, when it ran. */
export function bankingNluHeadline(b: BankingNluResults | null | undefined): string[] {
  const [development, heldOut] = b?.tables ?? [];
  if (!development || !heldOut) return [];
  return [
    `- Banking chat messages the rules were not tuned on: ${heldOut.fully_right}/${heldOut.messages} fully right, intent ${heldOut.intent_right}/${heldOut.messages} (development table: ${development.fully_right}/${development.messages}, intent ${development.intent_right}/${development.messages}).`,
  ];
}

/** The banking chat-message section (bench/banking-nlu.ts); `npx tsx bench/banking-nlu.ts` prints it alone. */
export function bankingNluSection(b: BankingNluResults): string[] {
  const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "—");
  const right = (part: number, whole: number) => `${part}/${whole} (${percent(part, whole)})`;
  const out = [
    "## Banking chat messages (offline understanding)",
    "",
    `How measured: every labelled message read by \`understand\` and \`detectCommand\` (\`lambdas/agents/banking/nlu.ts\`, patterns, no model); a slot-only answer is read with the request it answers (\`understand(message, pending)\`). *Intent right*: the request is the labelled one (for a command, the command; for any other message, the intent or none, and no command read in it). *Slots right*: each labelled slot equal to its label (amounts in minor units with their currency, card and account references, payees, account types, descriptions). *Extra*: slots read that the label does not name. *Fully right*: intent right, every labelled slot right and no extra slot. The development table is the one the patterns were corrected against; the held-out table was written and labelled apart from them and is never used to tune them, so only its numbers say how the rules fare on unseen messages. ${b.tables.reduce((n, t) => n + t.messages, 0)} messages, ${b.elapsed_ms} ms. Only this section: \`npx tsx bench/banking-nlu.ts\`.`,
    "",
    table(
      [
        "table",
        "messages",
        "intent right",
        "slots right",
        "extra slots",
        "fully right",
        "follow-ups fully right",
      ],
      b.tables.map((t) => [
        t.table,
        t.messages,
        right(t.intent_right, t.messages),
        right(t.slots_right, t.slots_labelled),
        t.slots_extra,
        `**${right(t.fully_right, t.messages)}**`,
        t.follow_ups.messages ? right(t.follow_ups.fully_right, t.follow_ups.messages) : "—",
      ]),
      ["l"],
    ),
    "",
    "Per labelled request (intent right / fully right, of the messages):",
    "",
  ];
  const keys = [...new Set(b.tables.flatMap((t) => t.per_intent.map((row) => row.expected)))];
  out.push(
    table(
      ["request", ...b.tables.map((t) => t.table)],
      keys.map((key) => [
        key,
        ...b.tables.map((t) => {
          const row = t.per_intent.find((candidate) => candidate.expected === key);
          return row ? `${row.intent_right} / ${row.fully_right} of ${row.messages}` : "—";
        }),
      ]),
      ["l"],
    ),
  );
  for (const t of b.tables) {
    if (!t.misses.length) continue;
    out.push("", `Misses, ${t.table}:`, "");
    for (const miss of t.misses) {
      const pending = miss.pending ? ` (answering ${miss.pending})` : "";
      out.push(`- "${miss.message}"${pending}: ${miss.wrong.join("; ")}`);
    }
  }
  return out;
}

/** One line of the headline for the scanned-documents section, when it ran. */
export function ocrHeadline(o: OcrResults | null | undefined): string[] {
  if (!o) return [];
  const t = o.total;
  return [
    `- Scanned documents: ${t.right_scanned}/${t.verdicts} verdicts right (text: ${t.right_text}/${t.verdicts}), ${t.false_fulfilled_scanned} false fulfilled, ${fixed(o.cost.seconds_per_page)} s/page OCR offline (tesseract, ${o.workers} workers).`,
  ];
}

/** The scanned-documents section (bench/ocr.ts); `npx tsx bench/ocr.ts` prints it alone. */
export function ocrSection(o: OcrResults): string[] {
  const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "—");
  const right = (part: number, whole: number) => `${part} (${percent(part, whole)})`;
  const s = o.scan;
  const c = o.cost;
  const sc = o.scan_cost;
  const out = [
    "## Scanned documents (OCR)",
    "",
    `How measured: every document of the held-out layout sets (\`examples/layouts/holdout.ts\`, \`holdout-2.ts\`) printed and scanned by \`scanDocumentCached\` (\`examples/scanned.ts\`, DEFAULT_SCAN: image only, ${s.dpi} dpi ${s.color}, ${s.rotationDegrees}° skew, ${s.blurPx} px blur, ±${s.noise} grey levels of seeded noise, JPEG ${s.jpegQuality}), read by the offline OCR engine (\`createTesseractEngine\`: MuPDF at 300 dpi, tesseract.js, ${o.workers} workers on ${o.cores} cores) through \`extractPdfText\`, one document after another, and judged exactly as the layout section judges the text originals (PreConditions from the case's metadata and as_of_date, then Conditions AI), every labelled condition compared with its label; the text originals are judged again beside them. A decision on a page read below ${o.min_confidence} % confidence is insufficient_evidence by design. ${o.total.cases} loan files, ${o.total.documents} documents, ${o.total.pages} pages, ${o.total.verdicts} labelled verdicts, ${(o.elapsed_ms / 1000).toFixed(1)} s in all. Only this section: \`npx tsx bench/ocr.ts\`.`,
    "",
    table(
      [
        "set",
        "files (documents, pages)",
        "verdicts",
        "right on text",
        "right on scans",
        "false fulfilled on scans",
        "insufficient on scans",
      ],
      [
        ...o.sets.map((x) => [
          x.set,
          `${x.cases} (${x.documents}, ${x.pages})`,
          x.verdicts,
          right(x.right_text, x.verdicts),
          right(x.right_scanned, x.verdicts),
          x.false_fulfilled_scanned,
          x.insufficient_scanned,
        ]),
        [
          "**all**",
          `${o.total.cases} (${o.total.documents}, ${o.total.pages})`,
          o.total.verdicts,
          right(o.total.right_text, o.total.verdicts),
          `**${right(o.total.right_scanned, o.total.verdicts)}**`,
          `**${o.total.false_fulfilled_scanned}**`,
          o.total.insufficient_scanned,
        ],
      ],
      ["l", "r", "r", "r", "r", "r", "r"],
    ),
    "",
    `"Fulfilled" verdicts on scans without a citation whose excerpt is on the cited OCR page: ${o.total.unverified_fulfilled_scanned}. False "fulfilled" on the text originals: ${o.total.false_fulfilled_text}.`,
    "",
    `OCR cost: ${c.pages} pages in ${c.documents} documents, ${fixed(c.seconds, 1)} s of OCR (Σ of each document's OCR wall time, rasterising included; the first document also starts the workers): **${fixed(c.seconds_per_page)} s/page** (per document ${fixed(c.seconds_per_page_min)}–${fixed(c.seconds_per_page_max)}, median ${fixed(c.seconds_per_page_median)}), ${o.workers} tesseract workers (os.availableParallelism()) on ${o.cores} cores, load average ${fixed(o.load_average[0], 1)} at the start and ${fixed(o.load_average[1], 1)} at the end; mean page confidence ${fixed(c.mean_confidence, 1)} % (lowest page ${int(c.min_page_confidence)} %, ${c.pages_below_minimum} page(s) below ${o.min_confidence} %).`,
    `Scanning: ${
      sc.generated_documents
        ? `${sc.generated_documents} documents (${sc.generated_pages} pages) generated cold in ${fixed(sc.generated_ms / 1000, 1)} s (${fixed(sc.generated_ms / 1000 / sc.generated_pages)} s/page)`
        : "every scan was already in the on-disk cache (cold generation not measured this run)"
    }; all ${sc.cached_documents} read back warm from the cache in ${fixed(sc.cached_ms / 1000, 2)} s.`,
  ];
  const misses = o.sets.flatMap((x) => x.misses_scanned.map((miss) => `- ${miss}`));
  if (misses.length) out.push("", "Wrong verdicts on scans (CONDITION: label → verdict):", "", ...misses);
  const textMisses = o.sets.flatMap((x) => x.misses_text);
  if (textMisses.length)
    out.push(
      "",
      `Of these sets' text originals, ${textMisses.length} verdict(s) are wrong too (listed in the layout section).`,
    );
  const sm = o.samples;
  if (sm) {
    out.push(
      "",
      `### The sample documents, scanned`,
      "",
      `The scanned samples (\`generateScannedSampleDocuments\`, rm-conditions/scanned/) judged with the loan tests' metadata (as of 2025-04-15) against their text originals: **${sm.identical}/${sm.verdicts}** verdicts identical.`,
      "",
      table(
        ["case", "verdicts", "identical", "differences"],
        [
          ...sm.cases.map((x) => [x.name, x.verdicts, x.identical, x.differences.join("; ") || "—"]),
          [
            `${sm.mixed.name} (pages: ${sm.mixed.page_sources.join(", ")})`,
            sm.mixed.verdicts,
            sm.mixed.identical,
            sm.mixed.differences.join("; ") || "—",
          ],
        ],
        ["l", "r", "r", "l"],
      ),
      "",
      `The illegible copy (${int(sm.illegible.dpi)} dpi, fax-like; read at ${int(sm.illegible.confidence)} % mean confidence): ${sm.illegible.insufficient}/${sm.illegible.verdicts} verdicts insufficient_evidence${
        sm.illegible.insufficient === sm.illegible.verdicts
          ? " (all, as required)"
          : ` — **not all**: ${Object.entries(sm.illegible.statuses)
              .map(([id, status]) => `${id} ${status}`)
              .join(", ")}`
      }. Sample OCR: ${sm.cost.pages} pages, ${fixed(sm.cost.seconds, 1)} s (${fixed(sm.cost.seconds_per_page)} s/page); the scanned samples ${sm.scan.generated ? "were generated" : "came from the cache"} in ${fixed(sm.scan.ms / 1000, 1)} s.`,
    );
  }
  return out;
}

export function losses(r: BenchResults): string[] {
  const out: string[] = [];
  const s = r.scenarios;
  const t = r.totals;
  const lost = s.filter((x) => x.token_ratio < 1);
  const smallest = [...s].sort((a, b) => a.tool_calls - b.tool_calls || a.token_ratio - b.token_ratio)[0];
  if (lost.length) {
    out.push(
      `- **Total tokens on small plans.** ReWOO used more tokens than ReAct in ${lost.map((x) => `\`${x.name}\` (${x.tool_calls} tool calls, ratio ${fixed(x.token_ratio)})`).join(", ")}.`,
    );
  } else if (smallest) {
    out.push(
      `- **Small plans: the margin shrinks.** ReWOO never used more tokens in total here, but on \`${smallest.name}\` (${smallest.tool_calls} tool calls) ReAct needs only ${fixed(smallest.token_ratio)}× as many (${fixed(smallest.cost_weighted_ratio)}× cost-weighted). ReWOO pays a fixed price per run: a planner prompt of ${int(smallest.rewoo.planner_input_tokens)} tokens (tool schemas, loan rules, a worked example, the request) and a solver prompt that repeats the request and the plan next to the evidence (${int(smallest.rewoo.solver_input_tokens)} tokens here). ReAct's transcript grows with every observation, so its cost is small only when there are few tool calls.`,
    );
  }
  const outputLoss = s.filter((x) => x.react.output_tokens < x.rewoo.output_tokens);
  if (outputLoss.length) {
    out.push(
      `- **Output tokens.** ReWOO wrote more output tokens than ReAct in ${outputLoss.length} of ${s.length} scenarios (Σ ${int(t.rewoo_output_tokens)} vs ${int(t.react_output_tokens)}). The plan is written in full up front, with a description per step and the loan metadata copied into E1, and the stand-in planner pretty-prints it; ReAct's actions are compact one-liners. Output tokens are the expensive ones, so the cost-weighted ratio (${fixed(t.cost_weighted_ratio)}×) is lower than the token ratio (${fixed(t.token_ratio)}×).`,
    );
  }
  const modelled = s.map((x) => x.react.modelled_with_llm_ms / x.rewoo.modelled_with_llm_ms);
  const modelLoss = s.filter((x) => x.react.modelled_with_llm_ms <= x.rewoo.modelled_with_llm_ms);
  out.push(
    `- **Latency with a model in the loop (modelled)** is close: ReAct takes ${fixed(Math.min(...modelled))}–${fixed(Math.max(...modelled))}× ReWOO's time${modelLoss.length ? `, and is as fast or faster in ${modelLoss.map((x) => `\`${x.name}\``).join(", ")}` : ""}. Generation dominates both: the solver's answer is as long as ReAct's final answer, and ReWOO's planner writes more output than all of ReAct's turns together before the first tool starts. What ReWOO saves — ReAct's per-call overhead, the re-reading of a growing transcript, tools run one after another (≤ 500 ms each here) — is small next to tens of seconds of generation at ~50 tokens/s.`,
  );
  const overheads = s.map((x) => x.overhead_ms);
  const after = s.map((x) => x.overhead_breakdown.after_tools_ms + x.overhead_breakdown.before_tools_ms);
  out.push(
    `- **Orchestration overhead.** Each run spends ${int(Math.min(...overheads))}–${int(Math.max(...overheads))} ms above its lower bound in the twin, ${int(Math.min(...after))}–${int(Math.max(...after))} ms of it in the worker's bookkeeping before and after the tool calls (DynamoDB round trips, progress events) — an in-process ReAct loop has none of that. On AWS each Task is also a Lambda invocation (cold starts: see the bundle sizes).`,
  );
  const p = r.parallel;
  if (p) {
    out.push(
      `- **Parallelism is bounded by MaxConcurrency and by the CPU.** The widest level (${p.widest_level} steps) runs in ${Math.ceil(p.widest_level / p.worker_concurrency)} waves at MaxConcurrency ${p.worker_concurrency}, and in the twin the PDF text extraction of all steps shares the machine's cores; parallel over sequential was ${fixed(p.speedup)}× here, not ${p.widest_level}×.`,
    );
  }
  const worker = r.bundles.find((b) => b.function === "worker");
  if (worker?.bytes) {
    out.push(
      `- **The worker's bundle.** Each function bundles only what it uses, but the worker reads PDFs: ${mib(worker.bytes)} minified, dominated by ${worker.top_inputs
        .slice(0, 2)
        .map((i) => `${i.name} (${kib(i.bytes)})`)
        .join(
          ", ",
        )}. A cold worker imports it before its first tool call (${worker.import_ms === undefined ? "n/a" : `${fixed(worker.import_ms, 0)} ms`} here); a ReAct agent in one function would carry it on every call.`,
    );
  }
  return out;
}

/** The bundle change, with this run's planner size. */
function bundleImprovement(r: BenchResults): string {
  const planner = r.bundles.find((b) => b.function === "planner");
  const now = planner?.bytes ? ` now ${mib(planner.bytes)} for the planner on Bedrock` : "";
  return `4. **Bundles by need** (2026-11-24: every function but the authorizer was 5.4 MiB minified, gpt-tokenizer 2.7 MiB and unpdf 1.6 MiB of it;${now}). Functions build only the service layer they use (\`lambdas/runtime/services.ts\`: stores, + tool catalog, + models; document reading and the lender's clients are linked by the worker alone), the stack bundles the one LLM provider a function's environment names (esbuild \`define\`), the tokenizer loads on demand and only for providers that count tokens themselves, and zod is imported as a namespace so its locales are left out.`;
}

/** What a cold start imports, per function, and what it is spared (kept in step with the code by hand). */
const COLD_START_IMPORTS = [
  "What a cold start evaluates, besides the handler's own modules: the AWS SDK's client core (@smithy/core, @aws-sdk/core), the DynamoDB document client, Powertools' logger (and metrics in the workflow functions), zod with the request and configuration schemas, and:",
  "",
  "- *planner, solver*: the S3 client (evidence, documents), the Bedrock client and the agents' profiles (prompts, review rules) and the tool catalog.",
  "- *worker*: the same, the tools' engines and unpdf's front; pdf.js (1.6 MB) is imported from beside the bundle when a tool first reads a PDF (`BUNDLE_DEFERRED_IMPORTS`), so steps that read none never load it.",
  "- *finalize, batch*: the S3 client (results, manifests); no model client.",
  "- *api*: the S3 client (uploads), Step Functions, Secrets Manager (token keys), the tool catalog, and the agents' profiles through the registry (the waits re-review an edited plan by its agent's rules; the profiles' prompts come along, splitting them is left to the agents' modules).",
  "- *stream, websocket, push*: DynamoDB alone (`tableServices`), and the WebSocket Management API client for websocket and push; no S3 client.",
  "- *authorizer*: Secrets Manager and the token verifier only.",
  "",
  "Spared in every bundle: Node's ES-module view of `node:http` (loaded through require: the view loads undici, 10–20 ms), the SDK's credential chain beyond the environment credentials Lambda sets, and its SSO token chain with their nested STS/SSO clients (~100 KB; `BUNDLE_ALIAS`). The X-Ray SDK is bundled but evaluated only where tracing is on (in Lambda, with active tracing; not in these imports).",
];

/** Per deployed function: bundle sizes, import times and the cold-start targets (bench/bundles.ts). */
export function bundleSection(r: Pick<BenchResults, "bundles">): string[] {
  const bundles = r.bundles;
  if (bundles.length === 0) return [];
  const provider = bundles.find((b) => b.llm_provider)?.llm_provider ?? "n/a";
  const load = bundles.find((b) => b.load_average !== undefined)?.load_average;
  const ms = (value: number | undefined) => (value === undefined ? "n/a" : `${fixed(value, 0)} ms`);
  const missed = bundles.filter((b) => b.targets?.some((t) => !t.met));
  return [
    "## Lambda bundles (esbuild, minified)",
    "",
    `Each function of the service stack, bundled as the stack bundles it (\`infra/constructs/bundling.ts\`: platform node, target node22, ESM, minify, createRequire banner; the workflow functions with the LLM provider their environment names linked alone, here **${provider}**). *Full* bundles the AWS SDK (the stack's \`bundleAwsSDK: true\`); *SDK external* leaves \`@aws-sdk/*\` to the Node.js 22 runtime. *Import* is the median wall time of fresh \`node\` processes importing the bundle (module evaluation, no handler call), *CPU* the process's CPU time during it; the SDK-external import loads the SDK from \`node_modules\`, as the runtime loads its own copy. Targets (cold start): every function ≤ ${fixed(BUNDLE_TARGETS.bytes / 1_000_000, 2)} MB full and ≤ ${BUNDLE_TARGETS.importMs} ms to import, the worker (which reads documents) ≤ ${fixed(targetsFor("worker").bytes / 1_000_000, 2)} MB and ≤ ${targetsFor("worker").importMs} ms. Load average when timed: ${load === undefined ? "n/a" : fixed(load, 1)} (2 cores, shared). Only this measurement: \`npx tsx bench/bundles.ts\` (\`--section\` prints this section).`,
    "",
    ...COLD_START_IMPORTS,
    "",
    table(
      [
        "function",
        "LLM",
        "full",
        "full gzip",
        "SDK external",
        "import",
        "CPU",
        "import, SDK external",
        "targets",
        "largest inputs",
      ],
      bundles.map((b) =>
        b.error && !b.bytes
          ? [b.function, b.error, "", "", "", "", "", "", "", ""]
          : [
              b.function,
              b.llm_provider ?? "none",
              mib(b.bytes),
              mib(b.gzip_bytes),
              mib(b.bytes_sdk_external),
              ms(b.import_ms),
              ms(b.import_cpu_ms),
              ms(b.import_ms_sdk_external),
              (b.targets ?? []).map(describeTarget).join("; ") || "n/a",
              b.top_inputs
                .slice(0, 4)
                .map((i) => `${i.name} ${kib(i.bytes)}`)
                .join(", "),
            ],
      ),
      ["l", "l", "", "", "", "", "", "", "l", "l"],
    ),
    "",
    missed.length
      ? `Targets missed: ${missed
          .map(
            (b) =>
              `${b.function} (${(b.targets ?? [])
                .filter((t) => !t.met)
                .map(describeTarget)
                .join("; ")})`,
          )
          .join(", ")}.`
      : "Every target met.",
    "",
  ];
}

/** The performance targets this report checks, each met or missed by how much. */
export function targetLines(r: BenchResults): string[] {
  const t = r.totals;
  const s = r.scenarios;
  if (s.length === 0) return [];
  const verdict = (met: boolean, what: string) => `${met ? "met" : "**missed**"}: ${what}`;
  const ratio = t.rewoo_total_tokens / t.react_total_tokens;
  const smallest = [...s].sort((a, b) => a.tool_calls - b.tool_calls)[0] as (typeof s)[number];
  const smallestRatio = smallest.rewoo.total_tokens / smallest.react.total_tokens;
  const wall = t.rewoo_wall_ms / t.lower_bound_ms;
  const worst = [...s].sort(
    (a, b) => b.rewoo.wall_ms / b.lower_bound_ms - a.rewoo.wall_ms / a.lower_bound_ms,
  )[0] as (typeof s)[number];
  const worstRatio = worst.rewoo.wall_ms / worst.lower_bound_ms;
  const trips = r.round_trips ?? [];
  const maxTrips = Math.max(0, ...trips.map((row) => row.before_tool));
  return [
    "- Targets:",
    `  - ${verdict(ratio <= 0.15, `ReWOO ÷ ReAct tokens ${fixed(ratio, 3)} overall (target ≤ 0.15)`)}; ${verdict(smallestRatio <= 0.6, `${fixed(smallestRatio, 2)} on the smallest plan, \`${smallest.name}\` (target ≤ 0.60)`)}.`,
    `  - ${verdict(wall <= 1.05, `Σ wall ÷ Σ lower bound ${fixed(wall)} (target ≤ 1.05)`)}; ${verdict(worstRatio <= 1.15, `worst scenario \`${worst.name}\` ${fixed(worstRatio)} (target ≤ 1.15 on every scenario)`)}. The bound counts the planner, the levels' slowest tools, the solver and finalize; the plan and result reviewers' Tasks are outside it (see *review Tasks* below).`,
    ...(trips.length
      ? [
          `  - ${verdict(maxTrips <= 2, `at most ${maxTrips} DynamoDB round trip(s) before a worker's tool (target ≤ 2)`)}.`,
        ]
      : []),
  ];
}

/** The portfolio batch measure (bench/batch.ts). */
export function batchSection(r: BenchResults): string[] {
  const b = r.batch;
  if (!b) return [];
  const counts = Object.entries(b.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${status} ${int(n)}`)
    .join(", ");
  return [
    "## Portfolio batch",
    "",
    `${int(b.files)} loan files (the sample requests in turn, each with a loan id of its own) posted as one batch to \`POST /v1/batches\` on the benchmark's twin, no tool latency, and followed on \`GET /v1/batches/{id}\` until it ended. The twin runs \`statemachine/batch.asl.json\`: its Distributed Map (emulated in the twin's Step Functions layer) reads the manifest and runs one evaluation workflow per line, ${b.max_concurrency} at a time.`,
    "",
    table(
      ["files", "status", "wall", "files/s", "errors", "by status"],
      [[int(b.files), b.status, `${fixed(b.wall_ms / 1000, 1)} s`, fixed(b.files_per_s), b.errors, counts]],
      ["", "l", "", "", "", "l"],
    ),
    "",
  ];
}

/** Whether the twin reached 10 runs/s at N = 50, and by how much it missed. */
export function throughputVerdict(r: BenchResults): string[] {
  const at50 = r.concurrency.filter((c) => c.n === 50);
  if (at50.length === 0) return [];
  const best = at50.reduce((a, b) => (b.throughput_per_s > a.throughput_per_s ? b : a));
  const met = best.throughput_per_s >= 10 && best.errors === 0;
  return [
    met
      ? `Target met: ${fixed(best.throughput_per_s)} runs/s at N = 50 with ${best.worker_environments ?? 0} Work environment(s), 0 errors.`
      : `Target missed: at best ${fixed(best.throughput_per_s)} runs/s at N = 50 (${best.worker_environments ?? 0} Work environment(s), ${best.errors} errors), ${fixed(10 / best.throughput_per_s)}× short of 10 runs/s.`,
  ];
}

/** The worker's DynamoDB requests per step (bench/round-trips.ts), for the steps of one scenario. */
export function roundTripSection(r: BenchResults): string[] {
  const rows = r.round_trips ?? [];
  if (rows.length === 0) return [];
  return [
    "",
    `DynamoDB round trips of the worker per step (\`${rows[0]?.scenario}\`, each step run again through the worker on the twin's client; \`bench/round-trips.ts\`): *before the tool* = requests answered before the tool started (what the tool waited for; the \`started\` event is written while the tool runs); *after* = the \`started\` event (the run's event counter, then the event), the evidence, the \`completed\` event's counter (with the usage of a tool that called a model and the invocation's count on the run) and its event item; *in sequence after the tool* = the round trips the step's result waits for once the tool returned (the evidence and the counter are sent together, the event item once both answered). Through the worker's handler. Target: at most 2 before the tool.`,
    "",
    table(
      ["step", "tool", "before the tool", "after", "in sequence after the tool", "requests"],
      rows.map((row) => [
        row.step_id,
        row.tool,
        `${row.before_tool} (${row.before_tool_commands.join(", ")})`,
        row.requests - row.before_tool,
        row.after_tool_sequential ?? "–",
        row.requests,
      ]),
      ["l", "l", "l"],
    ),
  ];
}

export function improvements(r: BenchResults): string[] {
  const t = r.totals;
  const out: string[] = [
    `Made because of this benchmark (first full run, 2026-11-21: ReAct ÷ ReWOO **3.85×** over the same 10 scenarios; now **${fixed(t.token_ratio)}×**):`,
    "",
    "1. **Solver prompt without duplicate evidence.** `retrieve_s3_document` carried a 2,000-character text preview per document into the solver prompt, although the Conditions AI step reads the documents itself and its verdicts carry the page citations. Tools now declare a `solver_view`; retrieval evidence reaches the solver with its facts (path, size, pages, text layer) and a 200-character preview. The full output stays in the evidence store.",
    "2. **Compact plan lines.** The rule-based planner answers one compact step per line, like the planner prompt's example, instead of indented JSON.",
    "3. **Shorter prompts, same verdicts** (2026-11-24: ReWOO 66,621 → 46,536 tokens over the 10 scenarios, ReAct unchanged: ReAct ÷ ReWOO 5.40× → 7.72×). The planner reads each tool's args as a typed line instead of JSON Schema and a compact example; the solver reads the plan with args that repeat the request named, not copied, and leaner solver views (no storage facts of a retrieval, no `expected` of PreConditions, no `observed` of Conditions AI); it answers in compact JSON and writes a condition whose verdict it adopts as its id, which the solver function completes from the evidence (solver output 13,439 → 1,347 tokens in total). Results are identical.",
    `${bundleImprovement(r)}`,
  ];
  out.push(
    "5. **Worker bookkeeping** (2026-11-24): before its tool a worker made five sequential DynamoDB round trips (idempotency BatchGet, plan Get, `started` event = counter Update + Put, upstream BatchGet); now one Query reads the run's META and evidence, and the `started` event is written while the tool runs. The plan reviewer and the result reviewer store their verdict in the update that gives their event its seq, and a run whose steps all succeeded goes from the levels to the solver through a Choice, without asking the planner whether to replan (one Lambda invocation less per run).",
    "",
    "Still open:",
    "",
    "1. **Progress events cost two writes each** (the run's event counter, then the event item), and a run publishes about 16. A worker now reserves its `completed` event's seq while it writes the evidence, with the tool's model usage and its invocation's count in that update, so two round trips follow a tool instead of four (three when the tool returned before its `started` event had its seq). Evidence and event in one transaction would save one more, but the seq must be read back before the event item is written, and the twin's stream emulation does not stream transactional writes.",
    "2. **The twin's throughput is bound by the emulated database** (see Concurrency), not by the workflow: more Work environments help until dynalite, on the main thread, is the bottleneck.",
    "3. **Live delivery shares the twin's main thread**: dynalite and the gateway answer the push function's two writes per subscriber and drain and its PostToConnection calls on the thread the run's functions use. Running the WebSocket function in a thread of its own was tried and made it worse (subscribes then race the push function's drains for the connections' leases: 943 DynamoDB requests per watched run instead of 562).",
  );
  return out;
}

// ------------------------------------------------------------------------------------------------
// SVG charts, hand-written.
