// The CDK app (cdk.json: `npx tsx infra/app.ts`). `-c env=dev|staging|prod` (default dev) picks
// the environment; account and region come from the usual CDK_DEFAULT_* variables, and without
// credentials the stacks stay environment-agnostic, so `cdk synth` works offline.
//
// The environment's two stacks are top-level stacks (Rewoo-<env>-Data, Rewoo-<env>-Service) rather
// than children of a cdk Stage: `cdk deploy --all` selects only top-level stacks and refuses an app
// whose stacks all live in a Stage. Only the chosen environment is synthesized, so `--all` is it.
import { App } from "aws-cdk-lib";
import { defineRewooApp } from "./stacks/rewoo.ts";

defineRewooApp(new App(), {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
