// A bare stack for testing one construct of the Service stack on its own: the Data stack's resources
// it depends on (tables, buckets, the log key, the token secrets) as plain stand-ins, and cdk-nag's
// AwsSolutions findings of the construct under test (the stand-ins' own findings are not its concern).
import { App, Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as kms from "aws-cdk-lib/aws-kms";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as secretsmanager from "aws-cdk-lib/aws-secretsmanager";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { ENVIRONMENTS, type EnvironmentName, type RewooConfig } from "../../infra/config.ts";
import { serviceEnvironments } from "../../infra/constructs/service-functions.ts";

export function bareStack(name: EnvironmentName = "dev", config: RewooConfig = ENVIRONMENTS[name]) {
  // No esbuild: the templates are asserted, not deployed.
  const app = new App({ context: { "aws:cdk:bundling-stacks": [] } });
  const stack = new Stack(app, "Bare");
  const key = (id: string) => new kms.Key(stack, id, { enableKeyRotation: true });
  const table = (id: string, stream?: dynamodb.StreamViewType) =>
    new dynamodb.Table(stack, id, {
      partitionKey: { name: "pk", type: dynamodb.AttributeType.STRING },
      sortKey: { name: "sk", type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      ...(stream ? { stream } : {}),
    });
  const runsTable = table("RunsTable", dynamodb.StreamViewType.NEW_IMAGE);
  const connectionsTable = table("ConnectionsTable");
  const coreBankingTable = table("CoreBankingTable");
  const documentsBucket = new s3.Bucket(stack, "DocumentsBucket");
  const artifactsBucket = new s3.Bucket(stack, "ArtifactsBucket");
  const tokenSecrets = {
    customer: new secretsmanager.Secret(stack, "CustomerTokenSecret"),
    run: new secretsmanager.Secret(stack, "RunTokenSecret"),
    operator: new secretsmanager.Secret(stack, "OperatorTokenSecret"),
  };
  const logsKey = key("LogsKey");
  const environments = serviceEnvironments(
    config,
    { runsTable, documentsBucket, artifactsBucket },
    "results/",
  );
  return {
    app,
    stack,
    config,
    logsKey,
    runsTable,
    connectionsTable,
    coreBankingTable,
    documentsBucket,
    artifactsBucket,
    tokenSecrets,
    environments,
    template: () => Template.fromStack(stack),
  };
}

/** AwsSolutions findings not acknowledged, on `construct` or below: `rule path`. */
export function nagFindings(app: App, construct: IConstruct): string[] {
  const report = new AwsSolutionsChecks(app).validateScope(app);
  const path = construct.node.path;
  return report.violations.flatMap((violation) =>
    violation.violatingResources
      .map((resource) => resource.constructPath ?? "")
      .filter((at) => at === path || at.startsWith(`${path}/`))
      .map((at) => `${violation.ruleName} ${at}`),
  );
}
