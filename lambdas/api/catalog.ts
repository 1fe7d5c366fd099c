// GET /v1/catalog: the condition catalog as a new-evaluation form needs it (lambdas/agents/loan/catalog-view.ts).
// The catalog ships with the function, so the answer changes only with a deployment: it is built once
// per cold start, and browsers may keep it a few minutes instead of asking on every visit of the form.
import type { APIGatewayProxyResult } from "aws-lambda";
import { buildCatalogView } from "../agents/loan/catalog-view.ts";
import type { CatalogView } from "../contracts/api-types.ts";
import { json } from "./http.ts";

/** How long a browser may reuse the answer; a deployment's new catalog is seen at most this late. */
export const CATALOG_MAX_AGE_SECONDS = 300;

let view: CatalogView | undefined;

export async function getCatalog(): Promise<APIGatewayProxyResult> {
  view ??= buildCatalogView();
  // private: the API is authorized per caller, so shared caches (a CDN, a proxy) must not keep it.
  return json(200, view, { "cache-control": `private, max-age=${CATALOG_MAX_AGE_SECONDS}` });
}
