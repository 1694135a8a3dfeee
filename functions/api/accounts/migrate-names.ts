// The name claims migration (`npm run names:migrate`, docs/accounts.md "Migrating name claims").
// A name is held by the item `NAME#<nameKey(name)>`. Earlier versions keyed that item otherwise:
// - until a9a06ac, accounts by a hand-written fold (NFKD, accents dropped, lower case, a table of
//   Latin/Greek/Cyrillic look-alikes and leet digits) and site users under `<issuer>:<that key>`;
// - until 53d6c66, accounts and site users by the first caseless UTS #39 skeleton (without the
//   i/l fold nor letter-like symbols: "Bill" held `bill`, while nameKey("Bill") is now `blll`);
// - guests held no claim before 53d6c66.
// Each player's record names the key it holds (`nameKey`), so the migration works from the players:
// 1. accounts and site users, then 2. guests (so that a guest never takes a skeleton from an
//    account): each player's current key is claimed with the conditional put of signing up (never
//    taken from another holder), the record is pointed at it, and only then the player's old item
//    deleted (conditionally: only while the player holds it);
// 3. every claim item left under a key its holder no longer bears, whose holder's current claim is
//    in place, is deleted (an item a crashed rename left behind).
// Two players whose names now share a skeleton ("Bill" and "B1ll", both held before): the one
// already holding the skeleton keeps it, else the first one reached; the other keeps its name and
// its old item (under the old key) and both are listed under `collisions` for a human. Nothing is
// written for a player already migrated, so a second run writes nothing; the scans are paged and the
// run can resume from the cursor each page reports.
import type { NameClaim, PlayerRecord, Store } from '../../store/index.js';
import { REFRESH_TOKEN_SECONDS } from './auth.js';
import { nameKey, normaliseName } from './names.js';

/** Items read per scan page. */
export const MIGRATION_PAGE = 100;

const PHASES = ['held', 'guests', 'claims'] as const;
type Phase = (typeof PHASES)[number];

/** A player as the report shows it. */
export interface PlayerBrief {
  id: string;
  name: string;
  kind: 'guest' | 'account' | 'site';
  createdAt: string;
}

export interface NamesMigrationReport {
  /** Player items read. */
  players: number;
  /** Name claim items read in phase 3. */
  claims: number;
  /** New claims written (NAME#<current key>). */
  claimed: number;
  /** Player records pointed at their new claim. */
  repointed: number;
  /** Old claim items deleted (their holder's new claim in place). */
  released: number;
  /** Two players whose names share a skeleton now: `holder` holds it, `other` keeps only its name. */
  collisions: { nameKey: string; holder: PlayerBrief; other: PlayerBrief }[];
  /** Players whose record changed during the run (a rename): left as they are, run again. */
  changed: string[];
  /** Stored names that today's rules would refuse (a reserved "Bot" look-alike, a filler): kept, for a human. */
  refused: (PlayerBrief & { reason: string })[];
  /** Claim items whose holder is no player: left as they are, for a human. */
  orphans: NameClaim[];
  /** Where a later run may resume (`from`); null: the run finished. */
  cursor: string | null;
}

export interface NamesMigrationOptions {
  /** Epoch seconds now (a guest's claim lapses REFRESH_TOKEN_SECONDS later). */
  now: number;
  /** A cursor a previous run reported: resume there. */
  from?: string | null;
  /** Items read per scan page (default MIGRATION_PAGE). */
  pageSize?: number;
  /** Stop after this many pages (the report's cursor says where to go on); default: run to the end. */
  pages?: number;
  /** Called after every page with the report so far (progress, the cursor to resume from). */
  onPage?: (report: NamesMigrationReport) => void;
}

const kindOf = (p: PlayerRecord): PlayerBrief['kind'] => p.kind ?? 'guest';
const brief = (p: PlayerRecord): PlayerBrief => ({ id: p.id, name: p.name, kind: kindOf(p), createdAt: p.createdAt });
const isGuest = (p: PlayerRecord) => kindOf(p) === 'guest';

function parseCursor(from: string | null | undefined): { phase: Phase; scan: string | null } {
  if (!from) return { phase: 'held', scan: null };
  const [phase, scan = ''] = from.split(':');
  if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`not a names:migrate cursor: ${from}`);
  return { phase: phase as Phase, scan: scan || null };
}

/** One run: the store, its options and the report it fills in. */
interface Run {
  store: Store;
  opts: NamesMigrationOptions;
  report: NamesMigrationReport;
}

const lapsed = (run: Run, c: NameClaim) => c.expiresAt !== undefined && c.expiresAt < run.opts.now;

/** Whether `playerId` holds the claim of `key` (not lapsed). */
async function held(run: Run, key: string, playerId: string): Promise<boolean> {
  const c = await run.store.players.getNameClaim(key);
  return c !== null && c.playerId === playerId && !lapsed(run, c);
}

/**
 * The lapse of a guest's new claim: its old claim's, or (a guest from before names were unique,
 * not signed out) the longest its refresh token may still live; null: the guest holds no name
 * (signed out, or its claim lapsed or was freed) and gets none.
 */
async function guestLapse(run: Run, p: PlayerRecord): Promise<number | null> {
  if (p.nameKey) {
    const old = await run.store.players.getNameClaim(p.nameKey);
    return old && old.playerId === p.id && !lapsed(run, old) ? (old.expiresAt ?? null) : null;
  }
  return p.revokedAt === undefined ? run.opts.now + REFRESH_TOKEN_SECONDS : null;
}

/** Puts the player's claim under its name's current key in place; true once it is (or was). */
async function migratePlayer(run: Run, p: PlayerRecord, depth = 0): Promise<boolean> {
  const key = nameKey(p.name);
  if (key === '') return false;
  let expiresAt: number | undefined;
  if (isGuest(p)) {
    if (p.nameKey === key) return held(run, key, p.id); // a guest of today: its claim is its own business
    const lapse = await guestLapse(run, p);
    if (lapse === null) return false;
    expiresAt = lapse;
  }
  const claim = await claimKey(run, p, key, expiresAt, depth);
  if (claim === null || !(await held(run, key, p.id))) return false;
  return p.nameKey === key || repoint(run, p, key, claim.wrote);
}

/**
 * Claims `key` for the player unless it holds it already (`wrote`: this call wrote the claim);
 * null: another player holds it (a collision, reported).
 */
async function claimKey(
  run: Run,
  p: PlayerRecord,
  key: string,
  expiresAt: number | undefined,
  depth: number,
): Promise<{ wrote: boolean } | null> {
  const { store, report } = run;
  for (let attempt = 0; attempt < 2 && !(await held(run, key, p.id)); attempt++) {
    if (await store.players.claimName(key, p.id, { now: run.opts.now, expiresAt })) {
      report.claimed++;
      return { wrote: true };
    }
    // Held by another player: a real collision, or that player's own old item under a key it no
    // longer bears (a key of the old scheme that happens to be this one): migrate it, then retry.
    const other = await store.players.getNameClaim(key);
    const holder = other ? await store.players.getPlayer(other.playerId) : null;
    if (!other || !holder) continue; // freed meanwhile (or an orphan: reported by phase 3)
    if (depth === 0 && nameKey(holder.name) !== key && (await migratePlayer(run, holder, depth + 1))) {
      // The holder's record points at its new claim now; its item here is the old one.
      if (await store.players.releaseName(key, holder.id)) report.released++;
      continue;
    }
    // A real collision (or an old item of a holder that collides itself): both keep their names.
    report.collisions.push({ nameKey: key, holder: brief(holder), other: brief(p) });
    return null;
  }
  return { wrote: false };
}

/** Points the player's record at its claim of `key`, then releases its old item; false if the record changed meanwhile. */
async function repoint(run: Run, p: PlayerRecord, key: string, wrote: boolean): Promise<boolean> {
  const { store, report } = run;
  if (!(await store.ops.setNameKey(p.id, p.name, p.nameKey ?? null, key))) {
    // Renamed (or gone) since it was read: leave it to the rename, undo only our own claim.
    const now = await store.players.getPlayer(p.id);
    if (wrote && now?.nameKey !== key && (await store.players.releaseName(key, p.id))) report.claimed--;
    report.changed.push(p.id);
    return false;
  }
  report.repointed++;
  if (p.nameKey && (await store.players.releaseName(p.nameKey, p.id))) report.released++;
  return true;
}

/** Phase 3: a claim item under a key its holder no longer bears nor points at, once the holder's claim is in place. */
async function sweepClaim(run: Run, c: NameClaim): Promise<void> {
  if (lapsed(run, c)) return; // DynamoDB's TTL deletes it
  const holder = await run.store.players.getPlayer(c.playerId);
  if (!holder) {
    run.report.orphans.push(c);
    return;
  }
  const key = nameKey(holder.name);
  if (key === c.nameKey || holder.nameKey === c.nameKey) return;
  if ((await held(run, key, holder.id)) && (await run.store.players.releaseName(c.nameKey, holder.id)))
    run.report.released++;
}

/** Phases 1 and 2: a player read (a name today's rules refuse is reported, and migrated all the same). */
async function visitPlayer(run: Run, p: PlayerRecord): Promise<void> {
  run.report.players++;
  try {
    normaliseName(p.name);
  } catch (e) {
    run.report.refused.push({ ...brief(p), reason: (e as Error).message });
  }
  await migratePlayer(run, p);
}

/** One page of the phase's scan from `scan`; the scan's next cursor (null: the phase is done). */
async function migratePage(run: Run, phase: Phase, scan: string | null): Promise<string | null> {
  const size = run.opts.pageSize ?? MIGRATION_PAGE;
  if (phase === 'claims') {
    const page = await run.store.ops.scanNameClaims(size, scan);
    run.report.claims += page.claims.length;
    for (const c of page.claims) await sweepClaim(run, c);
    return page.cursor;
  }
  const page = await run.store.ops.scanPlayers(size, scan);
  for (const p of page.players) if (isGuest(p) === (phase === 'guests')) await visitPlayer(run, p);
  return page.cursor;
}

/** Migrates every name claim to the current key (see the file comment); the report of what it did. */
export async function migrateNames(store: Store, opts: NamesMigrationOptions): Promise<NamesMigrationReport> {
  const report: NamesMigrationReport = {
    players: 0,
    claims: 0,
    claimed: 0,
    repointed: 0,
    released: 0,
    collisions: [],
    changed: [],
    refused: [],
    orphans: [],
    cursor: null,
  };
  const run: Run = { store, opts, report };
  const start = parseCursor(opts.from);
  let pages = 0;
  for (const phase of PHASES.slice(PHASES.indexOf(start.phase))) {
    let scan = phase === start.phase ? start.scan : null;
    do {
      if (opts.pages !== undefined && pages >= opts.pages) {
        report.cursor = `${phase}:${scan ?? ''}`;
        return report;
      }
      scan = await migratePage(run, phase, scan);
      pages++;
      const next = PHASES[PHASES.indexOf(phase) + 1];
      report.cursor = scan ? `${phase}:${scan}` : next ? `${next}:` : null;
      opts.onPage?.(report);
    } while (scan);
  }
  report.cursor = null;
  return report;
}
