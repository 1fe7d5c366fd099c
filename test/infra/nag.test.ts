// cdk-nag (AwsSolutions) over the whole app: no unacknowledged finding, every acknowledgement names
// its rule with a reason, and every acknowledgement still silences a real finding.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type CfnResource, Validations } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { AwsSolutionsChecks } from "cdk-nag";
import type { IConstruct } from "constructs";
import { beforeAll, describe, expect, it } from "vitest";
import { configWith, type Synthesized, synthesize } from "./synth.ts";

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

function acknowledgements(s: Synthesized): Acknowledgement[] {
  return s.app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ""),
          reason,
        })),
      ),
  );
}

/** What AwsSolutions would report if nothing were acknowledged. */
function rawFindings(s: Synthesized): Array<{ rule: string; path: string }> {
  const pack = new AwsSolutionsChecks(s.app);
  // isAcknowledged is private to NagPack; turning it off here shows what each acknowledgement hides.
  (pack as unknown as { isAcknowledged: (node: CfnResource, rule: string) => boolean }).isAcknowledged = () =>
    false;
  return pack.validateScope(s.app).violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => ({
      rule: violation.ruleName,
      path: resource.constructPath ?? "",
    })),
  );
}

const VARIANTS: Record<string, () => Synthesized> = {
  dev: () => synthesize({ cfnValidation: true }),
  prod: () => synthesize({ context: { env: "prod" }, cfnValidation: true }),
  "staging with Bedrock, api keys, a WAF, an existing bucket and extra locations": () =>
    synthesize({
      cfnValidation: true,
      context: {
        env: "staging",
        documentsBucketName: "lender-loan-documents",
        alarmTopicArn: "arn:aws:sns:eu-west-1:111122223333:ops-alarms",
        webAclArn: "arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/lenders/abc",
        lenderApiTokenSecretArn: "arn:aws:secretsmanager:eu-west-1:111122223333:secret:lender-token-AbCdEf",
      },
      config: configWith("staging", (base) => ({
        logRetention: RetentionDays.TWO_WEEKS,
        workflow: { ...base.workflow, type: "EXPRESS" },
        llm: {
          provider: "bedrock",
          plannerModel: "eu.anthropic.claude-sonnet-4-20250514-v1:0",
          solverModel: "anthropic.claude-3-5-haiku-20241022-v1:0",
        },
        documents: {
          existingBucketName: "lender-loan-documents",
          allowedPrefixes: ["rm-conditions/"],
          additionalLocations: ["lender-archive/returns/"],
        },
        results: { additionalDestinations: ["lender-results/rewoo/"] },
        lender: {
          apiTokenSecretArn: "arn:aws:secretsmanager:eu-west-1:111122223333:secret:lender-token-AbCdEf",
        },
        api: {
          ...base.api,
          authorization: "api-key",
          webAclArn: "arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/lenders/abc",
          createAccountLogRole: false,
        },
        alarms: { topicArn: "arn:aws:sns:eu-west-1:111122223333:ops-alarms" },
      })),
    }),
};

describe.each(Object.keys(VARIANTS))("cdk-nag AwsSolutions, %s", (variant) => {
  let s: Synthesized;
  beforeAll(() => {
    // synthesize() runs the app's own cdk-nag plugin and throws on any unacknowledged error.
    s = (VARIANTS[variant] as () => Synthesized)();
  });

  it("has no unacknowledged findings, errors or warnings", () => {
    const report = new AwsSolutionsChecks(s.app).validateScope(s.app);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources[0]?.constructPath}`)).toEqual(
      [],
    );
    expect(report.success).toBe(true);
  });

  it("passes CDK's built-in CloudFormation Validate rules without a warning", () => {
    const report = join(s.assemblyDirectory, "validation-report.json");
    const violations = existsSync(report)
      ? (
          JSON.parse(readFileSync(report, "utf8")) as { pluginReports: Array<{ violations: unknown[] }> }
        ).pluginReports.flatMap((plugin) => plugin.violations)
      : [];
    expect(violations).toEqual([]);
  });

  it("names the rule and gives a reason for every acknowledgement", () => {
    const acks = acknowledgements(s);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.id, ack.path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(ack.reason.length, `${ack.path} ${ack.id}`).toBeGreaterThan(40);
    }
  });

  it("acknowledges only findings that exist: each one silences a real finding at or below it", () => {
    const findings = rawFindings(s);
    const isAt = (finding: { path: string }, scope: IConstruct) =>
      finding.path === scope.node.path || finding.path.startsWith(`${scope.node.path}/`);
    for (const ack of acknowledgements(s)) {
      const scope = s.app.node.findAll().find((c) => c.node.path === ack.path) as IConstruct;
      const silenced = findings.filter((f) => f.rule === ack.id && isAt(f, scope));
      expect(silenced.length, `${ack.path}: ${ack.id}`).toBeGreaterThan(0);
    }
  });
});
