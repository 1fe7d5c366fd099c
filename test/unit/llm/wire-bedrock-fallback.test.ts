// Model fallback on the wire: the real BedrockRuntimeClient (its own retries included) against a
// loopback server answering like Converse. A role's model that is throttled, not ready, unavailable or
// unknown hands the call to the next model of the role's list; the completion and the run's usage
// name the model that answered; attempts stay bounded (the SDK's per model), and errors that any
// model would meet again do not move on.
import { type BedrockRuntimeClient, ThrottlingException } from "@aws-sdk/client-bedrock-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Usage } from "../../../lambdas/core/types.ts";
import {
  BEDROCK_MAX_ATTEMPTS,
  type CompletionRequest,
  countedCompletion,
  createLlmProviders,
  LlmGuardrailInterventionError,
} from "../../../lambdas/llm/index.ts";
import { parseConfig } from "../../../lambdas/runtime/config.ts";
import { isTransient } from "../../../lambdas/runtime/transient.ts";
import { type ReplayServer, startBedrockWire, type WireFixture, wireFixture } from "./wire.ts";

const SONNET = "us.anthropic.claude-sonnet-4-20250514-v1:0";
const HAIKU = "anthropic.claude-3-5-haiku-20241022-v1:0";
const NOVA = "amazon.nova-pro-v1:0";
const BASE_ENV = { RUNS_TABLE: "runs", DOCUMENTS_BUCKET: "documents", ARTIFACTS_BUCKET: "artifacts" };
const modelOf = (url: string | undefined) =>
  decodeURIComponent(/^\/model\/([^/]+)\/converse$/.exec(url ?? "")?.[1] ?? "");

let server: ReplayServer;
let client: BedrockRuntimeClient;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ server, client, close } = await startBedrockWire());
});

afterAll(() => close?.());

/** The roles as a function builds them from its environment: the planner falls back to Haiku, then Nova. */
const withFallbacks = (env: Record<string, string> = {}) =>
  createLlmProviders(
    parseConfig({
      ...BASE_ENV,
      REWOO_LLM_PROVIDER: "bedrock",
      REWOO_PLANNER_MODEL: SONNET,
      REWOO_PLANNER_FALLBACK_MODELS: `${HAIKU}, ${NOVA}`,
      ...env,
    }).llm,
    { bedrockClient: client },
  );

const plannerRequest = (model = SONNET): CompletionRequest => ({
  system: "You are the planner.",
  prompt: "Plan the evaluation.",
  model,
  context: {
    purpose: "planner",
    request: { metadata: {}, s3_pdf_paths: ["rm-conditions/1120-signed.pdf"] },
    tools: new Map(),
    maxSteps: 8,
  },
});

/** The planner's call through countedCompletion, as the planner function makes it. */
async function plan(): Promise<{ result: unknown; counted: Usage[] }> {
  const { planner } = withFallbacks();
  const counted: Usage[] = [];
  const result = await countedCompletion(planner.provider, plannerRequest(planner.model), async (usage) => {
    counted.push(usage);
  }).catch((error: unknown) => error);
  return { result, counted };
}

const asked = () => server.received.map((request) => modelOf(request.url));
const times = (fixture: WireFixture, n: number) => Array.from({ length: n }, () => fixture);

describe("model fallback on the wire", () => {
  it("moves to the next model once the SDK's retries of a throttle are spent, and counts the model that answered", async () => {
    server.replay(
      ...times(wireFixture("bedrock/converse-throttling"), BEDROCK_MAX_ATTEMPTS),
      wireFixture("bedrock/converse-success"),
    );

    const { result, counted } = await plan();

    expect(asked()).toEqual([...Array(BEDROCK_MAX_ATTEMPTS).fill(SONNET), HAIKU]);
    expect(result).toMatchObject({
      model: HAIKU,
      usage: { input_tokens: 1283, output_tokens: 87 },
      fallbacks: [
        {
          model: SONNET,
          error: expect.stringMatching(
            new RegExp(`^ThrottlingException: .*model ${SONNET.replaceAll(".", "\\.")} failed with HTTP 429`),
          ),
        },
      ],
    });
    expect(counted).toEqual([{ llm_calls: 1, input_tokens: 1283, output_tokens: 87, models: [HAIKU] }]);
  });

  it("moves on at once from a model id Bedrock does not know (no retry of a 400)", async () => {
    server.replay(wireFixture("bedrock/converse-validation"), wireFixture("bedrock/converse-success"));

    const { result } = await plan();

    expect(asked()).toEqual([SONNET, HAIKU]);
    expect(result).toMatchObject({
      model: HAIKU,
      fallbacks: [
        { model: SONNET, error: expect.stringContaining("The provided model identifier is invalid.") },
      ],
    });
  });

  it("moves on from a model that is not ready, and from a service that is unavailable, to the third model", async () => {
    server.replay(
      ...times(wireFixture("bedrock/converse-model-not-ready"), BEDROCK_MAX_ATTEMPTS),
      ...times(wireFixture("bedrock/converse-service-unavailable"), BEDROCK_MAX_ATTEMPTS),
      wireFixture("bedrock/converse-success"),
    );

    const { result, counted } = await plan();

    expect(asked()).toEqual([
      ...Array(BEDROCK_MAX_ATTEMPTS).fill(SONNET),
      ...Array(BEDROCK_MAX_ATTEMPTS).fill(HAIKU),
      NOVA,
    ]);
    expect(result).toMatchObject({
      model: NOVA,
      fallbacks: [
        { model: SONNET, error: expect.stringMatching(/^ModelNotReadyException: /) },
        { model: HAIKU, error: expect.stringMatching(/^ServiceUnavailableException: /) },
      ],
    });
    expect(counted[0]?.models).toEqual([NOVA]);
  });

  it(`stops after ${BEDROCK_MAX_ATTEMPTS} attempts per model when every model is throttled: a transient error naming them`, async () => {
    server.replay(wireFixture("bedrock/converse-throttling"));

    const { result, counted } = await plan();

    expect(server.received).toHaveLength(3 * BEDROCK_MAX_ATTEMPTS);
    expect(asked()).toEqual(
      [SONNET, HAIKU, NOVA].flatMap((model) => Array(BEDROCK_MAX_ATTEMPTS).fill(model)),
    );
    expect(result).toBeInstanceOf(ThrottlingException);
    expect((result as Error).message).toMatch(
      new RegExp(
        `^Bedrock Converse request for model ${NOVA} failed with HTTP 429 ThrottlingException after ${BEDROCK_MAX_ATTEMPTS} attempts: .* \\(${NOVA} was asked because ${SONNET}, ${HAIKU} could not answer\\)$`,
      ),
    );
    // The state machine's own Retry takes it from there, as for any throttle.
    expect(isTransient(result)).toBe(true);
    expect(counted).toEqual([]);
  });

  it("does not move on from an error every model would meet: a bad request, a guardrail's intervention", async () => {
    const badRequest = {
      ...wireFixture("bedrock/converse-validation"),
      body: {
        message:
          "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
      },
    };
    server.replay(badRequest);
    const refused = await plan();
    expect(asked()).toEqual([SONNET]);
    expect(refused.result).toMatchObject({ name: "ValidationException" });

    server.replay(wireFixture("bedrock/converse-guardrail-intervened"));
    const { planner } = withFallbacks({
      REWOO_BEDROCK_GUARDRAIL_ID: "gr7x2k9qplm4",
      REWOO_BEDROCK_GUARDRAIL_VERSION: "1",
    });
    const error = await planner.provider.complete(plannerRequest()).catch((e: unknown) => e);
    expect(asked()).toEqual([SONNET]);
    expect(error).toBeInstanceOf(LlmGuardrailInterventionError);
  });

  it("gives the reviewer the planner's fallbacks and the tool the solver's, unless they have models of their own", () => {
    const config = (env: Record<string, string>) =>
      parseConfig({ ...BASE_ENV, REWOO_LLM_PROVIDER: "bedrock", ...env }).llm.fallbackModels;
    expect(
      config({ REWOO_PLANNER_FALLBACK_MODELS: HAIKU, REWOO_SOLVER_FALLBACK_MODELS: `${NOVA},${HAIKU}` }),
    ).toEqual({ planner: [HAIKU], solver: [NOVA, HAIKU], tool: [NOVA, HAIKU], reviewer: [HAIKU] });
    expect(
      config({ REWOO_PLANNER_FALLBACK_MODELS: HAIKU, REWOO_REVIEWER_MODEL: NOVA, REWOO_TOOL_MODEL: NOVA }),
    ).toEqual({ planner: [HAIKU], solver: [], tool: [], reviewer: [] });
    expect(config({})).toBeUndefined();
    expect(() => config({ REWOO_PLANNER_FALLBACK_MODELS: "nova pro" })).toThrow(
      /REWOO_PLANNER_FALLBACK_MODELS: expected Bedrock model or inference-profile ids/,
    );
    expect(() =>
      parseConfig({ ...BASE_ENV, REWOO_LLM_PROVIDER: "openai", REWOO_SOLVER_FALLBACK_MODELS: "gpt-4o" }),
    ).toThrow(
      /REWOO_SOLVER_FALLBACK_MODELS: model fallback applies to REWOO_LLM_PROVIDER=bedrock only, not openai/,
    );
  });
});
