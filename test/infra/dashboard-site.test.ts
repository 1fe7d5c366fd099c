// The dashboard as a static site in the Service stack: a private bucket only CloudFront may read
// (OAC), HTTPS only with security headers, the page's files and vendor files deployed with a
// config.json naming both APIs, and the REST API's CORS preflights allowing the distribution's origin.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Match } from "aws-cdk-lib/assertions";
import * as acm from "aws-cdk-lib/aws-certificatemanager";
import { beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_DIR, DashboardSite, vendorFiles } from "../../infra/constructs/dashboard-site.ts";
import { REST_RESOURCES } from "../../lambdas/contracts/routes.ts";
import { bareStack, nagFindings } from "./construct-stack.ts";
import { type Cfn, configWith, resourcesOf, type Synthesized, synthesize } from "./synth.ts";

let dev: Synthesized;
let distributionId: string;
let siteBucketId: string;
beforeAll(() => {
  dev = synthesize();
  distributionId = Object.keys(
    resourcesOf(dev.serviceTemplate, "AWS::CloudFront::Distribution"),
  )[0] as string;
  siteBucketId = dev.service.getLogicalId(dev.service.dashboard?.bucket.node.defaultChild as never);
});

const json = (value: unknown) => JSON.stringify(value);

describe("the site's bucket", () => {
  it("is private: all public access blocked, no website hosting, encrypted", () => {
    const bucket = resourcesOf(dev.serviceTemplate, "AWS::S3::Bucket")[siteBucketId]?.Properties as Cfn;
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.WebsiteConfiguration).toBeUndefined();
    expect(
      bucket.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault,
    ).toEqual({
      SSEAlgorithm: "AES256",
    });
    expect(bucket.LoggingConfiguration?.DestinationBucketName).toBeDefined();
  });

  it("is readable by CloudFront's service principal for this distribution alone, and never without TLS", () => {
    const policies = Object.values(resourcesOf(dev.serviceTemplate, "AWS::S3::BucketPolicy")).filter(
      (policy) => json(policy.Properties?.Bucket) === json({ Ref: siteBucketId }),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]?.Properties?.PolicyDocument.Statement as Cfn[];
    // Denied without TLS, and below TLS 1.2 (bucketDefaults' enforceSSL and minimumTLSVersion).
    const denies = statements.filter((s) => s.Effect === "Deny");
    expect(denies.map((s) => s.Condition)).toEqual(
      expect.arrayContaining([{ Bool: { "aws:SecureTransport": "false" } }]),
    );
    expect(denies.every((s) => s.Action === "s3:*")).toBe(true);
    const allows = statements.filter((s) => s.Effect === "Allow");
    expect(allows).toHaveLength(1);
    const [allow] = allows as [Cfn];
    expect(allow.Principal).toEqual({ Service: "cloudfront.amazonaws.com" });
    expect(allow.Action).toBe("s3:GetObject");
    // The condition names this distribution's ARN (account, id), not any distribution.
    const sourceArn = json(allow.Condition.StringEquals["AWS:SourceArn"]);
    expect(sourceArn).toContain(`{"Ref":"${distributionId}"}`);
    expect(sourceArn).toContain(":distribution/");
  });
});

describe("the distribution", () => {
  let distribution: Cfn;
  beforeAll(() => {
    distribution = resourcesOf(dev.serviceTemplate, "AWS::CloudFront::Distribution")[distributionId]
      ?.Properties?.DistributionConfig as Cfn;
  });

  it("reads the bucket through an Origin Access Control, signing every request", () => {
    const oacs = resourcesOf(dev.serviceTemplate, "AWS::CloudFront::OriginAccessControl");
    expect(Object.keys(oacs)).toHaveLength(1);
    const [oacId, oac] = Object.entries(oacs)[0] as [string, Cfn];
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: "s3",
      SigningBehavior: "always",
      SigningProtocol: "sigv4",
    });
    expect(distribution.Origins).toHaveLength(1);
    expect(distribution.Origins[0].OriginAccessControlId).toEqual({ "Fn::GetAtt": [oacId, "Id"] });
    expect(distribution.Origins[0].S3OriginConfig).toEqual({ OriginAccessIdentity: "" });
    expect(json(distribution.Origins[0].DomainName)).toContain(siteBucketId);
  });

  it("serves HTTPS only, index.html at the root, with access logs", () => {
    expect(distribution.DefaultCacheBehavior.ViewerProtocolPolicy).toBe("https-only");
    expect(distribution.DefaultCacheBehavior.AllowedMethods).toEqual(["GET", "HEAD"]);
    expect(distribution.DefaultRootObject).toBe("index.html");
    expect(distribution.Logging?.Bucket).toBeDefined();
  });

  it("adds HSTS, nosniff, DENY framing, no referrer and a CSP that lets the page reach its APIs", () => {
    const policyRef = distribution.DefaultCacheBehavior.ResponseHeadersPolicyId.Ref as string;
    const headers = resourcesOf(dev.serviceTemplate, "AWS::CloudFront::ResponseHeadersPolicy")[policyRef]
      ?.Properties?.ResponseHeadersPolicyConfig.SecurityHeadersConfig as Cfn;
    expect(headers.StrictTransportSecurity).toMatchObject({ Override: true, IncludeSubdomains: true });
    expect(headers.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.FrameOptions).toEqual({ FrameOption: "DENY", Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: "no-referrer", Override: true });
    const csp = json(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    const restApiId = dev.service.getLogicalId(dev.service.restApi.node.defaultChild as never);
    const webSocketId = dev.service.getLogicalId(dev.service.webSocketApi.node.defaultChild as never);
    expect(csp).toContain("script-src 'self'; ");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/connect-src 'self' https:\/\/",\{"Ref":"[^"]+"\},"\.execute-api\./);
    expect(csp).toContain(`{"Ref":"${restApiId}"}`);
    expect(csp).toContain(` wss://",{"Ref":"${webSocketId}"}`);
    // The documents bucket's regional endpoint: presigned uploads and reads.
    expect(csp).toContain(".s3.");
  });

  it("is the stack's DashboardUrl output", () => {
    const outputs = dev.serviceTemplate.findOutputs("DashboardUrl");
    expect(json(outputs.DashboardUrl?.Value)).toContain(`"${distributionId}","DomainName"`);
  });

  it("requires TLS 1.2 or later once it has a domain and certificate", () => {
    const bare = bareStack();
    const certificate = acm.Certificate.fromCertificateArn(
      bare.stack,
      "Certificate",
      "arn:aws:acm:us-east-1:111122223333:certificate/abcd-1234",
    );
    const site = new DashboardSite(bare.stack, "Site", {
      endpoints: { api: "https://a.example", ws: "wss://b.example", documents: "https://c.example" },
      config: { api: "https://a.example/dev", ws: "wss://b.example/dev" },
      removalPolicy: bare.config.removalPolicy,
      domain: { names: ["loans.example.com"], certificate },
    });
    bare.template().hasResourceProperties("AWS::CloudFront::Distribution", {
      DistributionConfig: Match.objectLike({
        Aliases: ["loans.example.com"],
        ViewerCertificate: Match.objectLike({
          MinimumProtocolVersion: "TLSv1.2_2021",
          SslSupportMethod: "sni-only",
        }),
      }),
    });
    expect(site.origin).toBe("https://loans.example.com");
    expect(nagFindings(bare.app, site)).toEqual([]);
  });
});

describe("the deployment of the page", () => {
  let deployment: Cfn;
  /** The cloud assembly's asset folders (each is one zip the BucketDeployment unpacks into the bucket). */
  let assets: string[];
  beforeAll(() => {
    const deployments = Object.values(resourcesOf(dev.serviceTemplate, "Custom::CDKBucketDeployment"));
    expect(deployments).toHaveLength(1);
    deployment = deployments[0]?.Properties as Cfn;
    assets = readdirSync(dev.assemblyDirectory)
      .filter((name) => name.startsWith("asset."))
      .map((name) => join(dev.assemblyDirectory, name));
  });

  it("puts the dashboard's own files and the vendor files of vendor.json in the bucket, nothing else", () => {
    const site = assets.find((dir) => existsSync(join(dir, "index.html")) && existsSync(join(dir, "app.js")));
    expect(site).toBeDefined();
    const files = readdirSync(site as string);
    expect(files).not.toContain("README.md");
    expect(files.filter((name) => name.endsWith(".d.ts"))).toEqual([]);
    for (const name of ["index.html", "styles.css", "config.js", "sample-request.json"]) {
      expect(files, name).toContain(name);
    }
    const vendored = vendorFiles();
    expect(Object.keys(vendored).length).toBeGreaterThan(0);
    for (const [path, source] of Object.entries(vendored)) {
      expect(readFileSync(join(site as string, path)).equals(readFileSync(source)), path).toBe(true);
    }
    // Every file of the page in the repository is deployed (README and declarations aside).
    for (const name of readdirSync(DASHBOARD_DIR)) {
      if (name === "README.md" || name.endsWith(".d.ts")) continue;
      expect(files, name).toContain(name);
    }
    expect(json(deployment.DestinationBucketName)).toContain(siteBucketId);
    expect(deployment.Prune).toBe(true);
    expect(deployment.DistributionPaths).toEqual(["/*"]);
  });

  it("writes config.json with the REST API's and the WebSocket API's stage URLs", () => {
    const configDir = assets.find(
      (dir) => existsSync(join(dir, "config.json")) && !existsSync(join(dir, "index.html")),
    );
    expect(configDir).toBeDefined();
    const config = JSON.parse(readFileSync(join(configDir as string, "config.json"), "utf8")) as Record<
      string,
      string
    >;
    // auth: officer sign-in (test/infra/officer-sign-in.test.ts asserts its block).
    expect(Object.keys(config).sort()).toEqual(["api", "auth", "ws"]);
    // Markers the deployment replaces with the resolved values when it runs.
    const markers = (deployment.SourceMarkers as Array<Record<string, unknown>>).find(
      (map) => Object.keys(map).length > 0,
    ) as Record<string, unknown>;
    const resolve = (text: string) =>
      text.replace(/<<marker:0xbaba:\d+>>/g, (marker) => json(markers[marker]));
    const restApiId = dev.service.getLogicalId(dev.service.restApi.node.defaultChild as never);
    const stageId = dev.service.getLogicalId(dev.service.restApi.deploymentStage.node.defaultChild as never);
    const webSocketId = dev.service.getLogicalId(dev.service.webSocketApi.node.defaultChild as never);
    expect(resolve(config.api as string)).toBe(
      `https://{"Ref":"${restApiId}"}.execute-api.{"Ref":"AWS::Region"}.{"Ref":"AWS::URLSuffix"}/{"Ref":"${stageId}"}/`,
    );
    expect(resolve(config.ws as string)).toContain(`wss://{"Ref":"${webSocketId}"}.execute-api.`);
  });
});

describe("CORS on the REST API", () => {
  it("answers preflights without authorization, allowing the distribution's origin and the configured ones", () => {
    const preflights = Object.values(resourcesOf(dev.serviceTemplate, "AWS::ApiGateway::Method")).filter(
      (method) => method.Properties?.HttpMethod === "OPTIONS",
    );
    expect(preflights).toHaveLength(REST_RESOURCES.length);
    for (const preflight of preflights) {
      expect(preflight.Properties?.AuthorizationType).toBe("NONE");
      expect(preflight.Properties?.ApiKeyRequired).toBe(false);
      const template = json(preflight.Properties?.Integration.IntegrationResponses[0].ResponseTemplates);
      expect(template).toContain(
        `$origin == \\"https://",{"Fn::GetAtt":["${distributionId}","DomainName"]},"\\" || `,
      );
      // dev's dashboard.allowedOrigins: CloudFront's domains, as a pattern without backslashes.
      expect(template).toContain('$origin.matches(\\"(https://[A-Za-z0-9-]+[.]cloudfront[.]net)\\")');
      expect(template).toContain("responseOverride.header.Access-Control-Allow-Origin = $origin");
    }
  });

  it("tells the API function the same origins, and echoes the Origin on the gateway's own errors", () => {
    const apiId = dev.service.getLogicalId(dev.service.functions.api.node.defaultChild as never);
    const api = resourcesOf(dev.serviceTemplate, "AWS::Lambda::Function")[apiId] as Cfn;
    const origins = json(api.Properties.Environment.Variables.REWOO_ALLOWED_ORIGINS);
    expect(origins).toContain(
      `"https://",{"Fn::GetAtt":["${distributionId}","DomainName"]},",https://*.cloudfront.net"`,
    );
    for (const type of ["DEFAULT_4XX", "DEFAULT_5XX", "BAD_REQUEST_BODY"]) {
      dev.serviceTemplate.hasResourceProperties("AWS::ApiGateway::GatewayResponse", {
        ResponseType: type,
        ResponseParameters: Match.objectLike({
          "gatewayresponse.header.Access-Control-Allow-Origin": "method.request.header.Origin",
          "gatewayresponse.header.Vary": "'Origin'",
        }),
      });
    }
  });

  it("without the site, allows only the configured origins and deploys no distribution", () => {
    const noSite = synthesize({
      config: configWith("dev", () => ({
        dashboard: { site: false, allowedOrigins: ["https://loans.example.com"] },
      })),
    });
    noSite.serviceTemplate.resourceCountIs("AWS::CloudFront::Distribution", 0);
    noSite.serviceTemplate.resourceCountIs("Custom::CDKBucketDeployment", 0);
    expect(noSite.serviceTemplate.findOutputs("DashboardUrl")).toEqual({});
    const apiId = noSite.service.getLogicalId(noSite.service.functions.api.node.defaultChild as never);
    const api = resourcesOf(noSite.serviceTemplate, "AWS::Lambda::Function")[apiId] as Cfn;
    expect(api.Properties.Environment.Variables.REWOO_ALLOWED_ORIGINS).toBe("https://loans.example.com");
    expect(noSite.service.dashboard).toBeUndefined();
    const preflight = noSite.serviceTemplate.findResources("AWS::ApiGateway::Method", {
      Properties: { HttpMethod: "OPTIONS" },
    });
    expect(Object.keys(preflight)).toHaveLength(REST_RESOURCES.length);
    expect(json(preflight)).toContain('$origin == \\"https://loans.example.com\\"');
  }, 120_000);
});
