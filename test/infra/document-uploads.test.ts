// Presigned document uploads and reads (POST /v1/documents, GET /v1/runs/{run_id}/documents): a
// presigned URL acts with its signer's permissions, so the API function's grants are what bound them.
import { beforeAll, describe, expect, it } from "vitest";
import { functionAccess, resourcesOf, SERVICES, type Synthesized, synthesize } from "./synth.ts";

describe("document uploads (dev)", () => {
  let dev: Synthesized;
  beforeAll(() => {
    dev = synthesize();
  });

  it("lets the API function put objects under the documents bucket's upload prefix only", () => {
    const api = functionAccess(dev.serviceTemplate, "rewoo-api");
    const documentPuts = api
      .allowing("s3:PutObject")
      .filter((resource) => resource.startsWith("Rewoo-dev-Data-DocumentsBucketArn"));
    expect(documentPuts).toEqual(["Rewoo-dev-Data-DocumentsBucketArn/uploads/*"]);
    expect(api.environment).toMatchObject({
      REWOO_UPLOAD_PREFIX: "uploads/",
      REWOO_UPLOAD_MAX_BYTES: String(50 * 1024 * 1024),
    });
    // No other function writes documents.
    for (const service of SERVICES.filter((name) => name !== "rewoo-api")) {
      const puts = functionAccess(dev.serviceTemplate, service)
        .allowing("s3:PutObject")
        .filter((resource) => resource.startsWith("Rewoo-dev-Data-DocumentsBucketArn"));
      expect(puts, service).toEqual([]);
    }
  });

  it("lets the API function read the documents a run may name, for the presigned GETs", () => {
    const api = functionAccess(dev.serviceTemplate, "rewoo-api");
    expect(api.allowing("s3:GetObject")).toContain("Rewoo-dev-Data-DocumentsBucketArn/*");
  });

  it("gives the documents bucket, and no other, CORS for a browser's PUT, GET and HEAD from the dashboard's origins", () => {
    const buckets = Object.entries(resourcesOf(dev.dataTemplate, "AWS::S3::Bucket"));
    const withCors = buckets.filter(([, bucket]) => bucket.Properties?.CorsConfiguration);
    expect(withCors.map(([id]) => id.replace(/[0-9A-F]{8}$/, ""))).toEqual(["DocumentsBucket"]);
    expect(withCors[0]?.[1].Properties?.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedOrigins: ["https://*.cloudfront.net"],
          AllowedMethods: ["GET", "HEAD", "PUT"],
          AllowedHeaders: ["content-type", "x-amz-checksum-sha256", "range"],
          ExposedHeaders: ["ETag", "Content-Length", "Content-Range", "Accept-Ranges"],
          MaxAge: 600,
        },
      ],
    });
  });
});

describe("document uploads to an existing documents bucket", () => {
  it("grants PutObject on that bucket's upload prefix, and leaves the bucket's CORS to its owner", () => {
    const existing = synthesize({ context: { documentsBucketName: "lender-loan-documents" } });
    const buckets = Object.values(resourcesOf(existing.dataTemplate, "AWS::S3::Bucket"));
    expect(buckets.filter((bucket) => bucket.Properties?.CorsConfiguration)).toEqual([]);
    const puts = functionAccess(existing.serviceTemplate, "rewoo-api")
      .allowing("s3:PutObject")
      .filter(
        (resource) => resource.includes("DocumentsBucketArn") || resource.includes("lender-loan-documents"),
      );
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatch(/\/uploads\/\*$/);
  });
});
