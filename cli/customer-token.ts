// Signing in as one of the local twin's demo customers: a customer token (the scope POST /v1/chat
// acts for) signed with the secret of the twin serving the data folder. Only the twin's own secret
// is ever read here; a deployment's customers get their tokens from the bank's sign-in.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEMO_CUSTOMERS } from "../examples/banking/customers.ts";
import { mintToken } from "../lambdas/auth/tokens.ts";
import { localDataDir } from "./twin-address.ts";

export const DEFAULT_CUSTOMER = "cust_alice";
export const DEMO_CUSTOMER_IDS: readonly string[] = DEMO_CUSTOMERS.map((customer) => customer.customer_id);
/** Long enough for a working day at the prompt or on the chat page; the twin only listens on loopback. */
export const CUSTOMER_TOKEN_TTL_SECONDS = 8 * 3600;
/** Where the twin keeps its secret when none is configured (infra/local/twin.ts writes it). */
const TOKEN_SECRET_FILE = "token-secret";

export function mintCustomerToken(secret: string, customerId: string, now = new Date()): string {
  return mintToken(secret, { kind: "customer", customer_id: customerId }, CUSTOMER_TOKEN_TTL_SECONDS, now);
}

/** The dashboard's Chat page signed in with `token` (the page reads it from ?customer_token=). */
export function chatPageUrl(dashboardUrl: string, token: string): string {
  const url = new URL(dashboardUrl);
  url.searchParams.set("customer_token", token);
  url.hash = "/chat";
  return url.href;
}

/**
 * The secret the twin serving the data folder signs tokens with: the configured REWOO_TOKEN_SECRET,
 * which the twin prefers, else the one it keeps in its data folder.
 */
export async function twinTokenSecret(
  env: NodeJS.ProcessEnv = process.env,
  dataDir: string = localDataDir(env),
): Promise<string> {
  if (env.REWOO_TOKEN_SECRET) return env.REWOO_TOKEN_SECRET;
  const file = join(dataDir, TOKEN_SECRET_FILE);
  const secret = await readFile(file, "utf8").then(
    (text) => text.trim(),
    () => "",
  );
  if (!secret) throw new Error(`no token secret in ${file} (and REWOO_TOKEN_SECRET is not set)`);
  return secret;
}
