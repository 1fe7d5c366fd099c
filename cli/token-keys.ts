// The token keys the CLI signs with, and `rewoo operator-token`. A key comes from
// REWOO_<AUDIENCE>_TOKEN_SECRET (in AWS: the value of that audience's secret, which an operator reads
// with the AWS CLI), else, for the twin serving the data folder, from its `token-keys/<audience>`.
// Tokens are minted within the audience's maximum lifetime (REWOO_<AUDIENCE>_TOKEN_MAX_LIFETIME_SECONDS,
// read like the functions read it), which every verifier enforces.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_MAX_LIFETIME_SECONDS, mintToken, type TokenAudience } from "../lambdas/auth/tokens.ts";
import { TOKEN_KEY_VARIABLES } from "../lambdas/contracts/environment.ts";
import type { RequestProblem } from "../lambdas/core/request.ts";
import { localDataDir } from "./twin-address.ts";

/** Where the twin keeps its keys when none is configured (infra/local/twin.ts writes them). */
const TOKEN_KEYS_DIR = "token-keys";
const MIN_KEY_LENGTH = 32;

export class TokenCommandError extends Error {
  override name = "TokenCommandError";
  constructor(readonly problems: RequestProblem[]) {
    super(problems.map((problem) => `${problem.field}: ${problem.message}`).join("; "));
  }
}

/**
 * The key the twin serving the data folder signs `audience`'s tokens with: the configured
 * REWOO_<AUDIENCE>_TOKEN_SECRET, which the twin prefers, else the one it keeps in its data folder.
 */
export async function twinTokenKey(
  audience: TokenAudience,
  env: NodeJS.ProcessEnv = process.env,
  dataDir: string = localDataDir(env),
): Promise<string> {
  const name = TOKEN_KEY_VARIABLES[audience].secret;
  const configured = env[name];
  if (configured) return configured;
  const file = join(dataDir, TOKEN_KEYS_DIR, audience);
  const key = await readFile(file, "utf8").then(
    (text) => text.trim(),
    () => "",
  );
  if (!key) throw new Error(`no ${audience} token key in ${file} (and ${name} is not set)`);
  return key;
}

/** The audience's maximum token lifetime as the functions read it, or a problem naming the variable. */
export function maxLifetimeSeconds(audience: TokenAudience, env: NodeJS.ProcessEnv = process.env): number {
  const name = TOKEN_KEY_VARIABLES[audience].maxLifetime;
  const value = env[name]?.trim();
  if (!value) return DEFAULT_MAX_LIFETIME_SECONDS[audience];
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new TokenCommandError([
      { field: name, message: `expected a whole number of seconds, got "${value}"` },
    ]);
  }
  return seconds;
}

export interface OperatorTokenOptions {
  /** Sign with the key of the twin serving the data folder when REWOO_OPERATOR_TOKEN_SECRET is not set. */
  local?: boolean;
  /** Lifetime in seconds (text from the command line); default the operator maximum. */
  ttl?: string;
}

/** `rewoo operator-token`: a token that may watch every run, for a dashboard or `rewoo evaluate --token`. */
export async function mintOperatorToken(
  options: OperatorTokenOptions,
  env: NodeJS.ProcessEnv = process.env,
  now = new Date(),
): Promise<string> {
  const names = TOKEN_KEY_VARIABLES.operator;
  const max = maxLifetimeSeconds("operator", env);
  const problems: RequestProblem[] = [];
  let ttl = max;
  if (options.ttl !== undefined) {
    ttl = Number(options.ttl);
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > max) {
      problems.push({
        field: "--ttl",
        message: `expected a whole number of seconds from 1 to ${max} (${names.maxLifetime}), got "${options.ttl}"`,
      });
    }
  }
  let key = env[names.secret];
  if (!key && !options.local) {
    problems.push({
      field: names.secret,
      message:
        "not set: set it to the operator token key (in AWS the value of the OperatorTokenSecretArn secret), or pass --local for the twin's",
    });
  } else if (key && key.length < MIN_KEY_LENGTH) {
    problems.push({ field: names.secret, message: `must be at least ${MIN_KEY_LENGTH} characters` });
  }
  if (problems.length) throw new TokenCommandError(problems);
  key ||= await twinTokenKey("operator", env).catch((error: Error) => {
    throw new TokenCommandError([
      { field: "--local", message: `${error.message}: start the twin once (rewoo dev)` },
    ]);
  });
  return mintToken({ operator: { current: key } }, { kind: "operator" }, ttl, now);
}
