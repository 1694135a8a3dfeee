// Signing in through the local OpenID Provider of `npm start` (functions/local/oidc.ts) the way a
// browser does it: authorization code + PKCE (S256), the login form, cookies kept between the
// redirects, the code exchanged for tokens; and client credentials for integrator sites.
import { createHash, randomBytes } from 'node:crypto';
import { DEV_PASSWORD, DEV_SITES, WEB_CLIENT_ID, WEB_SCOPE } from '../../functions/local/oidc.js';

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  scope?: string;
}

const b64url = (b: Buffer) => b.toString('base64url');

/** A tiny cookie jar over fetch that follows no redirect by itself. */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0/i.test(a));
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(i + 1));
    }
    return res;
  };
}

/**
 * Signs in `email` at the provider of the server at `baseUrl` (issuer `<baseUrl>/oidc`) and returns
 * the tokens. `verifier` overrides the PKCE verifier sent with the code (to test a wrong one).
 */
export async function signIn(
  baseUrl: string,
  email: string,
  opts: { password?: string; verifier?: string } = {},
): Promise<Tokens> {
  const code = await authorize(baseUrl, email, opts.password ?? DEV_PASSWORD);
  return exchange(baseUrl, code.code, opts.verifier ?? code.verifier);
}

/** The front-channel half: the authorization code (and its verifier) for `email`. */
export async function authorize(baseUrl: string, email: string, password = DEV_PASSWORD, withPkce = true) {
  const issuer = `${baseUrl}/oidc`;
  const get = browser();
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const state = b64url(randomBytes(8));
  const q = new URLSearchParams({
    client_id: WEB_CLIENT_ID,
    response_type: 'code',
    redirect_uri: `${baseUrl}/`,
    scope: WEB_SCOPE,
    state,
    prompt: 'consent',
  });
  if (withPkce) {
    q.set('code_challenge', challenge);
    q.set('code_challenge_method', 'S256');
  }
  let res = await get(`${issuer}/auth?${q}`);
  for (let hops = 0; hops < 12; hops++) {
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, baseUrl);
      if (next.href.startsWith(`${baseUrl}/?`)) {
        const error = next.searchParams.get('error');
        if (error) throw new Error(`${error}: ${next.searchParams.get('error_description')}`);
        if (next.searchParams.get('state') !== state) throw new Error('state mismatch');
        return { code: next.searchParams.get('code')!, verifier };
      }
      res = await get(next.href);
      continue;
    }
    const html = await res.text();
    const form = /<form method="post" action="([^"]+)"/.exec(html);
    if (!form) throw new Error(`sign-in stopped at HTTP ${res.status}: ${html.slice(0, 300)}`);
    if (html.includes('role="alert"') && hops > 1) throw new Error('login refused');
    res = await get(
      new URL(
        form[1].replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
        baseUrl,
      ).href,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      },
    );
  }
  throw new Error('too many redirects');
}

async function tokenRequest(
  baseUrl: string,
  body: Record<string, string>,
  basic?: { id: string; secret: string },
): Promise<Tokens> {
  const res = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(basic ? { authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}` } : {}),
    },
    body: new URLSearchParams(body).toString(),
  });
  const json = (await res.json()) as Tokens & { error?: string; error_description?: string };
  if (!res.ok) throw new Error(`${json.error}: ${json.error_description}`);
  return json;
}

/** The back-channel half: code + PKCE verifier for tokens (a public client: no secret). */
export const exchange = (baseUrl: string, code: string, verifier: string) =>
  tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: `${baseUrl}/`,
    client_id: WEB_CLIENT_ID,
  });

export const refresh = (baseUrl: string, refreshToken: string) =>
  tokenRequest(baseUrl, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: WEB_CLIENT_ID });

/** An integrator site's client-credentials token (the dev sites of the local provider). */
export function siteToken(
  baseUrl: string,
  site = 0,
  scope = 'libertalia/games.create libertalia/users.act',
): Promise<Tokens> {
  const { clientId, secret } = DEV_SITES[site];
  return tokenRequest(baseUrl, { grant_type: 'client_credentials', scope }, { id: clientId, secret });
}
