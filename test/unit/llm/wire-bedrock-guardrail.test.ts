// A Bedrock guardrail on the wire: the real BedrockRuntimeClient against a loopback server answering
// like Converse. Every role's call carries the configured guardrail; an intervention is a named
// error (never a plan, a verdict or a review), not retried, and the call it cost is still counted.
import type { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Usage } from "../../../lambdas/core/types.ts";
import {
  type CompletionRequest,
  countedCompletion,
  createLlmProviders,
  LlmGuardrailInterventionError,
} from "../../../lambdas/llm/index.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { isTransient } from "../../../lambdas/runtime/transient.ts";
import { type ReplayServer, startBedrockWire, wireFixture } from "./wire.ts";

const SONNET = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const BASE_ENV = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };

let server: ReplayServer;
let client: BedrockRuntimeClient;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, client, close } = await startBedrockWire());
});

afterAll(() => close?.());

/** The roles as a function builds them from its environment, with a guardrail configured. */
const guarded = () => {
  const config = parseConfig({
    ...BASE_ENV,
    REWOO_LLM_PROVIDER: "bedrock",
    REWOO_PLANNER_MODEL: SONNET,
    REWOO_BEDROCK_GUARDRAIL_ID: "gr7x2k9qplm4",
    REWOO_BEDROCK_GUARDRAIL_VERSION: "3",
  });
  return createLlmProviders(config.llm, { bedrockClient: client });
};

const plannerRequest = (): CompletionRequest => ({
  system: "You are the planner.",
  prompt: "Plan the evaluation.",
  model: SONNET,
  context: {
    purpose: "planner",
    request: { metadata: {}, s3_pdf_paths: ["rm-conditions/1120-signed.pdf"] },
    tools: new Map(),
    maxSteps: 8,
  },
});

describe("a Bedrock guardrail on the wire", () => {
  it("sends the guardrail's id and version with every role's call", async () => {
    server.replay(wireFixture("bedrock/converse-success"));
    const { planner, solver, tool, reviewer } = guarded();

    await planner.provider.complete(plannerRequest());
    await tool.provider.complete({ system: "Tool.", prompt: "Summarise.", context: { purpose: "tool" } });
    for (const binding of [solver, reviewer]) {
      await binding.provider.complete({
        system: "S.",
        prompt: "P.",
        model: binding.model,
        context: { purpose: "review", target: "plan", rules: { score: 8 } as never },
      });
    }

    expect(server.received).toHaveLength(4);
    for (const sent of server.received) {
      expect(sent.body).toMatchObject({
        guardrailConfig: { guardrailIdentifier: "gr7x2k9qplm4", guardrailVersion: "3" },
      });
    }
  });

  it("sends no guardrailConfig when none is configured", async () => {
    server.replay(wireFixture("bedrock/converse-success"));
    const { planner } = createLlmProviders(
      parseConfig({ ...BASE_ENV, REWOO_LLM_PROVIDER: "bedrock", REWOO_PLANNER_MODEL: SONNET }).llm,
      { bedrockClient: client },
    );

    await planner.provider.complete(plannerRequest());

    expect(server.received[0]?.body).not.toHaveProperty("guardrailConfig");
  });

  it("turns an intervention into a named error that is not retried, and the call is still counted", async () => {
    server.replay(wireFixture("bedrock/converse-guardrail-intervened"));
    const { planner } = guarded();
    const counted: Usage[] = [];

    const error = await countedCompletion(planner.provider, plannerRequest(), async (usage) => {
      counted.push(usage);
    }).catch((e: unknown) => e);

    expect(server.received).toHaveLength(1);
    expect(error).toBeInstanceOf(LlmGuardrailInterventionError);
    expect(error).toMatchObject({
      name: "LlmGuardrailIntervened",
      guardrail: { id: "gr7x2k9qplm4", version: "3" },
      model: SONNET,
      usage: { input_tokens: 1283, output_tokens: 0, source: "provider" },
    });
    expect((error as Error).message).toBe(
      `Bedrock guardrail gr7x2k9qplm4 (version 3) intervened in the planner's call to model ${SONNET}: what came back is the guardrail's message, not the model's answer, and is not used`,
    );
    expect(isTransient(error)).toBe(false);
    expect(counted).toEqual([{ llm_calls: 1, input_tokens: 1283, output_tokens: 0, models: [SONNET] }]);
  });

  it("does not hand the reviewer the guardrail's message as a review either", async () => {
    server.replay(wireFixture("bedrock/converse-guardrail-intervened"));
    const { reviewer } = guarded();

    const error = await reviewer.provider
      .complete({
        system: "Review.",
        prompt: "The plan.",
        model: reviewer.model,
        context: { purpose: "review", target: "plan", rules: { score: 8 } as never },
      })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(LlmGuardrailInterventionError);
    expect((error as Error).message).toContain("intervened in the reviewer's call");
  });
});

describe("the guardrail settings", () => {
  it("take an id or an ARN with a version number or DRAFT, both or neither, with Bedrock only", () => {
    const bedrock = { ...BASE_ENV, REWOO_LLM_PROVIDER: "bedrock" };
    expect(
      parseConfig({
        ...bedrock,
        REWOO_BEDROCK_GUARDRAIL_ID: "arn:aws:bedrock:us-east-1:123456789012:guardrail/gr7x2k9qplm4",
        REWOO_BEDROCK_GUARDRAIL_VERSION: "DRAFT",
      }).llm.guardrail,
    ).toEqual({ id: "arn:aws:bedrock:us-east-1:123456789012:guardrail/gr7x2k9qplm4", version: "DRAFT" });
    expect(parseConfig(bedrock).llm).not.toHaveProperty("guardrail");
    expect(() => parseConfig({ ...bedrock, REWOO_BEDROCK_GUARDRAIL_ID: "gr7x2k9qplm4" })).toThrow(
      /REWOO_BEDROCK_GUARDRAIL_VERSION: required with REWOO_BEDROCK_GUARDRAIL_ID/,
    );
    expect(() =>
      parseConfig({
        ...bedrock,
        REWOO_BEDROCK_GUARDRAIL_ID: "gr7x2k9qplm4",
        REWOO_BEDROCK_GUARDRAIL_VERSION: "latest",
      }),
    ).toThrow(/REWOO_BEDROCK_GUARDRAIL_VERSION: expected a published version number/);
    expect(() =>
      parseConfig({
        ...bedrock,
        REWOO_BEDROCK_GUARDRAIL_ID: "My Guardrail",
        REWOO_BEDROCK_GUARDRAIL_VERSION: "1",
      }),
    ).toThrow(/REWOO_BEDROCK_GUARDRAIL_ID: expected a guardrail id/);
    expect(() =>
      parseConfig({
        ...BASE_ENV,
        REWOO_LLM_PROVIDER: "openai",
        REWOO_BEDROCK_GUARDRAIL_ID: "gr7x2k9qplm4",
        REWOO_BEDROCK_GUARDRAIL_VERSION: "1",
      }),
    ).toThrow(/applies to REWOO_LLM_PROVIDER=bedrock only, not openai/);
  });
});
