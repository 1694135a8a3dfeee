// Fair randomness. A game's shuffles all come from its seed, so whoever knows the seed knows
// every deal and the bag order. The server draws it from the operating system's CSPRNG (256
// bits) and keeps it secret until the game is finished. A seed chosen by the creator (private
// games, tests, bug reports) is allowed but public from the start, and the game says who chose
// it (`seedChosenBy`) to every seat and spectator, in `game`, `openGames` and `myGames`.
//
// Commitment: every game shows `seedCommitment = sha256("libertalia-seed-v1:" + gameId + ":" +
// seed)` from its creation; once the seed is revealed anyone can recompute the hash and check
// that the server did not change the seed mid-game. (The seed is 256 random bits, so the hash
// reveals nothing about it; binding the game id stops one commitment being reused.)
// `npm run verify` (scripts/verify.ts) does that check, and replays the game from the revealed
// seed with its `rngVersion` (the engine's rng.ts: SHA-256 of the seed gives the generator's
// whole state) against the game's log and result.
import { createHash, randomBytes } from 'node:crypto';

/** A fresh server seed: 32 bytes from the CSPRNG, base64url (43 characters). */
export const drawSeed = (): string => randomBytes(32).toString('base64url');

/** The published commitment to a game's seed (hex SHA-256). */
export const seedCommitment = (gameId: string, seed: string): string =>
  createHash('sha256').update(`libertalia-seed-v1:${gameId}:${seed}`).digest('hex');
