// The dashboard's officer sign-in without a browser: PKCE's S256 challenge (RFC 7636's own example),
// the hosted UI's authorize URL, SigV4 signing of a REST call giving exactly the Authorization header
// the AWS SDK's signer gives, and the sign-in flow against fakes of the token endpoint and Cognito
// Identity: the state is checked, the code traded with the verifier, the credentials fetched with
// X-Amz-Target calls, renewed before they expire, and every request signed with them.
import { createHash, createHmac, webcrypto } from "node:crypto";
import { SignatureV4 } from "@smithy/signature-v4";
import { AwsV4Signer } from "aws4fetch";
import { describe, expect, it } from "vitest";

// The dashboard's modules are plain browser JavaScript without type declarations.
const modulePath = (name: string) => `../../../dashboard/${name}`;
/** fetch's init as the page passes it (Node's RequestInit type has no `cache`). */
type Init = { method?: string; headers?: Record<string, string>; body?: string; cache?: string };
type Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
type Auth = {
  region: string;
  userPoolClientId: string;
  domain: string;
  identityPoolId: string;
  userPoolProviderName: string;
};
interface Session {
  signedIn: boolean;
  email: string;
  signIn(): Promise<void>;
  completeSignIn(): Promise<string>;
  credentials(): Promise<Credentials & { expiresAt: number }>;
  fetch(url: string, init?: Init): Promise<Response>;
}
const auth = (await import(modulePath("auth.js"))) as {
  base64Url: (bytes: ArrayBuffer | Uint8Array) => string;
  randomUrlSafe: (byteCount?: number) => string;
  pkceChallenge: (verifier: string) => Promise<string>;
  authorizeUrl: (auth: Auth, o: { redirectUri: string; state: string; challenge: string }) => string;
  jwtClaims: (token: string) => Record<string, unknown>;
  signRequest: (
    signer: unknown,
    credentials: Credentials,
    region: string,
    url: string,
    init?: Init,
    datetime?: string,
  ) => Promise<Omit<Init, "headers"> & { headers: Headers }>;
  OfficerSession: new (auth: Auth, deps: Record<string, unknown>) => Session;
};

const AUTH: Auth = {
  region: "eu-west-1",
  userPoolClientId: "client123",
  domain: "https://rewoo-dev-abc.auth.eu-west-1.amazoncognito.com",
  identityPoolId: "eu-west-1:1111-2222",
  userPoolProviderName: "cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Pool",
};

describe("PKCE", () => {
  it("computes RFC 7636's S256 challenge for its example verifier", async () => {
    expect(await auth.pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });

  it("makes verifiers of unreserved characters, 43 for 32 random bytes, each different", () => {
    const a = auth.randomUrlSafe(32);
    const b = auth.randomUrlSafe(32);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(auth.base64Url(new Uint8Array([251, 255, 191]))).toBe("-_-_");
  });

  it("asks the hosted UI for a code with the S256 challenge, the state and the three scopes", () => {
    const url = new URL(
      auth.authorizeUrl(AUTH, { redirectUri: "https://d1.cloudfront.net/", state: "st", challenge: "ch" }),
    );
    expect(url.origin + url.pathname).toBe(`${AUTH.domain}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "client123",
      redirect_uri: "https://d1.cloudfront.net/",
      scope: "openid email profile",
      state: "st",
      code_challenge: "ch",
      code_challenge_method: "S256",
    });
  });
});

const bytes = (data: string | ArrayBuffer | ArrayBufferView) =>
  typeof data === "string"
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

/** The hash the AWS SDK's signer is given (what @smithy/hash-node does), over node:crypto. */
class NodeSha256 {
  private hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret ? createHmac("sha256", bytes(secret)) : createHash("sha256");
  }
  update(data: string | ArrayBuffer | ArrayBufferView) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

describe("SigV4 signing of a REST call", () => {
  const credentials = {
    accessKeyId: "ASIAFAKEKEY0000001",
    secretAccessKey: "fake/secret+key0000000000000000000000000",
    sessionToken: "FwoGZXIvYXdzEFAKEsessiontoken==",
  };
  const cases: Array<{
    name: string;
    url: string;
    method: string;
    headers: Record<string, string>;
    body: string | undefined;
  }> = [
    {
      name: "a POST with a JSON body",
      url: "https://abc123.execute-api.eu-west-1.amazonaws.com/prod/v1/evaluate-conditions",
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ loan_program: "FHA", classification: "Purchase" }),
    },
    {
      name: "a GET with a query (sorted, encoded)",
      url: "https://abc123.execute-api.eu-west-1.amazonaws.com/prod/v1/runs?status=FAILED&q=loan%2042&limit=20",
      method: "GET",
      headers: { accept: "application/json" },
      body: undefined,
    },
  ];

  for (const c of cases) {
    it(`gives the AWS SDK signer's Authorization header for ${c.name}`, async () => {
      const signed = await auth.signRequest(
        AwsV4Signer,
        credentials,
        "eu-west-1",
        c.url,
        { method: c.method, headers: c.headers, body: c.body, cache: "no-store" },
        "20261124T120000Z",
      );
      const url = new URL(c.url);
      const reference = await new SignatureV4({
        credentials,
        region: "eu-west-1",
        service: "execute-api",
        sha256: NodeSha256,
        applyChecksum: false,
      }).sign(
        {
          method: c.method,
          protocol: url.protocol,
          hostname: url.hostname,
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: { host: url.host, ...c.headers },
          body: c.body,
        },
        { signingDate: new Date("2026-11-24T12:00:00Z") },
      );
      const authorization = signed.headers.get("authorization");
      expect(authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=ASIAFAKEKEY0000001\/20261124\/eu-west-1\/execute-api\/aws4_request, /,
      );
      expect(authorization).toBe(reference.headers.authorization);
      expect(signed.headers.get("x-amz-security-token")).toBe(credentials.sessionToken);
      expect(signed.headers.get("x-amz-date")).toBe("20261124T120000Z");
      // The rest of init is fetch's as the caller gave it.
      expect(signed.cache).toBe("no-store");
      expect(signed.body).toBe(c.body);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// The flow, against fakes

const jwt = (claims: Record<string, unknown>) =>
  `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.sig`;

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    items,
  };
}

function fakeBrowser(startUrl: string) {
  const location = {
    url: new URL(startUrl),
    get origin() {
      return this.url.origin;
    },
    get pathname() {
      return this.url.pathname;
    },
    get search() {
      return this.url.search;
    },
    get hash() {
      return this.url.hash;
    },
    assigned: [] as string[],
    assign(href: string) {
      this.assigned.push(href);
    },
  };
  const history = {
    replaceState: (_state: unknown, _title: string, href: string) => {
      location.url = new URL(href);
    },
  };
  return { location, history };
}

function fakeCognito(now: () => number) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  let credentialCount = 0;
  const fetchImpl = async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (url === `${AUTH.domain}/oauth2/token`) {
      const form = new URLSearchParams(String(init.body));
      if (form.get("client_id") !== AUTH.userPoolClientId) return json({ error: "invalid_client" }, 400);
      const exp = Math.floor(now() / 1000) + 3600;
      if (form.get("grant_type") === "authorization_code") {
        if (form.get("code") !== "the-code") return json({ error: "invalid_grant" }, 400);
        return json({
          id_token: jwt({ email: "officer@lender.example", exp, n: 1 }),
          refresh_token: "refresh-1",
          verifier: form.get("code_verifier"),
        });
      }
      if (form.get("grant_type") === "refresh_token" && form.get("refresh_token") === "refresh-1") {
        return json({ id_token: jwt({ email: "officer@lender.example", exp, n: 2 }) });
      }
      return json({ error: "invalid_grant" }, 400);
    }
    if (url === "https://cognito-identity.eu-west-1.amazonaws.com/") {
      const target = new Headers(init.headers).get("x-amz-target");
      const body = JSON.parse(String(init.body));
      if (!body.Logins?.[AUTH.userPoolProviderName]) return json({ __type: "NotAuthorizedException" }, 400);
      if (target === "AWSCognitoIdentityService.GetId") {
        expect(body.IdentityPoolId).toBe(AUTH.identityPoolId);
        return json({ IdentityId: "eu-west-1:officer-1" });
      }
      if (target === "AWSCognitoIdentityService.GetCredentialsForIdentity") {
        expect(body.IdentityId).toBe("eu-west-1:officer-1");
        credentialCount++;
        return json({
          IdentityId: body.IdentityId,
          Credentials: {
            AccessKeyId: `ASIAFAKE${credentialCount}`,
            SecretKey: "secret",
            SessionToken: `token-${credentialCount}`,
            Expiration: Math.floor(now() / 1000) + 3600,
          },
        });
      }
    }
    return new Response("{}", { status: 200 });
  };
  return { fetchImpl, calls };
}

describe("an officer's session", () => {
  async function signedInSession() {
    let clock = Date.parse("2026-11-24T12:00:00Z");
    const now = () => clock;
    const storage = memoryStorage();
    const browser = fakeBrowser("https://d1.cloudfront.net/#/runs");
    const cognito = fakeCognito(now);
    const deps = {
      fetchImpl: cognito.fetchImpl,
      storage,
      location: browser.location,
      history: browser.history,
      cryptoImpl: webcrypto,
      loadSigner: async () => AwsV4Signer,
      now,
    };
    const session = new auth.OfficerSession(AUTH, deps);
    await session.signIn();
    const authorize = new URL(browser.location.assigned[0] as string);
    const state = authorize.searchParams.get("state") as string;
    return {
      session,
      storage,
      browser,
      cognito,
      deps,
      authorize,
      state,
      advance: (ms: number) => {
        clock += ms;
      },
      returnWith: (query: string) => {
        browser.location.url = new URL(`https://d1.cloudfront.net/?${query}`);
        return new auth.OfficerSession(AUTH, deps);
      },
    };
  }

  it("refuses an answer whose state is not the one it sent, and forgets the code", async () => {
    const { returnWith, browser, cognito } = await signedInSession();
    const back = returnWith("code=the-code&state=forged");
    expect(await back.completeSignIn()).toMatch(/did not match/);
    expect(back.signedIn).toBe(false);
    expect(browser.location.url.search).toBe("");
    expect(cognito.calls.filter((c) => c.url.endsWith("/oauth2/token"))).toHaveLength(0);
  });

  it("trades the code with the verifier, gets credentials, and signs REST calls with them", async () => {
    const { returnWith, authorize, state, cognito, browser } = await signedInSession();
    const back = returnWith(`code=the-code&state=${state}`);
    expect(await back.completeSignIn()).toBe("");
    expect(back.signedIn).toBe(true);
    expect(back.email).toBe("officer@lender.example");
    // Back where the officer was, without the code in the address bar.
    expect(browser.location.url.href).toBe("https://d1.cloudfront.net/#/runs");
    const tokenCall = cognito.calls.find((c) => c.url.endsWith("/oauth2/token"));
    const form = new URLSearchParams(String(tokenCall?.init.body));
    expect(form.get("grant_type")).toBe("authorization_code");
    expect(form.get("redirect_uri")).toBe("https://d1.cloudfront.net/");
    // The verifier sent now is the one whose challenge went to the authorize endpoint.
    expect(await auth.pkceChallenge(form.get("code_verifier") as string)).toBe(
      authorize.searchParams.get("code_challenge"),
    );
    const targets = cognito.calls.map((c) => new Headers(c.init.headers).get("x-amz-target")).filter(Boolean);
    expect(targets).toEqual([
      "AWSCognitoIdentityService.GetId",
      "AWSCognitoIdentityService.GetCredentialsForIdentity",
    ]);

    await back.fetch("https://abc.execute-api.eu-west-1.amazonaws.com/prod/v1/runs?limit=20", {
      headers: { accept: "application/json" },
      cache: "no-store",
    });
    const apiCall = cognito.calls.at(-1);
    const headers = new Headers(apiCall?.init.headers);
    expect(headers.get("authorization")).toMatch(
      /^AWS4-HMAC-SHA256 Credential=ASIAFAKE1\/\d{8}\/eu-west-1\/execute-api\/aws4_request, /,
    );
    expect(headers.get("x-amz-security-token")).toBe("token-1");
  });

  it("renews the tokens and the credentials before they expire", async () => {
    const { returnWith, state, cognito, advance } = await signedInSession();
    const back = returnWith(`code=the-code&state=${state}`);
    expect(await back.completeSignIn()).toBe("");
    advance(20 * 60 * 1000);
    expect((await back.credentials()).accessKeyId).toBe("ASIAFAKE1");
    // 56 minutes in: within five minutes of the expiry of both.
    advance(36 * 60 * 1000);
    const [first, second] = await Promise.all([back.credentials(), back.credentials()]);
    expect(first.accessKeyId).toBe("ASIAFAKE2");
    expect(second.accessKeyId).toBe("ASIAFAKE2");
    const refreshes = cognito.calls.filter(
      (c) => c.url.endsWith("/oauth2/token") && String(c.init.body).includes("grant_type=refresh_token"),
    );
    expect(refreshes).toHaveLength(1);
    // The identity is remembered: GetId once.
    const getIds = cognito.calls.filter(
      (c) => new Headers(c.init.headers).get("x-amz-target") === "AWSCognitoIdentityService.GetId",
    );
    expect(getIds).toHaveLength(1);
  });
});
