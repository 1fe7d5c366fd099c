// The plan cache (docs/architecture.md, "Plan cache"): one plan template per request shape, in the runs
// table beside the runs, in a partition of its own per shape key (sk PLAN_TEMPLATE, never META, so the
// scans for unfinished runs pass it by). Items expire through the table's TTL; reads treat an expired
// item as gone, since DynamoDB deletes them only some time after (and dynalite never).
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { TTL_ATTRIBUTE } from "../contracts/tables.ts";
import { type PlanTemplate, readTemplate } from "../core/plan-template.ts";
import { itemKey } from "./keys.ts";

/** How long a template is reused after it was last written: a week. */
export const PLAN_CACHE_TTL_SECONDS = 7 * 24 * 3600;

const templateKey = (shapeKey: string) => itemKey(`PLANCACHE#${shapeKey}`, "PLAN_TEMPLATE");

export interface CachedPlan {
  template: PlanTemplate;
  /** The run whose planner wrote the plan. */
  source_run_id: string;
  created_at: string;
}

export class PlanCacheStore {
  constructor(
    private readonly ddb: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly now: () => Date = () => new Date(),
    private readonly ttlSeconds = PLAN_CACHE_TTL_SECONDS,
  ) {}

  /** The template of a shape, unless there is none, it expired, or it cannot be read as one. */
  async get(shapeKey: string): Promise<CachedPlan | undefined> {
    const { Item } = await this.ddb.send(
      new GetCommand({ TableName: this.table, Key: templateKey(shapeKey) }),
    );
    if (!Item || Number(Item[TTL_ATTRIBUTE]) < this.nowSeconds()) return undefined;
    const template = readTemplate(Item.template);
    if (!template || typeof Item.source_run_id !== "string" || typeof Item.created_at !== "string") {
      return undefined;
    }
    return { template, source_run_id: Item.source_run_id, created_at: Item.created_at };
  }

  /** Stores (or replaces) a shape's template; its expiry starts again. */
  async put(shapeKey: string, template: PlanTemplate, sourceRunId: string): Promise<void> {
    await this.ddb.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...templateKey(shapeKey),
          template,
          source_run_id: sourceRunId,
          created_at: this.now().toISOString(),
          [TTL_ATTRIBUTE]: this.nowSeconds() + this.ttlSeconds,
        },
      }),
    );
  }

  /** Forgets a shape's template (one that no longer validates or failed review). */
  async delete(shapeKey: string): Promise<void> {
    await this.ddb.send(new DeleteCommand({ TableName: this.table, Key: templateKey(shapeKey) }));
  }

  private nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}
