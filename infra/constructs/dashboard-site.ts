// The dashboard as a static site: its files in a private S3 bucket, served only through CloudFront
// (Origin Access Control, HTTPS only, security headers), with a generated config.json telling the
// page where the REST and WebSocket APIs are. The page then calls both cross-origin (CORS on the REST
// API: RewooRestApi.allowBrowserOrigins). Read at synth time with fs: dashboard/vendor.json names the
// library files the page loads from vendor/, resolved in node_modules like the twin's static site.
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Duration, type RemovalPolicy, Stack, Validations } from "aws-cdk-lib";
import type * as acm from "aws-cdk-lib/aws-certificatemanager";
import * as cloudfront from "aws-cdk-lib/aws-cloudfront";
import * as origins from "aws-cdk-lib/aws-cloudfront-origins";
import type * as iam from "aws-cdk-lib/aws-iam";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as s3deploy from "aws-cdk-lib/aws-s3-deployment";
import { flattenCfnReference } from "cdk-nag/lib/utils/flatten-cfn-reference.js";
import { Construct } from "constructs";
import * as z from "zod";
import { bucketDefaults } from "./defaults.ts";
import type { OfficerAuthConfig } from "./officer-sign-in.ts";

export const DASHBOARD_DIR = fileURLToPath(new URL("../../dashboard/", import.meta.url));

/** The page's own files: markup, styles, scripts and data. Not its README or type declarations. */
const SITE_EXTENSIONS = new Set([".html", ".css", ".js", ".json"]);

const VendorList = z.object({
  files: z.array(
    z.object({
      path: z.string().regex(/^vendor\/[\w.-]+$/, "a file directly under vendor/"),
      package: z.string().min(1),
      file: z.string().min(1),
    }),
  ),
});

/** dashboard/vendor.json: URL path under the site → the file in node_modules it is. */
export function vendorFiles(dashboardDir = DASHBOARD_DIR): Record<string, string> {
  const list = VendorList.parse(JSON.parse(readFileSync(join(dashboardDir, "vendor.json"), "utf8")));
  // Resolved from the dashboard's folder, as Node resolves a package for a module there.
  const require = createRequire(join(dashboardDir, "index.html"));
  return Object.fromEntries(
    list.files.map((entry) => {
      return [entry.path, join(packageRoot(require, entry.package), entry.file)];
    }),
  );
}

/**
 * A package's folder as Node would find it from `require`'s module, read from the node_modules
 * folders themselves: `require.resolve("<package>/package.json")` fails for packages whose
 * `exports` do not list it (aws4fetch).
 */
export function packageRoot(require: NodeJS.Require, name: string): string {
  for (const folder of require.resolve.paths(name) ?? []) {
    const root = join(folder, name);
    if (existsSync(join(root, "package.json"))) return root;
  }
  throw new Error(`dashboard/vendor.json: package ${name} is not installed`);
}

/**
 * The folder deployed as the site: the dashboard's own files and the vendor files under vendor/, in
 * a new temporary folder the caller owns. The asset is hashed by content, so an unchanged dashboard
 * is not uploaded again.
 */
export function stageSiteFiles(dashboardDir = DASHBOARD_DIR): string {
  const staged = mkdtempSync(join(tmpdir(), "rewoo-dashboard-site-"));
  for (const name of readdirSync(dashboardDir)) {
    if (name.endsWith(".d.ts") || !SITE_EXTENSIONS.has(extname(name))) continue;
    cpSync(join(dashboardDir, name), join(staged, name));
  }
  mkdirSync(join(staged, "vendor"));
  for (const [path, file] of Object.entries(vendorFiles(dashboardDir))) cpSync(file, join(staged, path));
  return staged;
}

/**
 * The staged folder the deployment uploads, named by a hash of what goes in it: every synth of the
 * same dashboard (a test synthesizes many stacks, in many processes) reuses one folder instead of
 * leaving a new one behind. Staged aside and renamed into place, so concurrent synths never see a
 * half-written folder. CDK copies it into the cloud assembly; the name only saves the copying.
 */
function stagedSite(dashboardDir = DASHBOARD_DIR): string {
  const hash = createHash("sha256");
  const sources = [
    ...readdirSync(dashboardDir)
      .filter((name) => !name.endsWith(".d.ts") && SITE_EXTENSIONS.has(extname(name)))
      .map((name) => [name, join(dashboardDir, name)] as const),
    ...Object.entries(vendorFiles(dashboardDir)),
  ].sort(([a], [b]) => a.localeCompare(b));
  for (const [path, file] of sources) hash.update(path).update("\0").update(readFileSync(file)).update("\0");
  const target = join(tmpdir(), `rewoo-dashboard-site-${hash.digest("hex").slice(0, 16)}`);
  if (existsSync(target)) return target;
  const staged = stageSiteFiles(dashboardDir);
  try {
    renameSync(staged, target);
  } catch {
    // Another synth put the same folder in place first.
    rmSync(staged, { recursive: true, force: true });
  }
  return target;
}

export interface SiteEndpoints {
  /** The REST API's origin (`https://{id}.execute-api.{region}.{suffix}`). */
  readonly api: string;
  /** The WebSocket API's origin (`wss://…`). */
  readonly ws: string;
  /** The documents bucket's S3 endpoint (`https://{bucket}.s3.{region}.{suffix}`): presigned uploads and reads. */
  readonly documents: string;
  /** Officer sign-in (OfficerSignIn.connectSources): Cognito Identity and the hosted UI's token endpoint. */
  readonly signIn?: readonly string[];
}

/**
 * The page's Content-Security-Policy: its own scripts only (no inline script, no eval), its own styles,
 * connections to the two APIs and the documents bucket, pdf.js's worker from the site or a blob,
 * rendered pages as data/blob images; never framed (clickjacking), no plugins, no form posts elsewhere.
 */
export function contentSecurityPolicy(endpoints: SiteEndpoints): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Styles may be inline: the page sizes elements with style attributes (the plan graph's width,
    // a batch's progress bar, pdf.js's text layer). Scripts stay strict: no inline script, no eval.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    [
      "connect-src 'self'",
      endpoints.api,
      endpoints.ws,
      endpoints.documents,
      ...(endpoints.signIn ?? []),
    ].join(" "),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export interface DashboardSiteProps {
  /** Where the page's own connections go (the Content-Security-Policy's connect-src). */
  readonly endpoints: SiteEndpoints;
  /** config.json: the REST API's stage URL and the WebSocket stage URL (tokens are resolved at deploy). */
  readonly config: {
    readonly api: string;
    readonly ws: string;
    /** Officer sign-in (OfficerSignIn.authConfig): the page signs in and signs its REST calls. */
    readonly auth?: OfficerAuthConfig;
  };
  readonly removalPolicy: RemovalPolicy;
  /**
   * A custom domain with its ACM certificate (us-east-1). Only then does the minimum TLS version
   * apply: on the default *.cloudfront.net certificate CloudFront negotiates TLS itself.
   */
  readonly domain?: { readonly names: string[]; readonly certificate: acm.ICertificate };
  /** Default: dashboard/. */
  readonly dashboardDir?: string;
}

export class DashboardSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** `https://<distribution domain>`: the origin the API must allow (CORS). */
  readonly origin: string;
  readonly url: string;

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id);
    // CloudFront's standard logs are delivered with ACLs: their bucket must let the log writer own
    // objects. The site bucket's server access logs go there too (a log bucket logs nothing itself).
    const logs = new s3.Bucket(this, "AccessLogs", {
      ...bucketDefaults,
      versioned: false,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [
        { expiration: Duration.days(90), abortIncompleteMultipartUploadAfter: Duration.days(7) },
      ],
      removalPolicy: props.removalPolicy,
    });

    // Private: no website hosting, no public access; CloudFront reads it through OAC alone.
    this.bucket = new s3.Bucket(this, "Bucket", {
      ...bucketDefaults,
      // The site is rebuilt from the repository on every deploy: old versions are not records.
      versioned: false,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: "site/",
      removalPolicy: props.removalPolicy,
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, "SecurityHeaders", {
      comment: "ReWOO dashboard: HSTS, nosniff, no framing, no referrer, CSP",
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          // Run ids and tokens may be in the page's URL (?token=…): never sent to another site.
          referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER,
          override: true,
        },
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(props.endpoints),
          override: true,
        },
      },
    });

    this.distribution = new cloudfront.Distribution(this, "Distribution", {
      comment: "ReWOO dashboard",
      defaultRootObject: "index.html",
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        compress: true,
      },
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      ...(props.domain ? { domainNames: props.domain.names, certificate: props.domain.certificate } : {}),
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: "cloudfront/",
    });
    Validations.of(this.distribution).acknowledge({
      id: "AwsSolutions-CFR1",
      reason:
        "The dashboard is a static page without data of its own; who may read runs is decided by the API's authorization, not by country.",
    });
    Validations.of(this.distribution).acknowledge({
      id: "AwsSolutions-CFR2",
      reason:
        "The distribution serves static files only; the APIs the page calls carry their own authorization, throttling and web ACL (api.webAclArn).",
    });
    if (!props.domain) {
      Validations.of(this.distribution).acknowledge({
        id: "AwsSolutions-CFR4",
        reason:
          "Without a custom domain the distribution uses the default *.cloudfront.net certificate, on which CloudFront chooses the TLS versions; with a domain and certificate the minimum is TLS 1.2 (TLSv1.2_2021).",
      });
    }

    this.origin = `https://${props.domain?.names[0] ?? this.distribution.distributionDomainName}`;
    this.url = `${this.origin}/`;

    const deployment = new s3deploy.BucketDeployment(this, "Files", {
      sources: [
        s3deploy.Source.asset(stagedSite(props.dashboardDir)),
        // Tokens (the API URLs) are substituted by the deployment when it runs.
        s3deploy.Source.jsonData("config.json", props.config),
      ],
      destinationBucket: this.bucket,
      // Files removed from dashboard/ leave the site too.
      prune: true,
      // Every deploy invalidates the whole site; browsers revalidate within five minutes.
      distribution: this.distribution,
      distributionPaths: ["/*"],
      cacheControl: [s3deploy.CacheControl.setPublic(), s3deploy.CacheControl.maxAge(Duration.minutes(5))],
      memoryLimit: 512,
    });
    acknowledgeDeploymentFunction(this, deployment);
  }
}

/**
 * The BucketDeployment's singleton function (CDK's own) and its role: what it is granted, said once.
 * Its wildcards are read from the role's policy as cdk-nag names them, so each acknowledgement is
 * of a permission the deployment really has.
 */
function acknowledgeDeploymentFunction(scope: Construct, deployment: s3deploy.BucketDeployment): void {
  const stack = Stack.of(scope);
  const role = deployment.handlerRole;
  Validations.of(role).acknowledge({
    id: "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
    reason:
      "CDK's BucketDeployment function writes its logs with the AWSLambdaBasicExecutionRole managed policy; it runs only during deployments.",
  });
  const policy = role.node.tryFindChild("DefaultPolicy") as iam.Policy | undefined;
  const statements = (stack.resolve(policy?.document) as { Statement?: PolicyStatementJson[] } | undefined)
    ?.Statement;
  const ids = new Set<string>();
  for (const statement of statements ?? []) {
    for (const action of [statement.Action ?? []].flat()) {
      if (action.includes("*")) ids.add(`AwsSolutions-IAM5[Action::${action}]`);
    }
    for (const resource of [statement.Resource ?? []].flat()) {
      const flat = flattenCfnReference(resource);
      if (flat.includes("*")) ids.add(`AwsSolutions-IAM5[Resource::${flat}]`);
    }
  }
  for (const id of ids) {
    Validations.of(role).acknowledge({
      id,
      reason:
        "CDK's BucketDeployment function copies the site's files from the deployment's asset to the site bucket (every object of both) and invalidates the distribution, which has no resource-level permission.",
    });
  }
  for (const child of stack.node.children) {
    if (child.node.id.startsWith("Custom::CDKBucketDeployment")) {
      Validations.of(child).acknowledge({
        id: "AwsSolutions-L1",
        reason:
          "CDK's BucketDeployment function: its runtime is chosen by the CDK version with the AWS CLI layer it ships, not by this app.",
      });
    }
  }
}

interface PolicyStatementJson {
  Action?: string | string[];
  Resource?: unknown;
}
