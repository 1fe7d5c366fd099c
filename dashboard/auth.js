// Officer sign-in for the deployed dashboard. The REST API authorizes with IAM (SigV4): loan systems
// sign as their own AWS principals, and so does the page, with temporary credentials of the
// officers' role. When config.json has an `auth` block (the CDK site writes one; the local twin
// never does, and then nothing here runs):
//   1. sign in with the user pool's hosted UI: authorization code + PKCE (S256), the state checked;
//   2. trade the id token for credentials with Cognito Identity (GetId, GetCredentialsForIdentity),
//      refreshing the tokens with the refresh token before the credentials expire;
//   3. sign every REST request (service execute-api) with aws4fetch's AwsV4Signer.
// Tokens and credentials live in sessionStorage only: gone with the tab, never shared between tabs.
// Presigned S3 URLs, config.json and the page's own files are fetched with plain fetch, never signed.

const STORAGE_KEY = "rewoo.officer";
const PENDING_KEY = "rewoo.officer.pending";
/** Credentials are renewed this long before they expire, so a request never carries stale ones. */
const RENEW_BEFORE_MS = 5 * 60 * 1000;
const SCOPES = "openid email profile";

// ---------------------------------------------------------------------------------------------
// PKCE (RFC 7636) and the id token's claims

/** base64url without padding, of bytes. */
export function base64Url(bytes) {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A random string of the unreserved characters PKCE allows: 32 random bytes → 43 characters. */
export function randomUrlSafe(byteCount = 32, cryptoImpl = globalThis.crypto) {
  return base64Url(cryptoImpl.getRandomValues(new Uint8Array(byteCount)));
}

/** The S256 code challenge of a verifier: base64url(SHA-256(ascii(verifier))). */
export async function pkceChallenge(verifier, cryptoImpl = globalThis.crypto) {
  const digest = await cryptoImpl.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64Url(digest);
}

/** The hosted UI's authorize URL for this client, state and challenge. */
export function authorizeUrl(auth, { redirectUri, state, challenge }) {
  const url = new URL("/oauth2/authorize", auth.domain);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: auth.userPoolClientId,
    redirect_uri: redirectUri,
    scope: SCOPES,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
  }).toString();
  return url.href;
}

/** The claims of a JWT, unverified: the page only reads the officer's email and the expiry from it. */
export function jwtClaims(token) {
  const payload = String(token).split(".")[1] ?? "";
  const padded = payload.replace(/-/g, "+").replace(/_/g, "/");
  try {
    const text = new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)));
    return JSON.parse(text);
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------------------------------------
// Request signing (SigV4, service execute-api)

/**
 * The request `fetch(url, init)` would send, signed with `credentials`: init with its headers
 * replaced by the signed ones (Authorization, X-Amz-Date, X-Amz-Security-Token). `Signer` is
 * aws4fetch's AwsV4Signer; `datetime` (YYYYMMDDTHHMMSSZ) is fixed only by tests.
 */
export async function signRequest(Signer, credentials, region, url, init = {}, datetime = undefined) {
  const signer = new Signer({
    method: init.method ?? "GET",
    url: String(url),
    headers: init.headers ?? {},
    body: init.body ?? null,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    sessionToken: credentials.sessionToken,
    service: "execute-api",
    region,
    // Every header the page sets is signed, content-type too (aws4fetch leaves it out by default),
    // as the AWS SDK signs: the page sets only accept and content-type.
    allHeaders: true,
    ...(datetime ? { datetime } : {}),
  });
  const signed = await signer.sign();
  return { ...init, headers: signed.headers };
}

// ---------------------------------------------------------------------------------------------
// The officer's session

/**
 * Sign-in state over sessionStorage. `fetchImpl`, `storage`, `location`, `crypto` and `loadSigner`
 * are injected so the flow runs the same in tests without a browser.
 */
export class OfficerSession {
  constructor(
    auth,
    {
      fetchImpl = (...args) => fetch(...args),
      storage = window.sessionStorage,
      location = window.location,
      history = window.history,
      cryptoImpl = globalThis.crypto,
      loadSigner = () => import("./vendor/aws4fetch.esm.js").then((m) => m.AwsV4Signer),
      now = () => Date.now(),
    } = {},
  ) {
    this.auth = auth;
    this.fetchImpl = fetchImpl;
    this.storage = storage;
    this.location = location;
    this.history = history;
    this.crypto = cryptoImpl;
    this.loadSigner = loadSigner;
    this.now = now;
    this.renewing = null;
  }

  /** Where the hosted UI sends the officer back: the page itself, without query or hash. */
  get redirectUri() {
    return `${this.location.origin}${this.location.pathname}`;
  }

  #read() {
    try {
      return JSON.parse(this.storage.getItem(STORAGE_KEY) ?? "null");
    } catch {
      return null;
    }
  }

  #write(state) {
    if (state) this.storage.setItem(STORAGE_KEY, JSON.stringify(state));
    else this.storage.removeItem(STORAGE_KEY);
  }

  get signedIn() {
    return Boolean(this.#read()?.idToken);
  }

  /** The signed-in officer's email (from the id token), or "". */
  get email() {
    const state = this.#read();
    return state?.idToken ? String(jwtClaims(state.idToken).email ?? "") : "";
  }

  /** Sends the officer to the hosted UI, remembering the verifier, the state and where they were. */
  async signIn() {
    const verifier = randomUrlSafe(48, this.crypto);
    const state = randomUrlSafe(24, this.crypto);
    this.storage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, hash: this.location.hash ?? "" }));
    const challenge = await pkceChallenge(verifier, this.crypto);
    this.location.assign(authorizeUrl(this.auth, { redirectUri: this.redirectUri, state, challenge }));
  }

  /** Forgets the session and signs out of the hosted UI too (else the next sign-in is silent). */
  signOut() {
    this.#write(null);
    this.storage.removeItem(PENDING_KEY);
    const url = new URL("/logout", this.auth.domain);
    url.search = new URLSearchParams({
      client_id: this.auth.userPoolClientId,
      logout_uri: this.redirectUri,
    }).toString();
    this.location.assign(url.href);
  }

  /**
   * On the way back from the hosted UI (`?code=…&state=…`): checks the state, exchanges the code
   * with the verifier, and takes the code out of the address bar. Returns an error message, or "".
   */
  async completeSignIn() {
    const params = new URLSearchParams(this.location.search);
    const code = params.get("code");
    const returnedState = params.get("state");
    const error = params.get("error");
    if (!code && !error) return "";
    const pending = (() => {
      try {
        return JSON.parse(this.storage.getItem(PENDING_KEY) ?? "null");
      } catch {
        return null;
      }
    })();
    this.storage.removeItem(PENDING_KEY);
    // The address bar keeps no code: a reload or a copied link must not replay it.
    this.history.replaceState(null, "", `${this.redirectUri}${pending?.hash ?? ""}`);
    if (error) return `Sign-in failed: ${params.get("error_description") || error}`;
    if (!pending || pending.state !== returnedState) {
      return "Sign-in failed: the answer did not match the sign-in this page started. Sign in again.";
    }
    try {
      const tokens = await this.#token({
        grant_type: "authorization_code",
        code,
        redirect_uri: this.redirectUri,
        code_verifier: pending.verifier,
      });
      this.#write({ idToken: tokens.id_token, refreshToken: tokens.refresh_token });
      await this.credentials();
      return "";
    } catch (cause) {
      this.#write(null);
      return `Sign-in failed: ${cause.message}`;
    }
  }

  async #token(form) {
    const response = await this.fetchImpl(new URL("/oauth2/token", this.auth.domain).href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: this.auth.userPoolClientId, ...form }).toString(),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok)
      throw new Error(body.error_description || body.error || `token endpoint ${response.status}`);
    return body;
  }

  /** A Cognito Identity call: JSON over POST with X-Amz-Target, no SDK and no signature. */
  async #identity(operation, payload) {
    const response = await this.fetchImpl(`https://cognito-identity.${this.auth.region}.amazonaws.com/`, {
      method: "POST",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": `AWSCognitoIdentityService.${operation}`,
      },
      body: JSON.stringify(payload),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.message || body.__type || `${operation} ${response.status}`);
    return body;
  }

  /**
   * Temporary AWS credentials of the officers' role, renewed before they expire (the id token is
   * refreshed first when it has expired too). One renewal at a time, shared by concurrent requests.
   */
  async credentials() {
    const state = this.#read();
    if (!state?.idToken) throw new Error("not signed in");
    const fresh = state.credentials && state.credentials.expiresAt - RENEW_BEFORE_MS > this.now();
    if (fresh) return state.credentials;
    this.renewing ??= this.#renew(state).finally(() => {
      this.renewing = null;
    });
    return this.renewing;
  }

  async #renew(state) {
    let { idToken, refreshToken } = state;
    const expiresAt = Number(jwtClaims(idToken).exp ?? 0) * 1000;
    if (expiresAt - RENEW_BEFORE_MS <= this.now()) {
      if (!refreshToken) throw new Error("the sign-in has expired");
      const tokens = await this.#token({ grant_type: "refresh_token", refresh_token: refreshToken });
      idToken = tokens.id_token;
      refreshToken = tokens.refresh_token ?? refreshToken;
    }
    const logins = { [this.auth.userPoolProviderName]: idToken };
    const identityId =
      state.identityId ??
      (await this.#identity("GetId", { IdentityPoolId: this.auth.identityPoolId, Logins: logins }))
        .IdentityId;
    const answer = await this.#identity("GetCredentialsForIdentity", {
      IdentityId: identityId,
      Logins: logins,
    });
    const c = answer.Credentials ?? {};
    const credentials = {
      accessKeyId: c.AccessKeyId,
      secretAccessKey: c.SecretKey,
      sessionToken: c.SessionToken,
      // Cognito answers epoch seconds.
      expiresAt: Number(c.Expiration) * 1000,
    };
    this.#write({ idToken, refreshToken, identityId, credentials });
    return credentials;
  }

  /** fetch, signed for execute-api. A session that cannot be renewed signs out to the Sign in button. */
  async fetch(url, init = {}) {
    let credentials;
    try {
      credentials = await this.credentials();
    } catch (cause) {
      this.#write(null);
      throw new Error(`signed out (${cause.message}): sign in again`);
    }
    this.signer ??= await this.loadSigner();
    return this.fetchImpl(
      String(url),
      await signRequest(this.signer, credentials, this.auth.region, url, init),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The one path of the page's REST calls (api.js, chat.js)

let session = null;

/** Called once by app.js when config.json has an auth block. */
export function useOfficerSession(officerSession) {
  session = officerSession;
}

/** fetch for REST API routes: signed when an officer session is in use, plain otherwise (the twin). */
export function apiFetch(url, init) {
  return session ? session.fetch(url, init) : fetch(url, init);
}
