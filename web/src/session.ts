// The session kept in this browser, and the ONE place the client gets its bearer token
// (`bearerToken()`, read by api.ts for every request). A sign-in module (e.g. OIDC) plugs in
// with `setTokenSource(fn)`: from then on requests carry the token that function returns.
export interface Session {
  playerId: string;
  name: string;
  token: string;
}

const SESSION_KEY = 'libertalia.session';

export function loadSession(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s) localStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else localStorage.removeItem(SESSION_KEY);
}

type TokenSource = () => string | null | undefined | Promise<string | null | undefined>;

let source: TokenSource = () => loadSession()?.token;

/** Replaces where bearer tokens come from (default: the saved session's token). */
export function setTokenSource(fn: TokenSource): void {
  source = fn;
}

/** The bearer token for the next request, or null when signed out. */
export async function bearerToken(): Promise<string | null> {
  return (await source()) ?? null;
}
