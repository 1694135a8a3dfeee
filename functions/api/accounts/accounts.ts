// Players behind tokens: guests (signUp), accounts (an OpenID Provider's user: issuer + subject,
// a display name chosen at register), site users (an integrator's user, through actAs), and
// what each may do with its tokens (refresh, revoke, rename, link a guest to an account).
import { randomUUID } from 'node:crypto';
import type { PlayerRecord } from '../../store/index.js';
import { type Credential, REFRESH_TOKEN_SECONDS, SCOPES, verifyRefresh } from './auth.js';
import type { PlayerCache, Services } from '../services.js';
import { ApiError, unauthenticated } from '../errors.js';
import type { PlayerKind, Profile } from '../schema.types.generated.js';
import { nameKey, normaliseName } from './names.js';

/** Player records seen recently by this instance (a revocation elsewhere takes effect within this). */
export const PLAYER_CACHE_MS = 10_000;
const CACHE_MAX = 10_000;

export function createPlayerCache(): PlayerCache {
  const players = new Map<string, { rec: PlayerRecord | null; at: number }>();
  const identities = new Map<string, string>();
  const listeners: ((rec: PlayerRecord) => Promise<void> | void)[] = [];
  const trim = (m: Map<string, unknown>) => {
    if (m.size > CACHE_MAX) for (const k of [...m.keys()].slice(0, m.size - CACHE_MAX)) m.delete(k);
  };
  return {
    async get(services, playerId) {
      const now = Date.now();
      const hit = players.get(playerId);
      if (hit && now - hit.at < PLAYER_CACHE_MS) return hit.rec;
      const rec = await services.store.players.getPlayer(playerId);
      players.set(playerId, { rec, at: now });
      trim(players);
      return rec;
    },
    async identity(services, issuer, subject) {
      const k = `${issuer}#${subject}`;
      const hit = identities.get(k);
      if (hit) return hit;
      const id = await services.store.players.getIdentity(issuer, subject);
      if (id) identities.set(k, id); // never changes once set; a missing one is not cached
      trim(identities);
      return id;
    },
    forget(playerId) {
      players.delete(playerId);
    },
    onSessionsEnd(listener) {
      listeners.push(listener);
    },
    async endSessions(rec) {
      players.delete(rec.id);
      await Promise.all(
        listeners.map(async (l) => {
          try {
            await l(rec);
          } catch (e) {
            console.error('ending the sessions of a player failed', e);
          }
        }),
      );
    },
  };
}

/**
 * What an open connection remembers of the token it was opened with, to check it again at every
 * message: our tokens' version, or a provider token's issue time (seconds).
 */
export type SessionStamp = { version: number } | { issuedAt: number };

export function stampOf(c: Credential): SessionStamp | null {
  if (c.type === 'own') return { version: c.version };
  if (c.type === 'user') return { issuedAt: c.issuedAt };
  return null;
}

/** The stamp as one string (the push authorizer's context on AWS carries strings only). */
export const stampText = (s: SessionStamp): string => ('version' in s ? `v${s.version}` : `iat${s.issuedAt}`);
export function stampFromText(t: string | undefined | null): SessionStamp | null {
  const m = /^(v|iat)(\d{1,12})$/.exec(t ?? '');
  if (!m) return null;
  return m[1] === 'v' ? { version: Number(m[2]) } : { issuedAt: Number(m[2]) };
}

/** Whether a connection opened with `stamp` may still act for the player (not signed out since). */
export async function sessionAlive(services: Services, playerId: string, stamp: SessionStamp): Promise<boolean> {
  const rec = await services.players.get(services, playerId);
  if (!rec) return false;
  if ('version' in stamp) return (rec.tokenVersion ?? 0) === stamp.version;
  return rec.revokedAt === undefined || stamp.issuedAt > rec.revokedAt;
}

/** The player a verified credential names (null: an account without a player yet, or a client). */
export async function resolvePlayer(services: Services, c: Credential): Promise<PlayerRecord | null> {
  if (c.type === 'client') return null;
  if (c.type === 'own') {
    const rec = await services.players.get(services, c.playerId);
    if (!rec) return unauthenticated('token for an unknown player');
    if ((rec.tokenVersion ?? 0) !== c.version) return unauthenticated('token revoked (signed out)', 'revoked');
    return rec;
  }
  const id = await services.players.identity(services, c.issuer, c.subject);
  if (!id) return null;
  const rec = await services.players.get(services, id);
  if (!rec) return null;
  if (rec.revokedAt !== undefined && c.issuedAt <= rec.revokedAt)
    return unauthenticated('token revoked (signed out): sign in again', 'revoked');
  return rec;
}

/** The issuer under which an integrator's users are kept: its users are namespaced by the site. */
export const SITE_PREFIX = 'site:';
export const siteIssuer = (clientId: string) => `${SITE_PREFIX}${clientId}`;

export interface SessionOut {
  playerId: string;
  name: string;
  token: string;
  refreshToken: string | null;
  expiresAt: string;
}

/** A session; `refreshJti`: the id of its refresh token (the one rotation recorded), null: none (site users). */
async function session(
  services: Services,
  rec: PlayerRecord,
  clientId: string | null,
  scopes: string[],
  refreshJti: string | null,
): Promise<SessionOut> {
  const version = rec.tokenVersion ?? 0;
  const base = { playerId: rec.id, version, clientId, scopes };
  const token = await services.verifier.sign({ ...base, typ: 'access' });
  const refreshToken = refreshJti ? await services.verifier.sign({ ...base, typ: 'refresh', jti: refreshJti }) : null;
  return {
    playerId: rec.id,
    name: rec.name,
    token,
    refreshToken,
    expiresAt: new Date(services.now().getTime() + services.verifier.accessTokenSeconds * 1000).toISOString(),
  };
}

/** A guest: no account, a name held like any other (see reserve) for as long as the guest can sign in. */
export async function signUpGuest(services: Services, rawName: string): Promise<SessionOut> {
  const rec = await createPlayer(services, rawName, { kind: 'guest', refreshJti: randomUUID() });
  return session(services, rec, null, [], rec.refreshJti!);
}

const isGuest = (rec: PlayerRecord) => rec.kind !== 'account' && rec.kind !== 'site';
const epochSeconds = (services: Services) => Math.floor(services.now().getTime() / 1000);
/** When a guest's name claim lapses: with the refresh token issued now, after which the guest cannot sign in again. */
const guestLapse = (services: Services) => epochSeconds(services) + REFRESH_TOKEN_SECONDS;

/** A guest that can never sign in again (signed out, or its token family revoked) lets its name go. */
async function releaseGuestName(services: Services, rec: PlayerRecord): Promise<void> {
  if (isGuest(rec) && rec.nameKey) await services.store.players.releaseName(rec.nameKey, rec.id);
}

/**
 * A new access token and a new refresh token for the holder of the current refresh token.
 * Rotation with reuse detection (OAuth 2.0 Security BCP, 4.14): each refresh token is redeemed
 * once; redeeming one that was already rotated means two holders (a thief and the player), so
 * the whole family (every token of the player's sessions: the token version) is revoked and its
 * open connections closed. Two refreshes racing with the same token count as reuse too.
 */
export async function refreshSession(services: Services, refreshToken: string): Promise<SessionOut> {
  const r = await verifyRefresh(services.keys, refreshToken, services.now());
  const next = randomUUID();
  const rotated = await services.store.players.rotateRefresh(r.playerId, r.version, r.jti, next);
  if (rotated === 'unknown') return unauthenticated('refresh token for an unknown player');
  if (rotated === 'revoked') return unauthenticated('refresh token revoked (signed out)', 'revoked');
  if (rotated === 'reused') {
    const rec = await services.store.players.updatePlayer(r.playerId, {}, { bumpTokenVersion: true });
    if (rec) await Promise.all([endSessions(services, rec), releaseGuestName(services, rec)]);
    return unauthenticated(
      'refresh token already used: every session of this player is revoked, sign in again',
      'revoked',
    );
  }
  const rec = await services.store.players.getPlayer(r.playerId);
  if (!rec || (rec.tokenVersion ?? 0) !== r.version)
    return unauthenticated('refresh token revoked (signed out)', 'revoked');
  // The guest's name stays held as long as this new refresh token can be redeemed.
  if (isGuest(rec) && rec.nameKey) await services.store.players.renewName(rec.nameKey, rec.id, guestLapse(services));
  return session(services, rec, r.clientId, r.scopes, next);
}

/**
 * Reserves a name's skeleton (names.ts `nameKey`) for a player: one conditional put of the item
 * `NAME#<skeleton>`, so two players racing for look-alike names cannot both win. One namespace for
 * guests, accounts and the site users of every integrator; the reserved "Bot" prefix keeps bots'
 * names apart. A name is held while its player bears it (a rename frees the old one); a guest's
 * claim lapses 60 days after its last sign-up, refresh or rename (when its last refresh token
 * does) and is freed at once when the guest signs out; linking a guest to an account makes it
 * permanent. CONFLICT (`extensions.reason: "NAME_TAKEN"`) if another player holds it.
 */
async function reserve(services: Services, key: string, player: PlayerRecord, name: string): Promise<void> {
  const claim = { now: epochSeconds(services), expiresAt: isGuest(player) ? guestLapse(services) : undefined };
  if (!(await services.store.players.claimName(key, player.id, claim)))
    throw new ApiError('CONFLICT', `the name "${name}" is taken (or looks like a name that is)`, {
      reason: 'NAME_TAKEN',
    });
}

/**
 * A new player of `kind`, named `rawName` (normalised; the name reserved first: CONFLICT if it
 * is taken), stored with its identity at `issuer`/`subject` (accounts and site users).
 */
async function createPlayer(
  services: Services,
  rawName: string,
  fields: Pick<PlayerRecord, 'kind' | 'issuer' | 'subject' | 'refreshJti'>,
): Promise<PlayerRecord> {
  const name = normaliseName(rawName);
  const key = nameKey(name);
  const rec: PlayerRecord = {
    id: randomUUID(),
    name,
    createdAt: services.now().toISOString(),
    tokenVersion: 0,
    ...fields,
    nameKey: key,
  };
  await reserve(services, key, rec, name);
  await services.store.players.insertPlayer(rec);
  return rec;
}

/** An account's player, created once with its display name (unique across accounts). */
export async function register(services: Services, c: Credential, rawName: string): Promise<PlayerRecord> {
  if (c.type !== 'user')
    throw new ApiError('FORBIDDEN', 'register needs a signed-in account (an OpenID Provider access token)');
  if (await services.players.identity(services, c.issuer, c.subject))
    throw new ApiError('CONFLICT', 'this account already has a player (see me, rename)');
  const rec = await createPlayer(services, rawName, { kind: 'account', issuer: c.issuer, subject: c.subject });
  if (!(await services.store.players.putIdentity(c.issuer, c.subject, rec.id, rec.createdAt))) {
    await services.store.players.releaseName(rec.nameKey!, rec.id);
    throw new ApiError('CONFLICT', 'this account already has a player (see me)');
  }
  return rec;
}

/**
 * Migration: a guest (any of its tokens proves it: an access token, a refresh token or a token of
 * the first version) becomes this account's player, with its games. Its guest tokens stop working.
 */
export async function linkGuest(
  services: Services,
  c: Credential,
  guestToken: string,
  rawName?: string | null,
): Promise<PlayerRecord> {
  if (c.type !== 'user')
    throw new ApiError('FORBIDDEN', 'linkGuest needs a signed-in account (an OpenID Provider access token)');
  if (await services.players.identity(services, c.issuer, c.subject))
    throw new ApiError(
      'CONFLICT',
      'this account already has a player: link the guest from a new account, or keep playing its games with the guest token',
    );
  let proof: { playerId: string; version: number };
  try {
    const g = await services.verifier.verify(guestToken);
    if (g.type !== 'own' || g.clientId) throw new Error();
    proof = g;
  } catch {
    proof = await verifyRefresh(services.keys, guestToken, services.now());
  }
  const guest = await services.store.players.getPlayer(proof.playerId);
  if (!guest || (guest.kind && guest.kind !== 'guest'))
    throw new ApiError('BAD_USER_INPUT', "that token is not a guest player's");
  // A signed-out guest's old tokens prove nothing: as for every other call, the version must hold.
  if ((guest.tokenVersion ?? 0) !== proof.version)
    return unauthenticated('that guest token is revoked (signed out)', 'revoked');
  const name = rawName ? normaliseName(rawName) : guest.name;
  const key = nameKey(name);
  // The guest's claim moves to the account: the same item rewritten without a lapse (or a new name's).
  const account: PlayerRecord = { ...guest, kind: 'account' };
  await reserve(services, key, account, name);
  if (!(await services.store.players.putIdentity(c.issuer, c.subject, guest.id, services.now().toISOString()))) {
    if (key === guest.nameKey)
      await reserve(services, key, guest, name); // still the guest's, lapsing again
    else await services.store.players.releaseName(key, guest.id);
    throw new ApiError('CONFLICT', 'this account already has a player');
  }
  const rec = await services.store.players.updatePlayer(
    guest.id,
    { kind: 'account', issuer: c.issuer, subject: c.subject, name, nameKey: key },
    { bumpTokenVersion: true },
  );
  if (guest.nameKey && guest.nameKey !== key) await services.store.players.releaseName(guest.nameKey, guest.id);
  // The guest tokens stop here: so do the guest's open connections.
  await endSessions(services, { ...guest, tokenVersion: rec?.tokenVersion });
  return rec!;
}

/** A new display name, held (see reserve); the old one freed. */
export async function rename(services: Services, me: PlayerRecord, rawName: string): Promise<PlayerRecord> {
  const name = normaliseName(rawName);
  const key = nameKey(name);
  if (key !== me.nameKey || isGuest(me)) await reserve(services, key, me, name);
  const rec = await services.store.players.updatePlayer(me.id, { name, nameKey: key });
  if (me.nameKey && me.nameKey !== key) await services.store.players.releaseName(me.nameKey, me.id);
  services.players.forget(me.id);
  return rec!;
}

/**
 * Every token issued so far for the player stops working (ours by version, providers' by issue
 * time), and so do its sessions elsewhere: its open graphql-ws and /push connections are closed,
 * and the local provider's grants (its refresh tokens) revoked.
 */
export async function revokeTokens(services: Services, me: PlayerRecord): Promise<void> {
  const rec = await services.store.players.updatePlayer(
    me.id,
    { revokedAt: epochSeconds(services) },
    { bumpTokenVersion: true },
  );
  await Promise.all([endSessions(services, rec ?? me), releaseGuestName(services, rec ?? me)]);
}

/** Closes the player's connections: this process's listeners, and the push connections the push store keeps (every instance, AWS too). */
async function endSessions(services: Services, rec: PlayerRecord): Promise<void> {
  await Promise.all([
    services.players.endSessions(rec),
    services.push
      ?.endSessions(rec.id)
      .catch((e) => console.error('closing the push connections of a player failed', e)),
  ]);
}

/**
 * An integrator acts for one of its users (the RFC 8693 token-exchange idea over GraphQL): its
 * client-credentials token plus its own user id give a short-lived session of that user's player,
 * namespaced by the client (another client naming the same id gets a different player). The
 * session carries `act: { sub: clientId }` and the client's scopes; every call is logged.
 */
export async function actAs(
  services: Services,
  c: Credential,
  user: string,
  rawName?: string | null,
): Promise<SessionOut> {
  if (c.type !== 'client') throw new ApiError('FORBIDDEN', "actAs needs an integrator's client-credentials token");
  if (!c.scopes.includes(SCOPES.actForUsers))
    throw new ApiError('FORBIDDEN', `this client lacks the ${SCOPES.actForUsers} scope`);
  if (typeof user !== 'string' || user.length < 1 || user.length > 128 || /[\p{Cc}\p{Cf}]/u.test(user))
    throw new ApiError('BAD_USER_INPUT', 'user is a site user id of 1-128 printable characters');
  const issuer = siteIssuer(c.clientId);
  let id = await services.players.identity(services, issuer, user);
  let rec = id ? await services.store.players.getPlayer(id) : null;
  if (!rec) {
    if (!rawName)
      throw new ApiError('BAD_USER_INPUT', `a new site user needs a name: actAs(user: "${user}", name: "...")`);
    rec = await createPlayer(services, rawName, { kind: 'site', issuer, subject: user });
    if (!(await services.store.players.putIdentity(issuer, user, rec.id, rec.createdAt))) {
      await services.store.players.releaseName(rec.nameKey!, rec.id);
      id = await services.store.players.getIdentity(issuer, user);
      rec = id ? await services.store.players.getPlayer(id) : null;
      if (!rec) throw new ApiError('CONFLICT', 'try again');
    }
  }
  console.log(
    JSON.stringify({
      audit: 'actAs',
      clientId: c.clientId,
      issuer: c.issuer,
      user,
      playerId: rec.id,
      at: services.now().toISOString(),
    }),
  );
  const scopes = c.scopes.filter((s) => s === SCOPES.createGames);
  return session(services, rec, c.clientId, scopes, null);
}

/** `me`: the caller's profile (an account without a player yet has no playerId). */
export function profileOf(c: Credential, rec: PlayerRecord | null): Profile;
export function profileOf(c: Credential | null, rec: PlayerRecord | null): Profile | null;
export function profileOf(c: Credential | null, rec: PlayerRecord | null): Profile | null {
  if (!c) return null;
  if (c.type === 'client')
    return { playerId: null, name: null, kind: 'CLIENT', issuer: c.issuer, clientId: c.clientId, createdAt: null };
  const kind: PlayerKind =
    rec?.kind === 'account' ? 'ACCOUNT' : rec?.kind === 'site' ? 'SITE_USER' : c.type === 'user' ? 'ACCOUNT' : 'GUEST';
  return {
    playerId: rec?.id ?? null,
    name: rec?.name ?? null,
    kind,
    issuer: rec?.issuer ?? (c.type === 'user' ? c.issuer : null),
    clientId: c.clientId,
    createdAt: rec?.createdAt ?? null,
  };
}
