// Replays recorded answers, for benchmarks and tests that need a model's exact output (a bad plan,
// a chatty solver) without a model. The first entry whose purpose and match fit answers, every time.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { lazily } from "../core/lazy.ts";
import type { Completion, CompletionPurpose, CompletionRequest, LlmProvider } from "./types.ts";
import { countedUsage } from "./usage.ts";

export const SCRIPTED_MODEL = "scripted";

/** The schemas of a scripted answer and of a list of them, built on first use (lambdas/core/lazy.ts). */
const scriptedSchemas = /* @__PURE__ */ lazily(() => {
  const response = z.object({
    purpose: z.enum(["planner", "solver", "tool", "field", "review"]).optional(),
    /** A substring of the user prompt. */
    match: z.string().optional(),
    text: z.string(),
    usage: z
      .object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() })
      .optional(),
  });
  return { response, responses: z.array(response) };
});

export type ScriptedResponse = z.infer<ReturnType<typeof scriptedSchemas>["response"]>;

/** What a caller sent, so a test can assert what a model would have seen. */
export interface ReceivedPrompt {
  purpose: CompletionPurpose;
  system: string;
  prompt: string;
}

/** `received` keeps the latest calls only: a long-running dev twin on this provider must not grow without bound. */
export const RECEIVED_PROMPTS_KEPT = 100;

export class ScriptedProvider implements LlmProvider {
  readonly name = "scripted";
  private readonly responses: ScriptedResponse[];
  /** The prompts it was asked to complete, oldest first (at most RECEIVED_PROMPTS_KEPT). */
  readonly received: ReceivedPrompt[] = [];

  constructor(responses: ScriptedResponse[]) {
    this.responses = responses.map((response, index) => {
      const parsed = scriptedSchemas().response.safeParse(response);
      if (!parsed.success) throw new Error(`scripted response #${index}: ${describeIssues(parsed.error)}`);
      return parsed.data;
    });
  }

  /** A JSON file holding an array of responses or `{"responses": [...]}`; read once, at cold start. */
  static fromFile(path: string): ScriptedProvider {
    let raw: string;
    try {
      raw = readFileSync(path, "utf8");
    } catch (error) {
      throw new Error(`cannot read scripted LLM responses from ${path}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new Error(`scripted LLM responses file ${path} is not JSON: ${(error as Error).message}`);
    }
    const list =
      json && typeof json === "object" && !Array.isArray(json)
        ? (json as { responses?: unknown }).responses
        : json;
    const parsed = scriptedSchemas().responses.safeParse(list);
    if (!parsed.success) {
      throw new Error(
        `scripted LLM responses file ${path} must hold [{purpose?, match?, text, usage?}] or {"responses": [...]}: ${describeIssues(parsed.error)}`,
      );
    }
    return new ScriptedProvider(parsed.data);
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    request.signal?.throwIfAborted();
    const purpose = request.context.purpose;
    this.received.push({ purpose, system: request.system, prompt: request.prompt });
    if (this.received.length > RECEIVED_PROMPTS_KEPT) this.received.shift();
    const entry = this.responses.find(
      (response) =>
        (!response.purpose || response.purpose === purpose) &&
        (response.match === undefined || request.prompt.includes(response.match)),
    );
    if (!entry) {
      const known = this.responses.length
        ? this.responses
            .map(
              (r) =>
                `${r.purpose ?? "any purpose"} ${r.match === undefined ? "(any prompt)" : JSON.stringify(r.match)}`,
            )
            .join("; ")
        : "none";
      throw new Error(
        `scripted LLM has no response for a ${purpose} prompt starting ${JSON.stringify(request.prompt.slice(0, 80))}; it has: ${known}`,
      );
    }
    return {
      text: entry.text,
      model: request.model ?? SCRIPTED_MODEL,
      usage: entry.usage
        ? { ...entry.usage, source: "provider" }
        : await countedUsage(request.system, request.prompt, entry.text),
    };
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}
