// One environment of the agent: the data stack and the service stack that uses it, checked by
// cdk-nag. infra/app.ts and the infra tests both build the app through defineRewooApp, so the tests
// synthesize exactly what `cdk synth` does.
import { type App, type Environment, Tags, Validations } from "aws-cdk-lib";
import { AwsSolutionsChecks } from "cdk-nag";
import { type RewooConfig, resolveConfig } from "../config.ts";
import { DataStack } from "./data-stack.ts";
import { ServiceStack } from "./service-stack.ts";

export interface RewooApp {
  config: RewooConfig;
  data: DataStack;
  service: ServiceStack;
}

export interface RewooAppOptions {
  env?: Environment;
  /** Replaces the configuration chosen by `-c env=…` (tests of settings no context key reaches). */
  config?: RewooConfig;
}

export function defineRewooApp(app: App, options: RewooAppOptions = {}): RewooApp {
  const config = options.config ?? resolveConfig((key) => app.node.tryGetContext(key));
  // Findings fail synth; each acknowledgement sits next to the resource it concerns, with its reason.
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const prefix = `Rewoo-${config.name}`;
  const data = new DataStack(app, `${prefix}-Data`, {
    config,
    env: options.env,
    description: `ReWOO loan-conditions agent (${config.name}): tables, buckets, token secret`,
  });
  const service = new ServiceStack(app, `${prefix}-Service`, {
    config,
    data,
    env: options.env,
    description: `ReWOO loan-conditions agent (${config.name}): functions, workflow, APIs, alarms`,
  });
  for (const stack of [data, service]) {
    Tags.of(stack).add("app", "rewoo-loan-agent");
    Tags.of(stack).add("environment", config.name);
  }
  return { config, data, service };
}
