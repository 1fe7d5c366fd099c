// Officer sign-in for the deployed dashboard: admin-created officers with MFA in a user pool, a public
// app client (code grant + PKCE) whose callback is the site, and an identity pool whose one role may
// invoke this stage's /v1 methods and nothing else. The site's config.json and CSP carry the sign-in.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Cfn, configWith, resourcesOf, type Synthesized, synthesize } from "./synth.ts";

let dev: Synthesized;
beforeAll(() => {
  dev = synthesize();
});

const json = (value: unknown) => JSON.stringify(value);
const only = (template: Synthesized["serviceTemplate"], type: string): [string, Cfn] => {
  const found = Object.entries(resourcesOf(template, type));
  expect(found, type).toHaveLength(1);
  return found[0] as [string, Cfn];
};

describe("the officers' user pool", () => {
  it("admits only admin-created users, with TOTP MFA required and a strong password policy", () => {
    const [, pool] = only(dev.serviceTemplate, "AWS::Cognito::UserPool");
    const props = pool.Properties as Cfn;
    expect(props.AdminCreateUserConfig.AllowAdminCreateUserOnly).toBe(true);
    expect(props.MfaConfiguration).toBe("ON");
    expect(props.EnabledMfas).toEqual(["SOFTWARE_TOKEN_MFA"]);
    expect(props.Policies.PasswordPolicy).toMatchObject({
      MinimumLength: 14,
      RequireLowercase: true,
      RequireUppercase: true,
      RequireNumbers: true,
      RequireSymbols: true,
    });
    expect(props.UserPoolTier).toBe("PLUS");
    expect(props.UserPoolAddOns).toEqual({ AdvancedSecurityMode: "ENFORCED" });
  });

  it("has a hosted UI domain whose prefix is unique per stack (its id's UUID)", () => {
    const [, domain] = only(dev.serviceTemplate, "AWS::Cognito::UserPoolDomain");
    const prefix = json(domain.Properties?.Domain);
    expect(prefix).toMatch(/"rewoo-dev-[0-9a-f]{6}"/);
    expect(prefix).toContain('"Ref":"AWS::StackId"');
  });
});

describe("the dashboard's app client", () => {
  let client: Cfn;
  let distributionId: string;
  beforeAll(() => {
    client = only(dev.serviceTemplate, "AWS::Cognito::UserPoolClient")[1].Properties as Cfn;
    distributionId = only(dev.serviceTemplate, "AWS::CloudFront::Distribution")[0];
  });

  it("has no secret and the authorization code grant only, with openid, email and profile", () => {
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlows).toEqual(["code"]);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(true);
    expect([...client.AllowedOAuthScopes].sort()).toEqual(["email", "openid", "profile"]);
    expect(client.SupportedIdentityProviders).toEqual(["COGNITO"]);
  });

  it("calls back to and signs out to the site's CloudFront URL alone", () => {
    const siteUrl = {
      "Fn::Join": ["", ["https://", { "Fn::GetAtt": [distributionId, "DomainName"] }, "/"]],
    };
    expect(client.CallbackURLs).toEqual([siteUrl]);
    expect(client.LogoutURLs).toEqual([siteUrl]);
  });
});

describe("the identity pool and the officers' role", () => {
  let poolId: string;
  let role: Cfn;
  let roleId: string;
  beforeAll(() => {
    const [id, pool] = only(dev.serviceTemplate, "AWS::Cognito::IdentityPool");
    poolId = id;
    expect(pool.Properties?.AllowUnauthenticatedIdentities).toBe(false);
    const [, attachment] = only(dev.serviceTemplate, "AWS::Cognito::IdentityPoolRoleAttachment");
    expect(attachment.Properties?.IdentityPoolId).toEqual({ Ref: poolId });
    const roleRef = attachment.Properties?.Roles.authenticated;
    expect(Object.keys(attachment.Properties?.Roles)).toEqual(["authenticated"]);
    roleId = roleRef["Fn::GetAtt"][0];
    role = resourcesOf(dev.serviceTemplate, "AWS::IAM::Role")[roleId] as Cfn;
  });

  it("has no unauthenticated identities and trusts the user pool's tokens for this client", () => {
    const [, pool] = only(dev.serviceTemplate, "AWS::Cognito::IdentityPool");
    const [clientId] = only(dev.serviceTemplate, "AWS::Cognito::UserPoolClient");
    expect(pool.Properties?.CognitoIdentityProviders).toEqual([
      expect.objectContaining({ ClientId: { Ref: clientId }, ServerSideTokenCheck: true }),
    ]);
  });

  it("is assumable only by authenticated identities of this identity pool", () => {
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      {
        Effect: "Allow",
        Principal: { Federated: "cognito-identity.amazonaws.com" },
        Action: "sts:AssumeRoleWithWebIdentity",
        Condition: {
          StringEquals: { "cognito-identity.amazonaws.com:aud": { Ref: poolId } },
          "ForAnyValue:StringLike": { "cognito-identity.amazonaws.com:amr": "authenticated" },
        },
      },
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    expect(role.Properties.Policies).toBeUndefined();
  });

  it("may only execute-api:Invoke the REST API's /v1 methods of its deployed stage", () => {
    const policies = Object.values(resourcesOf(dev.serviceTemplate, "AWS::IAM::Policy")).filter((policy) =>
      json(policy.Properties?.Roles).includes(`"Ref":"${roleId}"`),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]?.Properties?.PolicyDocument.Statement as Cfn[];
    expect(statements).toHaveLength(1);
    const [statement] = statements as [Cfn];
    expect(statement.Effect).toBe("Allow");
    expect(statement.Action).toBe("execute-api:Invoke");
    const restApiId = dev.service.getLogicalId(dev.service.restApi.node.defaultChild as never);
    const stageId = dev.service.getLogicalId(dev.service.restApi.deploymentStage.node.defaultChild as never);
    const parts = statement.Resource["Fn::Join"][1] as unknown[];
    expect(parts).toContainEqual({ Ref: restApiId });
    expect(parts).toContainEqual({ Ref: stageId });
    // Any method, but only paths under /v1/ (not /health, not another stage).
    expect(parts.at(-1)).toBe("/*/v1/*");
    expect(json(parts)).toContain(":execute-api:");
  });
});

describe("the site", () => {
  it("config.json carries the auth block the page signs in with", () => {
    const [poolId] = only(dev.serviceTemplate, "AWS::Cognito::UserPool");
    const [clientId] = only(dev.serviceTemplate, "AWS::Cognito::UserPoolClient");
    const [identityPoolId] = only(dev.serviceTemplate, "AWS::Cognito::IdentityPool");
    const [domainId] = only(dev.serviceTemplate, "AWS::Cognito::UserPoolDomain");
    const [, deployment] = only(dev.serviceTemplate, "Custom::CDKBucketDeployment");
    // The generated config.json is an asset folder of its own; its tokens are markers the
    // deployment replaces with the resolved values when it runs.
    const configDir = readdirSync(dev.assemblyDirectory)
      .filter((name) => name.startsWith("asset."))
      .map((name) => join(dev.assemblyDirectory, name))
      .find((dir) => existsSync(join(dir, "config.json")) && !existsSync(join(dir, "index.html")));
    expect(configDir).toBeDefined();
    const config = JSON.parse(readFileSync(join(configDir as string, "config.json"), "utf8")) as {
      auth: Record<string, string>;
    };
    const markers = (deployment.Properties.SourceMarkers as Array<Record<string, unknown>>).find(
      (map) => Object.keys(map).length > 0,
    ) as Record<string, unknown>;
    const resolve = (text: string) =>
      text.replace(/<<marker:0xbaba:\d+>>/g, (marker) => json(markers[marker]));
    const auth = Object.fromEntries(Object.entries(config.auth).map(([key, value]) => [key, resolve(value)]));
    expect(Object.keys(auth).sort()).toEqual([
      "domain",
      "identityPoolId",
      "region",
      "userPoolClientId",
      "userPoolProviderName",
    ]);
    expect(auth.region).toBe(json({ Ref: "AWS::Region" }));
    expect(auth.userPoolClientId).toBe(json({ Ref: clientId }));
    expect(auth.identityPoolId).toBe(json({ Ref: identityPoolId }));
    expect(auth.userPoolProviderName).toBe(json({ "Fn::GetAtt": [poolId, "ProviderName"] }));
    expect(auth.domain).toBe(
      `https://${json({ Ref: domainId })}.auth.${json({ Ref: "AWS::Region" })}.amazoncognito.com`,
    );
  });

  it("its CSP lets the page reach Cognito Identity and the hosted UI's token endpoint", () => {
    const [, policy] = only(dev.serviceTemplate, "AWS::CloudFront::ResponseHeadersPolicy");
    const csp = json(
      policy.Properties?.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy
        .ContentSecurityPolicy,
    );
    expect(csp).toContain("https://cognito-identity.");
    expect(csp).toContain(".auth.");
    expect(csp).toContain("amazoncognito.com");
  });

  it("without signIn the site has no user pool and no auth block", () => {
    const off = synthesize({
      config: configWith("dev", (base) => ({ dashboard: { ...base.dashboard, signIn: false } })),
    });
    expect(Object.keys(resourcesOf(off.serviceTemplate, "AWS::Cognito::UserPool"))).toHaveLength(0);
    expect(Object.keys(resourcesOf(off.serviceTemplate, "AWS::Cognito::IdentityPool"))).toHaveLength(0);
    expect(off.service.officerSignIn).toBeUndefined();
    expect(off.service.dashboard).toBeDefined();
  });
});
