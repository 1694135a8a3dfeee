// Game data in plain English for one caller, in ONE place on the server: event sentences,
// prompt texts and option labels with the seat holders' names (the caller's own seat reads
// "You"), the loot legend of a game and the reasons behind ties. Seat numbers are never shown
// to people. What a caller may see was already decided by the engine's view (view/viewEvent);
// this only puts it into words. What differs by edition (its nouns, loot, ties and its own
// events) is the edition's (`wordsOf`, functions/engine/editions/*/words.ts): nothing here
// asks which edition a game is.
import { cap, type EditionId, plural, poss, type RankFacts, wordsOf } from '../../engine/index.js';
import type { LootKind, TileSide } from '../schema.types.generated.js';
import type { Names } from './names.js';

// The view's words in one import: seats named for the caller (names.ts), events as sentences
// (sentences.ts), and below the labels, the loot legend and the final ranking's ties.
export { type Names, namesOf } from './names.js';
export { describeEvent, sunriseWords } from './sentences.js';

/**
 * An engine loot name or tile side as the schema's enum. The engine names them with plain
 * strings (an edition defines its own); a name the schema lacks is refused when the answer is
 * serialised, so a new kind needs its enum value in schema/game.graphql.
 */
export const lootKind = (k: string) => k as LootKind;
export const tileSide = (s: string) => s as TileSide;

export interface LootInfo {
  kind: LootKind;
  name: string;
  /** Tokens of this kind in the game. */
  tokens: number;
  /** Galecrest: the tile side in play (calm, stormy, custom); null in classic. */
  side: TileSide | null;
  /** Its worth at the end of the round, in words. */
  worth: string;
  /** What it does when taken / each night, in words ('' when nothing). */
  effect: string;
}

/** Every loot kind of a game: count, worth and effect (Galecrest: the tiles in play). */
export function lootLegend(edition: EditionId, board: Record<string, unknown>): LootInfo[] {
  return wordsOf(edition)
    .legend(board)
    .map((l) => ({ ...l, kind: lootKind(l.kind), side: l.side === null ? null : tileSide(l.side) }));
}

// ---- labels ----

/**
 * An engine label or prompt text with seats named: "Brute (14) of seat 2" becomes
 * "Mary Read's Brute (14)" ("Your Brute (14)" for the caller); any other "seat N" is a name.
 */
export function nameSeats(text: string, names: Names): string {
  const m = /^(.*) of seat (\d+)$/.exec(text);
  if (m) return `${poss(names.seat(Number(m[2])))} ${m[1]}`;
  return text.replace(/\bseat (\d+)\b/g, (_, s: string) => names.seat(Number(s)));
}

/** A prompt option's label for the caller (loot kinds by their names). */
export function optionLabel(label: string, names: Names): string {
  const w = names.words;
  const named = nameSeats(label, names);
  return w.isLoot(named)
    ? cap(w.lootName(named))
    : named.replace(/\b(\d+) ([a-z]+) for\b/, (all, k: string, kind: string) =>
        w.isLoot(kind) ? `${k} ${w.lootWords(kind, Number(k)).replace(/^\d+ /, '')} for` : all,
      );
}

// ---- the final ranking ----

export interface TieFacts extends RankFacts {
  seat: number;
  score: number;
}

/**
 * Why each seat ranks below the one before it on equal points: the criterion that decided, in
 * the engine's order (the edition's: classic cards in hand, booty tokens, doubloons; Galecrest
 * reputation); null for a seat not tied with the one above.
 */
export function tieReasons(ranked: TieFacts[], names: Names): (string | null)[] {
  return ranked.map((f, i) => {
    const above = ranked[i - 1];
    if (!above || above.score !== f.score) return null;
    const head = `Tied on ${plural(f.score, 'point')} with ${names.seat(above.seat)}`;
    for (const { why, value, show } of names.words.rankingTies) {
      const [a, b] = [value(above), value(f)];
      if (a !== b)
        return `${head}; ${names.seat(above.seat)} ${names.seat(above.seat) === 'You' ? 'rank' : 'ranks'} higher: ${why} (${show(a)} to ${show(b)}).`;
    }
    return `${head}; still equal on every tie-break, so the earlier seat ranks higher.`;
  });
}
