// The keys the service signs its own tokens with (guest sessions and integrators' delegated
// sessions): HS256 secrets, each named by a `kid` derived from the secret itself (first 16 hex
// characters of its SHA-256), so nothing but the secret has to be stored or rotated.
//
// A key ring is the current key (signs) followed by the previous ones (still verify during the
// grace period). On AWS they are the Secrets Manager secret's AWSCURRENT and AWSPREVIOUS
// versions; `refreshingKeys` re-reads them on an interval, so a warm container picks up a
// rotation without a restart and never rejects a token signed by the key just replaced.
import { createHash } from 'node:crypto';

export interface SigningKey {
  kid: string;
  secret: Uint8Array;
}

export interface KeyRing {
  /** Signs new tokens. */
  current: SigningKey;
  /** Every key that may verify a token: current first, then the previous ones. */
  all: SigningKey[];
}

export const kidOf = (secret: string): string => createHash('sha256').update(secret).digest('hex').slice(0, 16);

/** A key ring from secrets, current first (duplicates dropped). Each has at least 32 characters. */
export function keyRing(secrets: string[]): KeyRing {
  const uniq = [...new Set(secrets.filter((s) => s))];
  if (uniq.length === 0) throw new Error('no signing key');
  for (const s of uniq) if (s.length < 32) throw new Error('the signing key must have at least 32 characters');
  const all = uniq.map((s) => ({ kid: kidOf(s), secret: new TextEncoder().encode(s) }));
  return { current: all[0], all };
}

export type KeySource = () => Promise<KeyRing>;

/**
 * A key source that loads once, then again when `intervalMs` has passed (the previous ring stays
 * in use while a reload is in flight or if it fails).
 */
export function refreshingKeys(
  load: () => Promise<string[]>,
  intervalMs: number,
  now: () => number = Date.now,
): KeySource {
  let ring: KeyRing | null = null;
  let loadedAt = 0;
  let inflight: Promise<KeyRing> | null = null;
  const reload = () => {
    inflight ??= load()
      .then((secrets) => {
        ring = keyRing(secrets);
        loadedAt = now();
        return ring;
      })
      .finally(() => {
        inflight = null;
      });
    return inflight;
  };
  return async () => {
    if (!ring) return reload();
    if (now() - loadedAt >= intervalMs) {
      reload().catch((e) => console.error('signing key refresh failed; keeping the previous keys', e));
    }
    return ring;
  };
}

export const staticKeys = (secrets: string[]): KeySource => {
  const ring = keyRing(secrets);
  return async () => ring;
};
