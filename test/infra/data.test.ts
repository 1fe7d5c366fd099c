// The stateful stack: tables and buckets as the code expects them, locked down, kept in prod.
import { Match } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { type Cfn, resourcesOf, type Synthesized, synthesize } from "./synth.ts";

describe("data stack (dev)", () => {
  let dev: Synthesized;
  beforeAll(() => {
    dev = synthesize();
  });

  const tableNamed = (logicalIdPrefix: string) => {
    const tables = Object.entries(resourcesOf(dev.dataTemplate, "AWS::DynamoDB::Table"));
    const table = tables.find(([id]) => id.startsWith(logicalIdPrefix))?.[1];
    if (!table) throw new Error(`no table ${logicalIdPrefix}`);
    return table.Properties as Cfn;
  };

  // Keys, indexes, TTL and streams against the twin's tables: contracts-drift.test.ts.

  it("gives every table point-in-time recovery and KMS encryption, and the runs and connections tables the expires_at TTL", () => {
    dev.dataTemplate.resourceCountIs("AWS::DynamoDB::Table", 3);
    dev.dataTemplate.allResourcesProperties("AWS::DynamoDB::Table", {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
    for (const logicalIdPrefix of ["RunsTable", "ConnectionsTable"]) {
      expect(tableNamed(logicalIdPrefix).TimeToLiveSpecification, logicalIdPrefix).toEqual({
        AttributeName: "expires_at",
        Enabled: true,
      });
    }
    // Balances, transfers and fraud cases are records of the bank: nothing expires them.
    expect(tableNamed("CoreBankingTable").TimeToLiveSpecification).toBeUndefined();
    expect(tableNamed("CoreBankingTable").StreamSpecification).toBeUndefined();
  });

  it("blocks public access, encrypts and versions every bucket, the access-log bucket included", () => {
    dev.dataTemplate.resourceCountIs("AWS::S3::Bucket", 3);
    dev.dataTemplate.allResourcesProperties("AWS::S3::Bucket", {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
      VersioningConfiguration: { Status: "Enabled" },
    });
    const buckets = resourcesOf(dev.dataTemplate, "AWS::S3::Bucket");
    const logged = Object.values(buckets).filter((bucket) => bucket.Properties?.LoggingConfiguration);
    expect(logged).toHaveLength(2);
  });

  it("versions the access-log bucket and expires its old versions and its logs", () => {
    const buckets = resourcesOf(dev.dataTemplate, "AWS::S3::Bucket");
    const logTargets = new Set(
      Object.values(buckets).map((bucket) =>
        JSON.stringify(bucket.Properties?.LoggingConfiguration?.DestinationBucketName),
      ),
    );
    const [accessLogs] = Object.entries(buckets).filter(([id]) =>
      logTargets.has(JSON.stringify({ Ref: id })),
    );
    expect(accessLogs?.[1].Properties).toMatchObject({
      VersioningConfiguration: { Status: "Enabled" },
      // Server access log delivery writes only to SSE-S3 buckets.
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      LifecycleConfiguration: {
        Rules: [
          expect.objectContaining({
            Status: "Enabled",
            ExpirationInDays: 90,
            NoncurrentVersionExpiration: { NoncurrentDays: 30 },
          }),
        ],
      },
    });
  });

  it("creates one rotating log key whose policy lets CloudWatch Logs use it for this account's and region's log groups only", () => {
    dev.dataTemplate.resourceCountIs("AWS::KMS::Key", 1);
    dev.dataTemplate.hasResource("AWS::KMS::Key", { DeletionPolicy: "Delete" });
    dev.dataTemplate.hasResourceProperties("AWS::KMS::Key", {
      EnableKeyRotation: true,
      KeyPolicy: {
        Statement: Match.arrayWith([
          {
            Effect: "Allow",
            Principal: { Service: { "Fn::Join": ["", ["logs.", { Ref: "AWS::Region" }, ".amazonaws.com"]] } },
            Action: [
              "kms:Encrypt*",
              "kms:Decrypt*",
              "kms:ReEncrypt*",
              "kms:GenerateDataKey*",
              "kms:Describe*",
            ],
            Resource: "*",
            Condition: {
              ArnLike: {
                "kms:EncryptionContext:aws:logs:arn": {
                  "Fn::Join": [
                    "",
                    [
                      "arn:",
                      { Ref: "AWS::Partition" },
                      ":logs:",
                      { Ref: "AWS::Region" },
                      ":",
                      { Ref: "AWS::AccountId" },
                      ":log-group:*",
                    ],
                  ],
                },
              },
            },
          },
        ]),
      },
    });
  });

  it("denies every request to every bucket that does not use TLS 1.2+", () => {
    const buckets = Object.keys(resourcesOf(dev.dataTemplate, "AWS::S3::Bucket"));
    const policies = Object.values(resourcesOf(dev.dataTemplate, "AWS::S3::BucketPolicy"));
    for (const bucket of buckets) {
      const policy = policies.find(
        (p) => JSON.stringify(p.Properties?.Bucket) === JSON.stringify({ Ref: bucket }),
      );
      const statements = policy?.Properties?.PolicyDocument.Statement as Array<Cfn>;
      expect(statements, bucket).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            Effect: "Deny",
            Action: "s3:*",
            Condition: { Bool: { "aws:SecureTransport": "false" } },
          }),
          expect.objectContaining({
            Effect: "Deny",
            Action: "s3:*",
            Condition: { NumericLessThan: { "s3:TlsVersion": 1.2 } },
          }),
        ]),
      );
    }
  });

  it("expires large evidence (runs/) after the configured days", () => {
    dev.dataTemplate.hasResourceProperties("AWS::S3::Bucket", {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Prefix: "runs/",
            ExpirationInDays: dev.config.evidenceRetentionDays,
            Status: "Enabled",
          }),
        ]),
      },
    });
  });

  it("creates one token secret per audience, each with a generated value, never a literal", () => {
    const secrets = dev.dataTemplate.findResources("AWS::SecretsManager::Secret");
    // The customer secret keeps the id of the one secret all audiences shared before: not replaced.
    expect(
      Object.keys(secrets)
        .map((id) => id.replace(/[0-9A-F]{8}$/, ""))
        .sort(),
    ).toEqual(["OperatorTokenSecret", "RunTokenSecret", "TokenSecret"]);
    dev.dataTemplate.allResourcesProperties("AWS::SecretsManager::Secret", {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
      SecretString: Match.absent(),
    });
    for (const audience of ["customer", "run", "operator"]) {
      dev.dataTemplate.hasResourceProperties("AWS::SecretsManager::Secret", {
        Description: Match.stringLikeRegexp(`^HMAC key of ${audience} tokens`),
      });
    }
  });

  it("names no tables or buckets: CloudFormation generates the names", () => {
    dev.dataTemplate.allResourcesProperties("AWS::DynamoDB::Table", { TableName: Match.absent() });
    dev.dataTemplate.allResourcesProperties("AWS::S3::Bucket", { BucketName: Match.absent() });
  });

  it("can be deleted in dev: no termination protection, tables destroyed with the stack", () => {
    expect(dev.data.terminationProtection).toBe(false);
    dev.dataTemplate.allResources("AWS::DynamoDB::Table", { DeletionPolicy: "Delete" });
  });
});

describe("data stack (prod)", () => {
  let prod: Synthesized;
  beforeAll(() => {
    prod = synthesize({ context: { env: "prod" } });
  });

  it("is termination-protected and keeps its tables, buckets and secret", () => {
    expect(prod.data.terminationProtection).toBe(true);
    expect(prod.service.terminationProtection).toBe(false);
    prod.dataTemplate.allResourcesProperties("AWS::DynamoDB::Table", { DeletionProtectionEnabled: true });
    for (const type of [
      "AWS::DynamoDB::Table",
      "AWS::S3::Bucket",
      "AWS::SecretsManager::Secret",
      "AWS::KMS::Key",
    ]) {
      prod.dataTemplate.allResources(type, { DeletionPolicy: "Retain", UpdateReplacePolicy: "Retain" });
    }
  });

  it("keeps a year of logs, and the access logs a year past their last version", () => {
    prod.serviceTemplate.allResourcesProperties("AWS::Logs::LogGroup", { RetentionInDays: 365 });
    prod.dataTemplate.hasResourceProperties("AWS::S3::Bucket", {
      LifecycleConfiguration: {
        Rules: [
          Match.objectLike({ ExpirationInDays: 365, NoncurrentVersionExpiration: { NoncurrentDays: 30 } }),
        ],
      },
    });
  });
});

describe("an existing documents bucket", () => {
  it("is imported, not created, and is what the worker may read", () => {
    const existing = synthesize({ context: { documentsBucketName: "lender-loan-documents" } });
    existing.dataTemplate.resourceCountIs("AWS::S3::Bucket", 2);
    const outputs = existing.dataTemplate.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs.DocumentsBucketArn?.Value)).toContain(":s3:::lender-loan-documents");
  });
});
