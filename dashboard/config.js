// Where the API and the WebSocket live. The page is served by the local twin (same origin as the
// API) or from S3/CloudFront (a different origin), so the URLs are configuration:
//   1. query parameters  ?api=https://…&ws=wss://…&token=…
//   2. config.json next to index.html  {"api": "https://…/prod", "ws": "wss://…/prod"}
//   3. defaults: the page's own origin for REST, ws(s)://<host>/ws for the WebSocket.

/** Merges the sources above. `fetchJson` is injected so the precedence can be exercised without a server. */
export async function loadConfig(location = window.location, fetchJson = fetchConfigJson) {
  const params = new URLSearchParams(location.search);
  const file = (await fetchJson(new URL("config.json", location.href).href)) ?? {};
  const api = trimSlash(params.get("api") || file.api || location.origin);
  const ws = trimSlash(params.get("ws") || file.ws || defaultWebSocketUrl(location));
  // An operator token may watch every run; without one the page watches the runs it started itself
  // (each POST returns a subscribe token for its run) and polls REST for the others. Never read from
  // config.json: a static file on a CDN is public, a token in it would be everyone's.
  const token = params.get("token") || "";
  // Officer sign-in (auth.js): the deployed site's config.json has it, the twin's has none.
  const auth = file.auth ?? null;
  return { api, ws, token, auth };
}

export function defaultWebSocketUrl(location) {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
}

async function fetchConfigJson(url) {
  try {
    const response = await fetch(url, { cache: "no-store" });
    if (!response.ok) return null; // no config.json: the defaults apply
    return await response.json();
  } catch {
    return null;
  }
}

function trimSlash(url) {
  return String(url).replace(/\/+$/, "");
}
