// Signing in as one of the local twin's demo customers: a customer token (the audience POST /v1/chat
// accepts) signed with the customer key of the twin serving the data folder. Only the twin's own key
// is ever read here; a deployment's customers get their tokens from the bank's sign-in.
import { DEMO_CUSTOMERS } from "../examples/banking/customers.ts";
import { mintToken } from "../lambdas/auth/tokens.ts";
import { maxLifetimeSeconds, twinTokenKey } from "./token-keys.ts";

export const DEFAULT_CUSTOMER = "cust_alice";
export const DEMO_CUSTOMER_IDS: readonly string[] = DEMO_CUSTOMERS.map((customer) => customer.customer_id);
/**
 * A demo customer's token, valid the customer maximum lifetime: 8 h by default, a working day at the
 * prompt or on the chat page (the twin only listens on loopback); shorter when the twin is configured
 * with a lower maximum, which it would otherwise refuse.
 */
export function mintCustomerToken(
  key: string,
  customerId: string,
  now = new Date(),
  ttlSeconds = maxLifetimeSeconds("customer"),
): string {
  return mintToken(
    { customer: { current: key } },
    { kind: "customer", customer_id: customerId },
    ttlSeconds,
    now,
  );
}

/** The dashboard's Chat page signed in with `token` (the page reads it from ?customer_token=). */
export function chatPageUrl(dashboardUrl: string, token: string): string {
  const url = new URL(dashboardUrl);
  url.searchParams.set("customer_token", token);
  url.hash = "/chat";
  return url.href;
}

/** The customer key of the twin serving the data folder (cli/token-keys.ts twinTokenKey). */
export function twinCustomerTokenKey(
  env: NodeJS.ProcessEnv = process.env,
  dataDir?: string,
): Promise<string> {
  return twinTokenKey("customer", env, dataDir);
}
