// Loan officers sign in to the deployed dashboard: a Cognito user pool of admin-created officers with
// the hosted UI (authorization code + PKCE, no client secret: the page is public code), and an
// identity pool that trades an officer's id token for temporary AWS credentials of one role. That
// role may invoke the REST API's /v1 methods of this stage and nothing else, so the API keeps IAM
// authorization (SigV4) and loan systems keep signing as their own AWS principals.
import { createHash } from "node:crypto";
import { Aws, Duration, Fn, type RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import type * as apigateway from "aws-cdk-lib/aws-apigateway";
import * as cognito from "aws-cdk-lib/aws-cognito";
import * as iam from "aws-cdk-lib/aws-iam";
import { flattenCfnReference } from "cdk-nag/lib/utils/flatten-cfn-reference.js";
import { Construct } from "constructs";

/** What the page's config.json carries under `auth` (dashboard/auth.js reads it). */
export interface OfficerAuthConfig {
  readonly region: string;
  readonly userPoolClientId: string;
  /** The hosted UI's base URL (`https://<prefix>.auth.<region>.amazoncognito.com`). */
  readonly domain: string;
  readonly identityPoolId: string;
  /** `cognito-idp.<region>.amazonaws.com/<userPoolId>`: the id token's issuer, as the identity pool names it. */
  readonly userPoolProviderName: string;
}

export interface OfficerSignInProps {
  readonly restApi: apigateway.RestApi;
  /**
   * The site's URL (`https://<distribution domain>/`): the only callback and sign-out URL. A token
   * (usually a Lazy): the site's Content-Security-Policy names this construct's endpoints, so the
   * construct is built before the site.
   */
  readonly siteUrl: string;
  /** The environment's name, in the hosted UI's domain prefix. */
  readonly environment: string;
  readonly removalPolicy: RemovalPolicy;
}

export class OfficerSignIn extends Construct {
  readonly userPool: cognito.UserPool;
  readonly domain: cognito.UserPoolDomain;
  readonly client: cognito.UserPoolClient;
  readonly identityPool: cognito.CfnIdentityPool;
  /** The role an officer's temporary credentials belong to. */
  readonly officerRole: iam.Role;
  readonly authConfig: OfficerAuthConfig;
  /** Origins the page connects to while signing in (the site's CSP connect-src). */
  readonly connectSources: readonly string[];

  constructor(scope: Construct, id: string, props: OfficerSignInProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.userPool = new cognito.UserPool(this, "Officers", {
      userPoolName: `${stack.stackName}-officers`,
      // Officers are named by the lender's administrators (admin-create-user), never by themselves.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: false } },
      // Required, not optional: a signed-in officer reads borrowers' documents and decides on loans.
      // TOTP only: SMS would need an SNS role and spending limits, and SIM swaps defeat it.
      mfa: cognito.Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: 14,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // Threat protection (compromised credentials, risky sign-ins blocked) needs the Plus plan.
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: false,
      removalPolicy: props.removalPolicy,
    });

    // Hosted UI domains are global: the prefix carries the start of the stack id's UUID (known at
    // deploy), so two accounts or regions deploying the same environment never collide.
    const stackUuid = Fn.select(2, Fn.split("/", Aws.STACK_ID));
    const uniquePart = Fn.select(0, Fn.split("-", stackUuid));
    // A synth-time hash of the stack's path keeps two stacks of one deploy apart as well.
    const pathHash = createHash("sha256").update(stack.node.path).digest("hex").slice(0, 6);
    this.domain = this.userPool.addDomain("HostedUi", {
      cognitoDomain: {
        domainPrefix: Fn.join("-", ["rewoo", props.environment.toLowerCase(), pathHash, uniquePart]),
      },
    });

    this.client = this.userPool.addClient("Dashboard", {
      userPoolClientName: "dashboard",
      // A browser page cannot keep a secret: PKCE proves the code exchange instead.
      generateSecret: false,
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
        callbackUrls: [props.siteUrl],
        logoutUrls: [props.siteUrl],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      // A working day: the page refreshes its credentials with it, then the officer signs in again.
      refreshTokenValidity: Duration.hours(12),
    });

    this.identityPool = new cognito.CfnIdentityPool(this, "IdentityPool", {
      identityPoolName: `${stack.stackName.replace(/[^\w]/g, "_")}_officers`,
      // Nobody gets credentials without signing in.
      allowUnauthenticatedIdentities: false,
      allowClassicFlow: false,
      cognitoIdentityProviders: [
        {
          clientId: this.client.userPoolClientId,
          providerName: this.userPool.userPoolProviderName,
          // The identity pool asks the user pool whether the token is still valid (revocation).
          serverSideTokenCheck: true,
        },
      ],
    });

    this.officerRole = new iam.Role(this, "OfficerRole", {
      description: "Loan officers signed in to the dashboard: invoke the REST API's /v1 methods only",
      assumedBy: new iam.FederatedPrincipal(
        "cognito-identity.amazonaws.com",
        {
          StringEquals: { "cognito-identity.amazonaws.com:aud": this.identityPool.ref },
          "ForAnyValue:StringLike": { "cognito-identity.amazonaws.com:amr": "authenticated" },
        },
        "sts:AssumeRoleWithWebIdentity",
      ),
      maxSessionDuration: Duration.hours(1),
    });
    const invokeArn = props.restApi.arnForExecuteApi("*", "/v1/*", props.restApi.deploymentStage.stageName);
    this.officerRole.addToPolicy(
      new iam.PolicyStatement({ actions: ["execute-api:Invoke"], resources: [invokeArn] }),
    );
    Validations.of(this.officerRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${flattenCfnReference(stack.resolve(invokeArn))}]`,
      reason:
        "An officer may call every /v1 method of this stage (all methods, every run id), exactly what the dashboard does; /health and other stages or APIs stay out of reach.",
    });

    new cognito.CfnIdentityPoolRoleAttachment(this, "Roles", {
      identityPoolId: this.identityPool.ref,
      roles: { authenticated: this.officerRole.roleArn },
    });

    const region = stack.region;
    this.authConfig = {
      region,
      userPoolClientId: this.client.userPoolClientId,
      domain: this.domain.baseUrl(),
      identityPoolId: this.identityPool.ref,
      userPoolProviderName: this.userPool.userPoolProviderName,
    };
    this.connectSources = [`https://cognito-identity.${region}.${Aws.URL_SUFFIX}`, this.domain.baseUrl()];
  }
}
