// The batch function: the item steps of the batch workflow's Distributed Map (StartLine, RecordLine),
// the batch's own ending (FinishBatch, FailBatch) and the batch workflow's EventBridge status changes.
// Thin: check the event, call the logic next to this file.
import * as z from "zod";
import { TERMINAL_STATUS_TUPLE } from "../contracts/run-status.ts";
import { MAX_FILE_NAME_CHARS, MAX_LINE_DOCUMENTS, type ManifestItem } from "../core/batch.ts";
import { baseServices } from "../runtime/base-services.ts";
import { instrumentHandler } from "../runtime/invocation.ts";
import { createLogger } from "../runtime/logger.ts";
import { functionTracer } from "../runtime/tracer.ts";
import { forStateMachine } from "../runtime/transient.ts";
import { closeEndedBatch, failBatch, finishBatch, isBatchStatusChange } from "./bookkeeping.ts";
import { recordLine, startLine } from "./lines.ts";

const SERVICE = "rewoo-batch";
const logger = createLogger(SERVICE);
const tracer = functionTracer(SERVICE);

const problem = z.object({ field: z.string(), message: z.string() });
const lineError = z.object({ code: z.string(), message: z.string(), fields: z.array(problem).optional() });
const batchId = z.string().regex(/^batch-[\w-]{1,100}$/);
const line = z.number().int().min(1);
const file = z.string().max(MAX_FILE_NAME_CHARS).optional();
const documents = z.array(z.string().max(MAX_FILE_NAME_CHARS)).max(MAX_LINE_DOCUMENTS).optional();

const BatchEventSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("start_line"),
    batch_id: batchId,
    item: z.union([
      z.object({ line, file, unreadable: lineError }),
      // `request` is the caller's line as parsed: validated by the run's own request validation.
      z.object({ line, file, request: z.unknown() }),
    ]),
  }),
  z.object({
    action: z.literal("record_line"),
    batch_id: batchId,
    started: z.object({
      line,
      file,
      documents,
      run_id: z.string().optional(),
      invalid: lineError.optional(),
      finished: z.enum(TERMINAL_STATUS_TUPLE).optional(),
    }),
    execution: z.union([
      z.object({ status: z.string() }),
      z.object({ Error: z.string(), Cause: z.string().optional() }),
      z.object({ skipped: z.literal(true) }),
    ]),
  }),
  z.object({
    action: z.literal("finish_batch"),
    batch_id: batchId,
    map: z.object({
      MapRunArn: z.string().optional(),
      ResultWriterDetails: z.object({ Bucket: z.string(), Key: z.string() }).optional(),
    }),
  }),
  z.object({
    action: z.literal("fail_batch"),
    batch_id: batchId,
    error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }),
  }),
]);

export type BatchEvent = z.infer<typeof BatchEventSchema>;

// Traced, not counted on a run: a batch's bookkeeping is the batch's, not one of its runs'.
export const handler = instrumentHandler(
  { name: SERVICE, tracer, memoryMb: 512, logger },
  async (event: unknown): Promise<unknown> => {
    if (isBatchStatusChange(event)) {
      return closeEndedBatch(event, baseServices());
    }
    const parsed = BatchEventSchema.safeParse(event);
    if (!parsed.success) {
      const where = parsed.error.issues.map(
        (issue) => `${issue.path.join(".") || "(event)"}: ${issue.message}`,
      );
      // Not a transient fault: the workflow's Catch records it (a bad item fails its line, not the batch).
      throw new Error(`invalid batch function event: ${where.join("; ")}`);
    }
    const input = parsed.data;
    const log = logger.createChild({ persistentKeys: { batch_id: input.batch_id, action: input.action } });
    try {
      switch (input.action) {
        case "start_line":
          return await startLine(input.batch_id, input.item as ManifestItem, baseServices());
        case "record_line":
          return await recordLine(input.batch_id, input.started, input.execution, baseServices());
        case "finish_batch":
          return await finishBatch(input.batch_id, input.map, baseServices());
        case "fail_batch":
          return await failBatch(input.batch_id, input.error, baseServices());
      }
    } catch (error) {
      log.error(`${input.action} failed`, error as Error);
      throw forStateMachine(error);
    }
  },
);
