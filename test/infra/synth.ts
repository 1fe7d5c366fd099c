// Synthesizes one environment the way `cdk synth` does (cdk.json's context, cdk-nag registered,
// defineRewooApp), minus esbuild (bundling is skipped) and, unless asked, CDK's built-in
// CloudFormation Validate rules. Each test file synthesizes in beforeAll and asserts on templates.
import { readFileSync } from "node:fs";
import { App } from "aws-cdk-lib";
import { Match, Template } from "aws-cdk-lib/assertions";
import { flattenCfnReference } from "cdk-nag/lib/utils/flatten-cfn-reference.js";
import { ENVIRONMENTS, type EnvironmentName, type RewooConfig } from "../../infra/config.ts";
import { defineRewooApp, type RewooApp } from "../../infra/stacks/rewoo.ts";

const cdkJson = JSON.parse(readFileSync(new URL("../../cdk.json", import.meta.url), "utf8")) as {
  context: Record<string, unknown>;
};

export interface Synthesized extends RewooApp {
  app: App;
  assemblyDirectory: string;
  dataTemplate: Template;
  serviceTemplate: Template;
}

export function synthesize(
  options: {
    context?: Record<string, unknown>;
    config?: RewooConfig;
    /** CDK's built-in CloudFormation Validate rules: ~5 s on a cold worker, so only where asserted. */
    cfnValidation?: boolean;
  } = {},
): Synthesized {
  const app = new App({
    context: { ...cdkJson.context, "aws:cdk:bundling-stacks": [], ...options.context },
    builtinCloudFormationValidation: options.cfnValidation ?? false,
  });
  const rewoo = defineRewooApp(app, options.config ? { config: options.config } : {});
  // One synth for the whole app (and cdk-nag, which throws on findings); the templates read it.
  const assembly = app.synth();
  return {
    app,
    assemblyDirectory: assembly.directory,
    ...rewoo,
    dataTemplate: Template.fromStack(rewoo.data),
    serviceTemplate: Template.fromStack(rewoo.service),
  };
}

/** An environment's configuration with some values replaced (settings no context key reaches). */
export function configWith(
  name: EnvironmentName,
  patch: (base: RewooConfig) => Partial<RewooConfig>,
): RewooConfig {
  const base = ENVIRONMENTS[name];
  return { ...base, ...patch(base) };
}

/** CloudFormation JSON: untyped by nature; the assertions check its shape at run time. */
// biome-ignore lint/suspicious/noExplicitAny: template fragments are arbitrary JSON
export type Cfn = Record<string, any>;

type Resource = { Type: string; Properties?: Cfn; [key: string]: unknown };

export function resourcesOf(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** The logical id of the single resource of `type` whose properties match. */
export function logicalIdOf(template: Template, type: string, props: Record<string, unknown>): string {
  const ids = Object.keys(template.findResources(type, { Properties: Match.objectLike(props) }));
  if (ids.length !== 1)
    throw new Error(`expected one ${type} matching ${JSON.stringify(props)}, found ${ids.length}`);
  return ids[0] as string;
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** Every Allow statement attached to a role (inline IAM policies naming it). */
export function statementsOfRole(template: Template, roleLogicalId: string): Statement[] {
  const policies = resourcesOf(template, "AWS::IAM::Policy");
  return Object.values(policies)
    .filter((policy) =>
      ((policy.Properties?.Roles ?? []) as unknown[]).some(
        (role) => JSON.stringify(role) === JSON.stringify({ Ref: roleLogicalId }),
      ),
    )
    .flatMap((policy) => policy.Properties?.PolicyDocument.Statement as Statement[])
    .filter((statement) => statement.Effect === "Allow");
}

export const actionsOf = (statement: Statement) =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];
export const resourcesOfStatement = (statement: Statement) =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/** The role and statements of the function whose POWERTOOLS_SERVICE_NAME is `service`. */
export function functionAccess(template: Template, service: string) {
  const functions = resourcesOf(template, "AWS::Lambda::Function");
  const entry = Object.entries(functions).find(
    ([, fn]) => fn.Properties?.Environment?.Variables?.POWERTOOLS_SERVICE_NAME === service,
  );
  if (!entry) throw new Error(`no function with POWERTOOLS_SERVICE_NAME=${service}`);
  const [logicalId, fn] = entry;
  const roleLogicalId = (fn.Properties as Cfn).Role["Fn::GetAtt"][0] as string;
  const statements = statementsOfRole(template, roleLogicalId);
  return {
    logicalId,
    properties: fn.Properties as Cfn,
    environment: fn.Properties?.Environment?.Variables as Record<string, unknown>,
    statements,
    /**
     * The resources `action` is allowed on, flattened the way cdk-nag prints them:
     * `Rewoo-dev-Data-ArtifactsBucketArn/runs/*`, `<PlannerLogGroup6777DA5C.Arn>`.
     */
    allowing(action: string): string[] {
      return statements
        .filter((s) => actionsOf(s).includes(action))
        .flatMap(resourcesOfStatement)
        .map((resource) => flattenCfnReference(resource));
    },
  };
}

export const SERVICES = [
  "rewoo-planner",
  "rewoo-worker",
  "rewoo-solver",
  "rewoo-finalize",
  "rewoo-api",
  "rewoo-stream",
  "rewoo-websocket",
  "rewoo-authorizer",
  "rewoo-push",
  "rewoo-batch",
] as const;

/** Functions that write progress events; since live delivery moved to the stream, nothing more. */
export const PUBLISHERS = [
  "rewoo-planner",
  "rewoo-worker",
  "rewoo-solver",
  "rewoo-finalize",
  "rewoo-api",
] as const;

/** The one Data-stack export a Service-stack value imports whose name contains `logicalIdPrefix`. */
export const importOf = (logicalIdPrefix: string) => ({
  "Fn::ImportValue": Match.stringLikeRegexp(`^Rewoo-\\w+-Data:ExportsOutput\\w*${logicalIdPrefix}`),
});
