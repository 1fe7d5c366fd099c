// The DynamoDB tables of the app as data: the one place their keys, indexes, TTL attribute, stream and
// billing are declared. The stores query the indexes and write the TTL attribute by these names, the
// Data stack (infra/stacks/data-stack.ts) builds its tables from them, and the local twin
// (infra/local/provision.ts) creates the same tables in its emulator from them. Data and pure helpers
// only, importing nothing: the CDK app loads this module, so it must never pull in handler code or SDK
// packages (the twin turns a schema into its CreateTable request).

/** DynamoDB scalar attribute types: string, number, binary. */
export type KeyAttributeType = "S" | "N" | "B";

export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyAttributeType;
}

export interface IndexSchema {
  readonly name: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Every index projects the whole item: its readers return records, not keys. */
  readonly projection: "ALL";
}

export interface TableSchema {
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Global secondary indexes, in the order they are created. */
  readonly indexes: readonly IndexSchema[];
  /** The attribute DynamoDB TTL reads (epoch seconds); absent: nothing expires. */
  readonly ttlAttribute?: string;
  /** What the table's stream carries; absent: no stream. */
  readonly stream?: "NEW_IMAGE" | "OLD_IMAGE" | "NEW_AND_OLD_IMAGES" | "KEYS_ONLY";
  /** On-demand everywhere: the load is bursty (batches, dashboards) and nothing is sized in advance. */
  readonly billing: "PAY_PER_REQUEST";
}

/** The TTL attribute of the runs and connections tables (epoch seconds), as the stores write it. */
export const TTL_ATTRIBUTE = "expires_at";

const string = <Name extends string>(name: Name) => ({ name, type: "S" }) as const;

/** The runs table's GSI of finished runs by loan program + classification (the history tool). */
export const RUNS_BY_PROFILE = {
  name: "by_profile",
  partitionKey: string("gsi1pk"),
  sortKey: string("gsi1sk"),
  projection: "ALL",
} as const satisfies IndexSchema;

/** The runs table's GSI of recent runs (GET /v1/runs), partitioned by creation day so no key takes every write. */
export const RUNS_BY_DAY = {
  name: "by_day",
  partitionKey: string("gsi2pk"),
  sortKey: string("gsi2sk"),
  projection: "ALL",
} as const satisfies IndexSchema;

/**
 * The runs table's GSI of runs by loan number (GET /v1/runs?q=<loan number>): partition
 * `LOAN#<metadata.loan_number>`, sort key created_at + run id, newest last. Only runs whose request
 * names a loan number carry the attributes, so the index holds nothing else (a sparse index).
 */
export const RUNS_BY_LOAN = {
  name: "by_loan",
  partitionKey: string("gsi3pk"),
  sortKey: string("gsi3sk"),
  projection: "ALL",
} as const satisfies IndexSchema;

/** The connections table's GSI: the connections subscribed to a run. */
export const CONNECTIONS_BY_RUN = {
  name: "by_run",
  partitionKey: string("run_id"),
  projection: "ALL",
} as const satisfies IndexSchema;

export const RUNS_BY_PROFILE_INDEX = RUNS_BY_PROFILE.name;
export const RUNS_BY_DAY_INDEX = RUNS_BY_DAY.name;
export const RUNS_BY_LOAN_INDEX = RUNS_BY_LOAN.name;
export const CONNECTIONS_BY_RUN_INDEX = CONNECTIONS_BY_RUN.name;

export const TABLES = {
  /**
   * One item collection per run (META, STEP#, EVENT#), plus sessions (SESSION#), batches (BATCH#) and
   * idempotency records, keyed as lambdas/store/keys.ts writes them. The stream feeds live WebSocket
   * delivery: each new EVENT# item is pushed to the run's dashboards.
   */
  runs: {
    partitionKey: string("pk"),
    sortKey: string("sk"),
    indexes: [RUNS_BY_PROFILE, RUNS_BY_DAY, RUNS_BY_LOAN],
    ttlAttribute: TTL_ATTRIBUTE,
    stream: "NEW_IMAGE",
    billing: "PAY_PER_REQUEST",
  },
  /** connection_id → the run it watches; stale connections expire (API Gateway closes them after 2 h). */
  connections: {
    partitionKey: string("connection_id"),
    indexes: [CONNECTIONS_BY_RUN],
    ttlAttribute: TTL_ATTRIBUTE,
    billing: "PAY_PER_REQUEST",
  },
  /**
   * The banking assistant's customers, accounts, cards, payees, transfers and fraud cases, one
   * partition per customer (lambdas/store/core-banking.ts). No TTL: balances and records are kept.
   */
  coreBanking: {
    partitionKey: string("pk"),
    sortKey: string("sk"),
    indexes: [],
    billing: "PAY_PER_REQUEST",
  },
} as const satisfies Record<string, TableSchema>;

export type TableName = keyof typeof TABLES;

/** The names of a table's (or an index's) key attributes, as a type: `"pk" | "sk"` for the runs table. */
export type KeyNames<T extends { partitionKey: KeyAttribute; sortKey?: KeyAttribute }> =
  | T["partitionKey"]["name"]
  | NonNullable<T["sortKey"]>["name"];

/** The key attributes of the table and of its indexes, each once, in declaration order. */
export function attributeDefinitions(table: TableSchema): KeyAttribute[] {
  const all = [
    table.partitionKey,
    table.sortKey,
    ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  const seen = new Map<string, KeyAttribute>();
  for (const attribute of all) {
    if (!attribute) continue;
    const known = seen.get(attribute.name);
    if (known && known.type !== attribute.type) {
      throw new Error(`attribute ${attribute.name} is declared both ${known.type} and ${attribute.type}`);
    }
    seen.set(attribute.name, attribute);
  }
  return [...seen.values()];
}
