// Stateful resources, in their own stack so the service stack can be replaced freely: the runs,
// connections and core-banking tables, the documents and artifacts buckets (with their access-log
// bucket), the HMAC keys of the three token audiences, and the key that encrypts every log group.
// Termination protection in prod.
import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps, Validations } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { DOCUMENTS_BUCKET_CORS } from "../../lambdas/contracts/documents.ts";
import type { TokenAudienceName as TokenAudience } from "../../lambdas/contracts/environment.ts";
import { type KeyAttribute, TABLES, type TableSchema } from "../../lambdas/contracts/tables.ts";
import type { RewooConfig } from "../config.ts";
import { bucketDefaults, tableDefaults } from "../constructs/defaults.ts";

/** Large evidence is written under this prefix of the artifacts bucket (lambdas/store/evidence.ts). */
export const EVIDENCE_PREFIX = "runs/";
/** Results the finalize function may write into the artifacts bucket. */
export const RESULTS_PREFIX = "results/";

export interface DataStackProps extends StackProps {
  readonly config: RewooConfig;
}

export class DataStack extends Stack {
  readonly runsTable: dynamodb.Table;
  readonly connectionsTable: dynamodb.Table;
  readonly coreBankingTable: dynamodb.Table;
  readonly documentsBucket: s3.IBucket;
  readonly artifactsBucket: s3.Bucket;
  /** One HMAC key per token audience (lambdas/auth/secret.ts): rotating one signs nobody else out. */
  readonly tokenSecrets: Record<TokenAudience, secretsmanager.Secret>;
  readonly logsKey: kms.Key;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    const { config } = props;
    super(scope, id, { ...props, terminationProtection: config.terminationProtection });

    // Keys, indexes, TTL and stream are lambdas/contracts/tables.ts, which the stores and the local
    // twin read too; only what differs per environment is decided here.
    const stateful = {
      deletionProtection: config.terminationProtection,
      removalPolicy: config.removalPolicy,
    } satisfies Partial<dynamodb.TableProps>;
    this.runsTable = schemaTable(this, "RunsTable", TABLES.runs, stateful);
    this.connectionsTable = schemaTable(this, "ConnectionsTable", TABLES.connections, stateful);
    this.coreBankingTable = schemaTable(this, "CoreBankingTable", TABLES.coreBanking, stateful);

    // Server access log delivery needs SSE-S3 on its target (bucketDefaults); versioning is allowed
    // and keeps a deleted or overwritten log recoverable for 30 days.
    const accessLogs = new s3.Bucket(this, "AccessLogsBucket", {
      ...bucketDefaults,
      lifecycleRules: [
        {
          // Expiring a current version leaves a delete marker; S3 removes it with the last noncurrent version.
          expiration: Duration.days(config.terminationProtection ? 365 : 90),
          noncurrentVersionExpiration: Duration.days(30),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
      // Buckets are retained in every environment: documents and results are a lender's records.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.documentsBucket = config.documents.existingBucketName
      ? s3.Bucket.fromBucketName(this, "DocumentsBucket", config.documents.existingBucketName)
      : new s3.Bucket(this, "DocumentsBucket", {
          ...bucketDefaults,
          serverAccessLogsBucket: accessLogs,
          serverAccessLogsPrefix: "documents/",
          // The dashboard uploads (presigned PUT, POST /v1/documents) and reads (presigned GET, for a
          // cited page) from the browser. An imported bucket's CORS is its owner's to set.
          cors: [
            {
              allowedOrigins: [...config.dashboard.allowedOrigins],
              allowedMethods: DOCUMENTS_BUCKET_CORS.methods.map((method) => s3.HttpMethods[method]),
              allowedHeaders: [...DOCUMENTS_BUCKET_CORS.allowedHeaders],
              exposedHeaders: [...DOCUMENTS_BUCKET_CORS.exposedHeaders],
              maxAge: DOCUMENTS_BUCKET_CORS.maxAgeSeconds,
            },
          ],
          lifecycleRules: [
            {
              noncurrentVersionExpiration: Duration.days(90),
              abortIncompleteMultipartUploadAfter: Duration.days(7),
            },
          ],
          removalPolicy: RemovalPolicy.RETAIN,
        });

    this.artifactsBucket = new s3.Bucket(this, "ArtifactsBucket", {
      ...bucketDefaults,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: "artifacts/",
      lifecycleRules: [
        {
          // Evidence above the inline limit is only read while its run is solved and reviewed.
          prefix: EVIDENCE_PREFIX,
          expiration: Duration.days(config.evidenceRetentionDays),
          noncurrentVersionExpiration: Duration.days(1),
        },
        {
          noncurrentVersionExpiration: Duration.days(90),
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const [name, bucket] of [
      ["Documents", this.documentsBucket],
      ["Artifacts", this.artifactsBucket],
    ] as const) {
      new CfnOutput(this, `${name}BucketArn`, {
        value: bucket.bucketArn,
        exportName: this.bucketExport(name),
      });
    }

    const tokenSecret = (id: string, audience: TokenAudience, signs: string) => {
      const secret = new secretsmanager.Secret(this, id, {
        description: `HMAC key of ${audience} tokens: ${signs} (lambdas/auth/tokens.ts)`,
        generateSecretString: { passwordLength: 64, excludePunctuation: true },
        removalPolicy: config.removalPolicy,
      });
      Validations.of(secret).acknowledge({
        id: "AwsSolutions-SMG4",
        reason:
          "An HMAC signing key, not a credential for another system: tokens it signs live at most a week. " +
          "Rotate by putting a new value (the previous one, AWSPREVIOUS, still verifies); no rotation Lambda needed.",
      });
      return secret;
    };
    this.tokenSecrets = {
      // The id of the one key every audience shared before: the deployed secret (and the export the
      // Service stack imports) stays, and the bank's sign-in keeps the value it holds.
      customer: tokenSecret("TokenSecret", "customer", "minted by the bank's sign-in for POST /v1/chat"),
      run: tokenSecret("RunTokenSecret", "run", "a run's subscribe_token, minted by the API"),
      operator: tokenSecret("OperatorTokenSecret", "operator", "watch every run, minted by operators"),
    };

    // One key per environment for every CloudWatch log group (functions, workflow, both APIs'
    // access logs). CloudWatch Logs encrypts and decrypts with it on the groups' behalf, and only
    // for log groups of this account and region.
    this.logsKey = new kms.Key(this, "LogsKey", {
      description: `Encrypts the ReWOO ${config.name} CloudWatch log groups`,
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
    });
    this.logsKey.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal(`logs.${this.region}.amazonaws.com`)],
        actions: ["kms:Encrypt*", "kms:Decrypt*", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:Describe*"],
        resources: ["*"],
        conditions: {
          ArnLike: {
            "kms:EncryptionContext:aws:logs:arn": `arn:${this.partition}:logs:${this.region}:${this.account}:log-group:*`,
          },
        },
      }),
    );
  }

  /**
   * A bucket as another stack should reference it: through an export named here rather than an
   * automatic cross-stack reference. cdk-nag acknowledgements name wildcard object ARNs by their
   * exact text, and an automatic reference only becomes its (generated) export name late in
   * synthesis, after the acknowledgement was written.
   */
  importBucket(scope: Construct, name: "Documents" | "Artifacts"): s3.IBucket {
    const bucketArn = Fn.importValue(this.bucketExport(name));
    return s3.Bucket.fromBucketAttributes(scope, `${name}Bucket`, {
      bucketArn,
      bucketName: Fn.select(5, Fn.split(":", bucketArn)),
    });
  }

  private bucketExport(name: string): string {
    return `${this.stackName}-${name}BucketArn`;
  }
}

const ATTRIBUTE_TYPES: Record<KeyAttribute["type"], dynamodb.AttributeType> = {
  S: dynamodb.AttributeType.STRING,
  N: dynamodb.AttributeType.NUMBER,
  B: dynamodb.AttributeType.BINARY,
};

const attribute = (key: KeyAttribute): dynamodb.Attribute => ({
  name: key.name,
  type: ATTRIBUTE_TYPES[key.type],
});

const PROJECTIONS: Record<TableSchema["indexes"][number]["projection"], dynamodb.ProjectionType> = {
  ALL: dynamodb.ProjectionType.ALL,
};

const BILLING: Record<TableSchema["billing"], dynamodb.BillingMode> = {
  PAY_PER_REQUEST: dynamodb.BillingMode.PAY_PER_REQUEST,
};

/** A table built from its schema (keys, indexes, TTL, stream, billing) over the secure defaults. */
function schemaTable(
  scope: Construct,
  id: string,
  schema: TableSchema,
  props: Pick<dynamodb.TableProps, "deletionProtection" | "removalPolicy">,
): dynamodb.Table {
  const table = new dynamodb.Table(scope, id, {
    ...tableDefaults,
    ...props,
    billingMode: BILLING[schema.billing],
    partitionKey: attribute(schema.partitionKey),
    ...(schema.sortKey ? { sortKey: attribute(schema.sortKey) } : {}),
    ...(schema.stream ? { stream: dynamodb.StreamViewType[schema.stream] } : {}),
    ...(schema.ttlAttribute ? { timeToLiveAttribute: schema.ttlAttribute } : {}),
  });
  for (const index of schema.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: attribute(index.partitionKey),
      ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
      projectionType: PROJECTIONS[index.projection],
    });
  }
  return table;
}
