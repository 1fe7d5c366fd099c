// call_conditions_ai_api (reference engine) over real S3: the twin's s3rver emulator, the real S3
// client and DocumentReader, generated PDFs. One bad document among several (a missing key, corrupt
// bytes, a scan without text, a path outside the policy) must not cost the other verdicts.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTextPdf, generateSampleDocuments } from "../../../examples/samples.ts";
import { type Emulators, LOCAL_CREDENTIALS, startEmulators } from "../../../infra/local/emulators.ts";
import type { DocumentReport, Verdict } from "../../../lambdas/agents/loan/conditions-engine.ts";
import { createLoanTools } from "../../../lambdas/agents/loan/loan-tools.ts";
import { RuleBasedProvider } from "../../../lambdas/llm/rule-based.ts";
import { ScriptedProvider } from "../../../lambdas/llm/scripted.ts";
import type { LlmProvider } from "../../../lambdas/llm/types.ts";
import { BlobStore } from "../../../lambdas/store/blobs.ts";
import type { RunStore } from "../../../lambdas/store/runs.ts";
import { DocumentReader } from "../../../lambdas/tools/document-reader.ts";
import type { ToolDefinition } from "../../../lambdas/tools/registry.ts";
import { AS_OF, BANK_METADATA, TAX_METADATA } from "../loan/fixtures.ts";

const BUCKET = "loan-docs";
const policy = { documentsBucket: BUCKET, allowedPrefixes: [`${BUCKET}/rm/`] };

const MISSING = "rm/bank-apr.pdf";
const CORRUPT = "rm/broken.pdf";
const SCANNED = "rm/scan.pdf";
const REFUSED = "s3://elsewhere/rm/other.pdf";

let dataDir: string;
let emulators: Emulators;
let s3: S3Client;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "rewoo-conditions-ai-"));
  emulators = await startEmulators({ dataDir, persist: false });
  s3 = new S3Client({
    endpoint: emulators.s3Endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: LOCAL_CREDENTIALS,
  });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  const put = (key: string, body: Uint8Array) =>
    s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: "application/pdf" }));
  for (const sample of await generateSampleDocuments()) {
    const name = sample.key.replace(/^rm-conditions\//, "");
    await put(name === "scanned.pdf" ? SCANNED : `rm/${name}`, sample.bytes);
  }
  await put(CORRUPT, new TextEncoder().encode("%PDF-1.7 this file was cut off in transit"));
  await put(COMB_RETURN, await combReturn());
});

const COMB_RETURN = "rm/1120-comb.pdf";

/** A return whose EIN is printed one digit per box, as on a comb field: the finders do not read it. */
function combReturn(): Promise<Uint8Array> {
  return buildTextPdf([
    [
      "Form 1120  U.S. Corporation Income Tax Return  2024",
      "For calendar year 2024 or tax year beginning",
      [
        [50, "Name"],
        [300, "B Employer identification number"],
      ],
      [
        [50, "Acme Widgets, Inc."],
        [300, "1 2 - 3 4 5 6 7 8 9"],
      ],
      "Sign Here",
      [
        [50, "Robert J. Tanner"],
        [250, "03/10/2025"],
        [400, "President"],
      ],
      [
        [50, "Signature of officer"],
        [250, "Date"],
        [400, "Title"],
      ],
    ],
  ]);
}

afterAll(async () => {
  s3?.destroy();
  await emulators?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

function tools(
  blobs: BlobStore = new BlobStore(s3),
  provider: LlmProvider = new RuleBasedProvider(),
): Map<string, ToolDefinition> {
  const unused = {} as never;
  const definitions = createLoanTools(() => ({
    documents: new DocumentReader(blobs, policy),
    runs: unused as RunStore,
    llm: { provider },
    now: () => AS_OF,
  }));
  return new Map(definitions.map((tool) => [tool.name, tool]));
}

/** LLM usage the tools reported, per run id. */
const usage = new Map<string, number>();

const context = (run_id: string) => ({
  run_id,
  step_id: "E2",
  signal: new AbortController().signal,
  recordLlmUsage: () => {
    usage.set(run_id, (usage.get(run_id) ?? 0) + 1);
  },
});

interface ConditionsAiOutput {
  verdicts: Verdict[];
  documents: DocumentReport[];
}

/** PreConditions, then Conditions AI over the documents, as the agent's fixed plan runs them. */
async function judge(
  metadata: Record<string, unknown>,
  documents: string[],
  registry = tools(),
): Promise<Map<string, Verdict> & { documents: DocumentReport[] }> {
  const pre = registry.get("call_preconditions_api");
  const ai = registry.get("call_conditions_ai_api");
  if (!pre || !ai) throw new Error("loan tools are missing");
  const predicted = (await pre.run(pre.args.parse({ metadata }), context("run-pre"))) as {
    conditions: unknown[];
  };
  const output = (await ai.run(
    ai.args.parse({ conditions: predicted.conditions, documents }),
    context(`run-${documents.join(",")}`),
  )) as ConditionsAiOutput;
  return Object.assign(new Map(output.verdicts.map((verdict) => [verdict.condition_id, verdict])), {
    documents: output.documents,
  });
}

function verdict(verdicts: Map<string, Verdict>, id: string): Verdict {
  const found = verdicts.get(id);
  if (!found) throw new Error(`no verdict for ${id}`);
  return found;
}

const BAD_REASONS = [
  `${MISSING} does not exist`,
  `${CORRUPT} could not be read: `,
  `${SCANNED} has no text layer (scanned image?)`,
];

describe("call_conditions_ai_api with bad documents among good ones", () => {
  const statements = ["rm/statement-2025-01.pdf", "rm/statement-2025-02.pdf", "rm/statement-2025-03-nsf.pdf"];

  it("reports every document's status, in the order requested", async () => {
    const verdicts = await judge(BANK_METADATA, [statements[0] ?? "", MISSING, CORRUPT, SCANNED, REFUSED]);
    expect(verdicts.documents.map(({ document, status }) => [document, status])).toEqual([
      ["rm/statement-2025-01.pdf", "read"],
      [MISSING, "missing"],
      [CORRUPT, "unreadable"],
      [SCANNED, "no_text_layer"],
      [REFUSED, "refused"],
    ]);
    expect(verdicts.documents[0]?.page_count).toBe(2);
    expect(verdicts.documents[1]?.reason).toBe(`${MISSING} does not exist`);
    // pdf.js's own words, without the document's name said twice.
    expect(verdicts.documents[2]?.reason).toBe(`${CORRUPT} could not be read: Invalid PDF structure.`);
    expect(verdicts.documents[3]).toMatchObject({ reason: `${SCANNED} has no text layer (scanned image?)` });
    expect(verdicts.documents[4]?.reason).toContain("is outside the allowed document locations");
  });

  it("keeps the verdicts that do not need the bad documents, and names them in the ones that do", async () => {
    const clean = await judge(BANK_METADATA, statements);
    const mixed = await judge(BANK_METADATA, [...statements, MISSING, CORRUPT, SCANNED]);
    expect([...clean.values()].map((v) => [v.condition_id, v.status])).toEqual([
      ["BS_TWO_MONTHS", "fulfilled"],
      ["BS_NAME_MATCH", "fulfilled"],
      ["BS_SAME_ACCOUNT", "fulfilled"],
      ["BS_NO_NSF", "not_fulfilled"],
      ["BS_LARGE_DEPOSITS", "fulfilled"],
    ]);

    // Proven from the readable statements: nothing a bad document holds can change them.
    for (const id of ["BS_TWO_MONTHS", "BS_NO_NSF"])
      expect(verdict(mixed, id), id).toEqual(verdict(clean, id));
    expect(verdict(mixed, "BS_NO_NSF").remedies).toEqual([
      "Obtain a letter of explanation for the 2025-03-17 fee of $35.00 (NSF Fee - Returned Check #1043), statement rm/statement-2025-03-nsf.pdf page 1",
    ]);

    // Conclusions of absence (no other holder, no other account, no large deposit) could be
    // overturned by the files that could not be read.
    for (const id of ["BS_NAME_MATCH", "BS_SAME_ACCOUNT", "BS_LARGE_DEPOSITS"]) {
      const judged = verdict(mixed, id);
      expect(judged.status, id).toBe("insufficient_evidence");
      for (const bad of BAD_REASONS) expect(judged.reason, id).toContain(bad);
      expect(judged.remedies, id).toEqual([
        `Re-upload ${MISSING}: it does not exist`,
        expect.stringMatching(/^Re-upload rm\/broken\.pdf as a valid PDF: it could not be read: \S/),
        `Re-upload ${SCANNED} as a text PDF, not a scanned image: it has no text layer`,
      ]);
      expect(judged.missing?.[0], id).toBe(`${MISSING} does not exist`);
    }
  });

  it("leaves a tax return's verdicts untouched by bad files beside it", async () => {
    const clean = await judge(TAX_METADATA, ["rm/1120-signed.pdf"]);
    const mixed = await judge(TAX_METADATA, ["rm/1120-signed.pdf", MISSING, CORRUPT, SCANNED]);
    expect([...mixed.values()].map((v) => v.status)).toEqual(Array(5).fill("fulfilled"));
    expect([...mixed.values()]).toEqual([...clean.values()]);
    for (const judged of mixed.values()) expect(judged.remedies).toBeUndefined();
  });

  it("names a missing month's file in the coverage verdict and asks for the month", async () => {
    const verdicts = await judge(BANK_METADATA, [
      "rm/statement-2025-01.pdf",
      "rm/statement-2025-03-large-deposit.pdf",
      "rm/statement-2025-02-missing.pdf",
    ]);
    const coverage = verdict(verdicts, "BS_TWO_MONTHS");
    expect(coverage.status).toBe("insufficient_evidence");
    expect(coverage.reason).toContain("rm/statement-2025-02-missing.pdf does not exist");
    expect(coverage.observed?.missing_months).toEqual(["2025-02"]);
    expect(coverage.missing).toEqual([
      "statement for 2025-02 (gap between 2025-01 and 2025-03)",
      "rm/statement-2025-02-missing.pdf does not exist",
    ]);
    expect(coverage.remedies).toEqual([
      "Provide the statement for 2025-02 (gap between 2025-01 and 2025-03)",
      "Re-upload rm/statement-2025-02-missing.pdf: it does not exist",
    ]);
    // The wire is proven from the March statement, bad file or not.
    const deposits = verdict(verdicts, "BS_LARGE_DEPOSITS");
    expect(deposits.status).toBe("not_fulfilled");
    expect(deposits.remedies).toEqual([
      "Obtain a letter of explanation for the 2025-03-12 deposit of $12,500.00 (Incoming Wire Transfer - From ROBERT DOE), statement rm/statement-2025-03-large-deposit.pdf page 1",
    ]);
  });

  it("answers insufficient_evidence naming every document when none is readable, without failing", async () => {
    const verdicts = await judge(TAX_METADATA, [MISSING, CORRUPT, SCANNED, REFUSED]);
    expect(verdicts.size).toBe(5);
    for (const judged of verdicts.values()) {
      expect(judged.status).toBe("insufficient_evidence");
      expect(judged.reason).toMatch(/^no document could be read: /);
      for (const bad of [...BAD_REASONS, `"${REFUSED}" is outside the allowed document locations`]) {
        expect(judged.reason).toContain(bad);
      }
      expect(judged.remedies).toHaveLength(4);
      expect(judged.remedies?.[3]).toMatch(
        /^Re-upload s3:\/\/elsewhere\/rm\/other\.pdf to a location the agent may read: it is refused by the document policy: /,
      );
    }
  });
});

describe("call_conditions_ai_api and S3 faults", () => {
  /** The real S3 store, except for one key, which fails the way S3 does. */
  function failingOn(key: string, fault: () => Error): BlobStore {
    const real = new BlobStore(s3);
    const blobs = Object.create(real) as BlobStore;
    blobs.getObject = (location) =>
      location.key === key ? Promise.reject(fault()) : real.getObject(location);
    return blobs;
  }

  const s3Fault = (name: string, status: number, fault: "client" | "server") =>
    new S3ServiceException({ name, $fault: fault, $metadata: { httpStatusCode: status }, message: name });

  it("throws on throttling or an S3 5xx, so the workflow retries the step", async () => {
    for (const [name, status] of [
      ["SlowDown", 503],
      ["InternalError", 500],
    ] as const) {
      const registry = tools(failingOn("rm/statement-2025-02.pdf", () => s3Fault(name, status, "server")));
      await expect(
        judge(BANK_METADATA, ["rm/statement-2025-01.pdf", "rm/statement-2025-02.pdf"], registry),
      ).rejects.toThrow(name);
    }
  });

  it("reports a document S3 refuses (403) as refused and judges the rest", async () => {
    const registry = tools(
      failingOn("rm/statement-2025-02.pdf", () => s3Fault("AccessDenied", 403, "client")),
    );
    const verdicts = await judge(
      BANK_METADATA,
      ["rm/statement-2025-01.pdf", "rm/statement-2025-02.pdf", "rm/statement-2025-03-nsf.pdf"],
      registry,
    );
    expect(verdicts.documents[1]).toEqual({
      document: "rm/statement-2025-02.pdf",
      status: "refused",
      reason:
        "rm/statement-2025-02.pdf is refused by S3 (AccessDenied, HTTP 403): the agent's role may not read it, or its encryption key is not shared",
    });
    expect(verdict(verdicts, "BS_NO_NSF").status).toBe("not_fulfilled");
    const coverage = verdict(verdicts, "BS_TWO_MONTHS");
    expect(coverage.status).toBe("insufficient_evidence");
    expect(coverage.reason).toContain("rm/statement-2025-02.pdf is refused by S3 (AccessDenied, HTTP 403)");
    expect(coverage.observed?.missing_months).toEqual(["2025-02"]);
  });
});

describe("call_conditions_ai_api with a configured model", () => {
  const ein = (answer: string) =>
    tools(undefined, new ScriptedProvider([{ purpose: "field", match: "Field: ein", text: answer }]));

  it("asks for a field the finders could not locate and uses it only with its quote on the page", async () => {
    const offline = await judge(TAX_METADATA, [COMB_RETURN]);
    expect(verdict(offline, "TR_EIN_MATCH").status).toBe("insufficient_evidence");
    expect(verdict(offline, "TR_EIN_MATCH").reason).toMatch(/could not locate the EIN/);
    expect(verdict(offline, "TR_EIN_MATCH").missing).toEqual([`ein not located in ${COMB_RETURN}`]);
    expect(offline.documents[0]?.extraction?.fields.find((f) => f.field === "ein")).toMatchObject({
      found: false,
    });

    const runsBefore = usage.get(`run-${COMB_RETURN}`) ?? 0;
    const assisted = await judge(
      TAX_METADATA,
      [COMB_RETURN],
      ein('{"value": "12-3456789", "page": 1, "quote": "1 2 - 3 4 5 6 7 8 9"}'),
    );
    const match = verdict(assisted, "TR_EIN_MATCH");
    expect(match.status).toBe("fulfilled");
    expect(match.citations).toEqual([{ document: COMB_RETURN, page: 1, excerpt: "1 2 - 3 4 5 6 7 8 9" }]);
    expect(assisted.documents[0]?.extraction?.fields.find((f) => f.field === "ein")).toMatchObject({
      found: true,
      source: "model",
      page: 1,
      excerpt: "1 2 - 3 4 5 6 7 8 9",
    });
    // One question (the EIN: the other fields were found), its usage counted.
    expect((usage.get(`run-${COMB_RETURN}`) ?? 0) - runsBefore).toBe(1);
    // The other verdicts are the offline ones.
    for (const id of ["TR_SIGNED", "TR_TAX_YEAR", "TR_NAME_MATCH"])
      expect(verdict(assisted, id).status, id).toBe(verdict(offline, id).status);
  });

  it("rejects an invented quote: the verdict stays insufficient and the report says why", async () => {
    const invented = await judge(
      TAX_METADATA,
      [COMB_RETURN],
      ein('{"value": "12-3456789", "page": 1, "quote": "Employer identification number 12-3456789"}'),
    );
    expect(verdict(invented, "TR_EIN_MATCH").status).toBe("insufficient_evidence");
    const field = invented.documents[0]?.extraction?.fields.find((f) => f.field === "ein");
    expect(field).toMatchObject({ found: false });
    expect(field?.note).toMatch(/model answer rejected: the model's quote is not on page 1/);
  });
});
