// Which web origins may call the REST API from a browser (CORS), as data and one pure matcher: the
// API function echoes a matching Origin on every answer, the CDK app turns the same patterns into the
// preflight's mapping template, the twin answers preflights with them. Imported by the CDK app, so it
// stays free of handler code.

/**
 * Request headers a browser may send cross-origin: JSON bodies, SigV4 (authorization, x-amz-date,
 * x-amz-security-token), API keys, idempotency keys and the customer token of the chat API.
 */
export const CORS_ALLOWED_HEADERS = [
  "content-type",
  "authorization",
  "x-amz-date",
  "x-amz-security-token",
  "x-api-key",
  "idempotency-key",
  "x-customer-token",
] as const;

/** How long a browser may reuse a preflight's answer (seconds). */
export const CORS_MAX_AGE_SECONDS = 600;

/** The twin's default: a page served from any other local port (a dev server, a static host) may call it. */
export const LOCAL_ALLOWED_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*"] as const;

/**
 * What one `*` stands for: one DNS label (`https://*.cloudfront.net`) or a port (`http://localhost:*`),
 * never a dot or a slash, so `https://*.cloudfront.net` cannot match `https://evil.example/.cloudfront.net`.
 */
const WILDCARD = "[A-Za-z0-9-]+";

/** `scheme://host[:port]`, lower case, at most one `*`. */
const PATTERN = /^https?:\/\/[a-z0-9.*-]+(:([0-9]+|\*))?$/;

/** Why `pattern` is not an origin pattern, or undefined when it is one. */
export function originPatternProblem(pattern: string): string | undefined {
  if (!PATTERN.test(pattern)) {
    return `"${pattern}" is not an origin (scheme://host[:port], lower case, no path; one * for a label or a port)`;
  }
  if (pattern.split("*").length > 2) return `"${pattern}" has more than one *`;
  return undefined;
}

/**
 * The pattern as a regular expression source matching a whole origin, written without backslashes
 * (a dot is `[.]`) so that it means the same to JavaScript and to the Java regular expressions of API
 * Gateway's mapping templates (`$origin.matches(...)`), where a backslash would need escaping twice.
 */
export function originPatternSource(pattern: string): string {
  return pattern.replace(/[.*]/g, (char) => (char === "." ? "[.]" : WILDCARD));
}

/** Whether the browser's Origin header is one of the allowed origins or patterns. */
export function originAllowed(origin: string | undefined, patterns: readonly string[]): origin is string {
  if (!origin) return false;
  return patterns.some((pattern) =>
    pattern.includes("*") ? new RegExp(`^${originPatternSource(pattern)}$`).test(origin) : pattern === origin,
  );
}
