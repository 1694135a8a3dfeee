// The 40 Galecrest characters: a typed table of small effects, timing by field.
// Rules text (in our words) and every ruling: docs/rules-galecrest.md.
//
// "This character" in an ability is the card whose step runs (step.rank): for a copied
// ability (Apprentice, Witch) that is the copier, never the copied card.
import {
  cardName,
  charId,
  allDenOptions,
  denOptionsWith,
  discard,
  gain,
  gainLoot,
  idRank,
  idSeat,
  indexIn,
  lootCount,
  leftOf,
  moveCharacter,
  onIsland,
  ownDenOptions,
  ownedKinds,
  passLoot,
  pay,
  placeOnIsland,
  rankOptions,
  removeAt,
  returnLoot,
  rightOf,
  transfer,
} from '../../actions.js';
import { ask, push, step, stepMaker } from '../../kernel.js';
import type { CardDef, Ctx, Effect } from '../../edition.js';
import { drawRandom } from '../../rng.js';
import type { GameState, Loot, Option, Step } from '../../types.js';
import { kindIn, LOOT_KINDS, lootOptions, pushLootDusk, takeToday } from './loot.js';
import { changeReputation, moveReputationTo, TRACK_SPACES } from './reputation.js';
import { atNightEnd, FREED_PRISONER } from './night.js';
import { ext } from './state.js';

export interface GalecrestCard extends CardDef {
  /** Anchor ability: the doubloons it is worth (losses negative), read before anything moves. */
  anchor?: (x: Ctx, seat: number) => number;
  /** Anchor: one token of this kind counts double in that kind's anchor effects (Explorer). */
  countsDouble?: Loot;
  /** Anchor: whether the card goes back to hand instead of the graveyard (Witch). */
  backToHand?: (g: GameState, seat: number) => boolean;
}

// ---- small helpers ----

const ship = (x: Ctx, seat: number) => x.g.seats[seat].den;
const coins = (x: Ctx, s: Step) => x.g.seats[s.seat].doubloons;
const loot = (x: Ctx, seat: number) => x.g.seats[seat].loot;
/**
 * The name of the card whose step runs: read from this edition's names by rank (filled below
 * the card table), not through the per-edition table of `cardName`; the reason of nearly every
 * change an ability makes, so it is read even when no event is kept.
 */
const name = (x: Ctx, s: Step) => NAMES[s.rank] ?? cardName(x, s.rank);
const plus =
  (n: (x: Ctx, s: Step) => number): Effect =>
  (x, s) =>
    gain(x, s.seat, n(x, s), name(x, s));
const minus =
  (n: (x: Ctx, s: Step) => number): Effect =>
  (x, s) =>
    void pay(x, s.seat, n(x, s), name(x, s));
const reputation =
  (n: number): Effect =>
  (x, s) =>
    void changeReputation(x, s.seat, n, name(x, s));
/** Ship characters ranked below `rank` (Bosun: below 21). */
const countBelow = (x: Ctx, seat: number, rank: number) => {
  const den = ship(x, seat);
  let n = 0;
  for (let i = 0; i < den.length; i++) if (den[i] < rank) n++;
  return n;
};
/** Ship characters ranked above `rank` (Freed Prisoner: above 20). */
const countAbove = (x: Ctx, seat: number, rank: number) => {
  const den = ship(x, seat);
  let n = 0;
  for (let i = 0; i < den.length; i++) if (den[i] > rank) n++;
  return n;
};
const rightmost = (g: GameState) => g.island[g.island.length - 1];

/**
 * A prompt's text, "<card>: <text>", for the card whose step runs (the copier for a copy): built
 * once per rank, not at every prompt. These cards are Galecrest's, so are their names.
 */
function said(text: string): (x: Ctx, s: Step) => string {
  const byRank: string[] = [];
  return (x, s) => byRank[s.rank] ?? (byRank[s.rank] = `${name(x, s)}: ${text}`);
}

/** A `character` prompt of the asking seat's options, then `then` with the chosen card. */
function pickFromShips(
  text: string,
  options: (x: Ctx, s: Step) => Option[],
  then: (x: Ctx, s: Step, seat: number, rank: number) => void,
): Effect {
  const prompt = said(text);
  return (x, s, answer) => {
    if (answer === undefined) {
      ask(x, s, s.seat, 'character', prompt(x, s), options(x, s));
      return;
    }
    then(x, s, idSeat(answer), idRank(answer));
  };
}

// ---- daytime ----

/** Scout: discarded; its owner inserts another character from hand on the island. */
const scoutText = said('choose the character you put on the island');
const scout: Effect = (x, s, answer) => {
  const hand = x.g.seats[s.seat].hand;
  if (answer === undefined && hand.length > 0) {
    ask(x, s, s.seat, 'hand', scoutText(x, s), rankOptions(x, hand));
    return;
  }
  discard(x, s.seat, s.rank, 'island', name(x, s));
  if (answer === undefined) return;
  const rank = Number(answer);
  removeAt(hand, hand.indexOf(rank));
  placeOnIsland(x, s.seat, rank);
  x.log.character(s.seat, rank, 'hand', 'island', name(x, s));
};

/** Copies another card's ability; the copy runs as this character (step.rank). */
export const copy: Effect = (x, s, answer) => {
  const memo = s.memo!;
  const timing = memo[0];
  // The copied rank is one of the copier's ship characters offered for having the copied
  // ability: every rank has a card, and this one the ability.
  const fx = x.ed.cards[Number(memo[1])]![timing as 'day' | 'night']!;
  // A night copy waiting for the end of the night (the Witch's Freed Prisoner) resolves only if
  // the Witch is still in the ship then, as the Freed Prisoner itself does (ruling 7).
  if (timing === 'night' && indexIn(x.g.seats[s.seat].den, s.rank) < 0) return;
  fx(x, s, answer);
};

function copier(timing: 'day' | 'night', what: string): Effect {
  const text = said(`copy the ${what} ability of a character in your ship`);
  return (x, s, answer) => {
    if (answer === undefined) {
      // The ship's characters with an ability of that timing, the copier itself left out.
      ask(x, s, s.seat, 'character', text(x, s), denOptionsWith(x, s.seat, x.fx[timing], s.rank));
      return;
    }
    const r = idRank(answer);
    x.log.copied(s.seat, s.rank, r);
    const copied = step('copy', s.seat, s.rank, undefined, [timing, String(r)]);
    // The Freed Prisoner's ability says "At the end of the night": so does its copy (ruling 7).
    if (timing === 'night' && r === FREED_PRISONER) atNightEnd(x, copied);
    else push(x, copied);
  };
}

/** Beggar: the owner of the rightmost character gives you 2 (what they have) and gains 1 reputation. */
const beggar: Effect = (x, s) => {
  const top = rightmost(x.g);
  if (!top || top.seat < 0 || top.seat === s.seat) return;
  transfer(x, top.seat, s.seat, 2, name(x, s));
  changeReputation(x, top.seat, 1, name(x, s));
};

const innkeeper = pickFromShips(
  'return a character from your ship to your hand',
  (x, s) => ownDenOptions(x, s.seat),
  (x, s, seat, rank) => void moveCharacter(x, seat, rank, 'den', 'hand', name(x, s)),
);

const cabinBoy: Effect = (x, s) => {
  const first = x.g.island[0];
  // A seat has one character on the island: if the leftmost is this seat's, it is this one.
  if (first && first.seat === s.seat) gain(x, s.seat, 3, name(x, s));
};

const bandit: Effect = (x, s) => gain(x, s.seat, moveReputationTo(x, s.seat, 0, name(x, s)), name(x, s));

/** Preacher: keep one token of your choice, discard the rest, +1 reputation per token discarded. */
const preacherText = said('choose the one loot token you keep');
const preacher: Effect = (x, s, answer) => {
  if (answer === undefined) {
    // No token: ask() asks nothing. One: ask() answers it itself, and keeping it discards nothing.
    ask(x, s, s.seat, 'loot', preacherText(x, s), lootOptions(ownedKinds(x, s.seat)));
    return;
  }
  let n = 0;
  for (const k of ownedKinds(x, s.seat))
    n += returnLoot(x, s.seat, k, loot(x, s.seat)[k] - (k === answer ? 1 : 0), name(x, s));
  changeReputation(x, s.seat, n, name(x, s));
};

/** Stowaway: a random token from the bag with its dusk effects, then the Stowaway is discarded. */
const stowaway: Effect = (x, s) => {
  push(x, step('discardFromIsland', s.seat, s.rank));
  const k = drawRandom(x.g, x.g.bag);
  if (k === undefined) return;
  gainLoot(x, s.seat, k, 'bag');
  pushLootDusk(x, s.seat, s.rank, k);
};

/** Officer: 12 or more doubloons: +2 reputation; otherwise gain up to 12. */
const officer: Effect = (x, s) => {
  if (coins(x, s) >= 12) changeReputation(x, s.seat, 2, name(x, s));
  else gain(x, s.seat, 12 - coins(x, s), name(x, s));
};

/** Smuggler: takes one of today's tokens now (dusk effects included) and goes into the ship. */
const smugglerText = said('take a loot token now');
const smuggler: Effect = (x, s, answer) => {
  const today = x.g.days[x.g.day - 1];
  if (answer === undefined && today.length > 0) {
    ask(x, s, s.seat, 'loot', smugglerText(x, s), lootOptions(today));
    return;
  }
  push(x, step('enterDen', s.seat, s.rank));
  if (answer !== undefined) takeToday(x, s.seat, s.rank, answer);
};

/** Bodyguard: every saber and hook of today's loot goes back to the bag, +2 each. */
const bodyguard: Effect = (x, s) => {
  const today = x.g.days[x.g.day - 1];
  let n = 0;
  // Stryker disable next-line ArithmeticOperator: starting past the end only reads empty slots, which are no saber or hook
  for (let i = today.length - 1; i >= 0; i--) {
    const k = today[i];
    if (k !== 'saber' && k !== 'hook') continue;
    removeAt(today, i);
    x.g.bag.push(k);
    x.log.lootRemoved(s.seat, k, name(x, s));
    n++;
  }
  gain(x, s.seat, 2 * n, name(x, s));
};

/** Brute: the rightmost character is discarded, its owner gains 1 reputation. */
const brute: Effect = (x, s) => {
  const top = rightmost(x.g);
  if (!top || top.seat < 0) return;
  discard(x, top.seat, top.rank, 'island', name(x, s));
  changeReputation(x, top.seat, 1, name(x, s));
};

/** Gunner: discard a character of any ship; +1 reputation if it was yours, -1 if not. */
const gunner = pickFromShips('discard a character from any ship', allDenOptions, (x, s, seat, rank) => {
  discard(x, seat, rank, 'den', name(x, s));
  changeReputation(x, s.seat, seat === s.seat ? 1 : -1, name(x, s));
});

/** Necromancer: discard a relic to bring a character of your graveyard into your ship. */
const necromancerText = said('discard a relic to bring back a character into your ship');
const necromancer: Effect = (x, s, answer) => {
  const grave = x.g.seats[s.seat].graveyard;
  if (answer === undefined) {
    if (loot(x, s.seat).relic === 0) return;
    ask(x, s, s.seat, 'graveyard', necromancerText(x, s), rankOptions(x, grave));
    return;
  }
  returnLoot(x, s.seat, 'relic', 1, name(x, s));
  moveCharacter(x, s.seat, Number(answer), 'graveyard', 'den', name(x, s));
};

/** Brawler: discard an opponent's Brawler from their ship, then +2 reputation. */
const brawlerText = said("discard an opponent's Brawler");
const brawler: Effect = (x, s, answer) => {
  if (answer === undefined) {
    const options: Option[] = [];
    for (let o = 0; o < x.g.players; o++) {
      if (o !== s.seat && x.g.seats[o].den.includes(BRAWLER))
        options.push({ id: charId(o, BRAWLER), label: `Brawler of seat ${o}` });
    }
    ask(x, s, s.seat, 'character', brawlerText(x, s), options);
    return;
  }
  discard(x, idSeat(answer), idRank(answer), 'den', name(x, s));
  changeReputation(x, s.seat, 2, name(x, s));
};
const BRAWLER = 22;

/** Thief: one token of a neighbour (`<seat>:<kind>`), then -2 reputation. */
const thiefText = said('take a loot token from a neighbour');
/** The Thief's options, one shared frozen object per seat and kind (index in LOOT_KINDS). */
const THIEF_OPTIONS: readonly (readonly Option[])[] = Array.from({ length: 6 }, (_, n) =>
  LOOT_KINDS.map((k) => Object.freeze({ id: `${n}:${k}`, label: `${k} of seat ${n}` })),
);
/** Pushes a neighbour's tokens as Thief options, one per kind held, in LOOT_KINDS order. */
function pushThiefOptions(x: Ctx, out: Option[], n: number): void {
  const held = loot(x, n);
  for (let i = 0; i < LOOT_KINDS.length; i++) if (held[LOOT_KINDS[i]] > 0) out.push(THIEF_OPTIONS[n][i]);
}
const thief: Effect = (x, s, answer) => {
  if (answer === undefined) {
    const options: Option[] = [];
    // The left neighbour, then the right one if it is another seat (neighbours(), without its list).
    const left = leftOf(x.g, s.seat);
    const right = rightOf(x.g, s.seat);
    pushThiefOptions(x, options, left);
    if (right !== left) pushThiefOptions(x, options, right);
    ask(x, s, s.seat, 'loot', thiefText(x, s), options);
    return;
  }
  // `<seat>:<kind>`: the seat read digit by digit, the kind as LOOT_KINDS holds it (kindIn).
  passLoot(x, idSeat(answer), s.seat, kindIn(answer, answer.indexOf(':') + 1, answer.length), 1, name(x, s));
  changeReputation(x, s.seat, -2, name(x, s));
};

const recruiterText = said('play a character from your hand into your ship');
const recruiter: Effect = (x, s, answer) => {
  const hand = x.g.seats[s.seat].hand;
  if (answer === undefined) {
    ask(x, s, s.seat, 'hand', recruiterText(x, s), rankOptions(x, hand));
    return;
  }
  moveCharacter(x, s.seat, Number(answer), 'hand', 'den', name(x, s));
};

/** Watchman: swap one of today's tokens with one of tomorrow's (step.n: 1 + today's kind index). */
const watchmanToday = said("choose today's token to swap");
const watchmanTomorrow = said("choose tomorrow's token to swap with");
const watchman: Effect = (x, s, answer) => {
  const g = x.g;
  const today = g.days[g.day - 1];
  const tomorrow = g.days[g.day];
  // With today's display empty, ask() has no option to ask about and nothing is swapped.
  if (!tomorrow || tomorrow.length === 0) return;
  if (s.n === undefined) {
    if (answer === undefined) {
      ask(x, s, s.seat, 'loot', watchmanToday(x, s), lootOptions(today));
      return;
    }
    const next: Step = step(s.t, s.seat, s.rank, LOOT_KINDS.indexOf(answer as (typeof LOOT_KINDS)[number]) + 1, s.memo);
    ask(x, next, s.seat, 'loot', watchmanTomorrow(x, s), lootOptions(tomorrow));
    return;
  }
  const a = LOOT_KINDS[s.n - 1];
  today[today.indexOf(a)] = answer!;
  tomorrow[tomorrow.indexOf(answer!)] = a;
  x.log.lootSwapped(s.seat, a, answer!, name(x, s));
};

const infantry: Effect = (x, s) => {
  const top = rightmost(x.g);
  // A seat has one character on the island: if the rightmost is this seat's, it is this one.
  if (top && top.seat === s.seat) gain(x, s.seat, 5, name(x, s));
};

/** Merchant: discard 1, 2 or 3 identical tokens (`<kind>:<count>`) for 1, 4 or 9. */
const MERCHANT: readonly number[] = [0, 1, 4, 9];
const merchantText = said('trade identical loot tokens');
/** The Merchant's options, one shared frozen object per kind (index in LOOT_KINDS) and count 1-3. */
const MERCHANT_OPTIONS: readonly (readonly Option[])[] = LOOT_KINDS.map((k) =>
  [0, 1, 2, 3].map((n) => Object.freeze({ id: `${k}:${n}`, label: `${n} ${k} for ${MERCHANT[n]}` })),
);
const merchant: Effect = (x, s, answer) => {
  if (answer === undefined) {
    const options: Option[] = [];
    const held = loot(x, s.seat);
    for (let i = 0; i < LOOT_KINDS.length; i++) {
      const has = held[LOOT_KINDS[i]];
      for (let n = 1; n <= 3 && n <= has; n++) options.push(MERCHANT_OPTIONS[i][n]);
    }
    ask(x, s, s.seat, 'trade', merchantText(x, s), options);
    return;
  }
  // `<kind>:<count>`: the kind as LOOT_KINDS holds it (kindIn: the tokens go back to the bag), the count one digit.
  const i = answer.indexOf(':');
  const n = answer.charCodeAt(i + 1) - 48;
  returnLoot(x, s.seat, kindIn(answer, 0, i), n, name(x, s));
  gain(x, s.seat, MERCHANT[n], name(x, s));
};

/** Surgeon: a character of your graveyard back to hand, unseen by the others. */
const surgeonText = said('take a character of your graveyard back into your hand');
const surgeon: Effect = (x, s, answer) => {
  if (answer === undefined) {
    ask(x, s, s.seat, 'graveyard', surgeonText(x, s), rankOptions(x, x.g.seats[s.seat].graveyard));
    return;
  }
  moveCharacter(x, s.seat, Number(answer), 'graveyard', 'hand', name(x, s), true);
};

const captain: Effect = (x, s) =>
  void pay(x, s.seat, moveReputationTo(x, s.seat, TRACK_SPACES - 1, name(x, s)), name(x, s));

const governor: Effect = (x, s) => {
  // Each discard takes the first ship character: the same order as a walk of a copy of the ship.
  const den = ship(x, s.seat);
  const n = den.length;
  while (den.length > 0) if (!discard(x, s.seat, den[0], 'den', name(x, s))) break;
  changeReputation(x, s.seat, n, name(x, s));
};

// ---- dusk ----

/** Whether the character resolving its dusk took a token of kind `a` or `b` this dusk. */
const took = (x: Ctx, a: Loot, b: Loot) => {
  const list = ext(x.g).took;
  for (let i = 0; i < list.length; i++) if (list[i] === a || list[i] === b) return true;
  return false;
};
const explorerDusk: Effect = (x, s) => {
  if (took(x, 'map', 'map')) changeReputation(x, s.seat, 2, name(x, s));
};
const armorerDusk: Effect = (x, s) => {
  if (took(x, 'saber', 'hook')) changeReputation(x, s.seat, 2, name(x, s));
};
/** Cook: a second token if still on the island. */
const cookDusk: Effect = (x, s) => {
  // Stryker disable next-line ConditionalExpression: the rule's "if still on the island"; nothing can remove the Cook between its pick and this step (loot tiles discard only other players' characters)
  if (onIsland(x.g, s.seat, s.rank)) push(x, cookPick(s.seat, s.rank));
};
/** The Cook's second pick: shared steps, as step('pick', seat, rank) (steps are never edited). */
const cookPick = stepMaker('pick');

// ---- night ----

/** Mutineer: discard your lowest-ranked ship character (possibly himself), then +2. */
const mutineer: Effect = (x, s) => {
  const mine = ship(x, s.seat);
  // The Mutineer (or the Witch copying it) is in the ship: it is never empty here.
  discard(x, s.seat, lowest(mine), 'den', name(x, s));
  gain(x, s.seat, 2, name(x, s));
};

/** The lowest rank of a non-empty list (Math.min without spreading the list into arguments). */
function lowest(ranks: readonly number[]): number {
  let m = ranks[0];
  for (let i = 1; i < ranks.length; i++) if (ranks[i] < m) m = ranks[i];
  return m;
}

/** Freed Prisoner: +1 per ship character above 20; discarded if that made 3 or more. */
const freedPrisoner: Effect = (x, s) => {
  const n = countAbove(x, s.seat, 20);
  gain(x, s.seat, n, name(x, s));
  if (n >= 3) discard(x, s.seat, s.rank, 'den', name(x, s));
};

const topman: Effect = (x, s) => {
  gain(x, s.seat, 4, name(x, s));
  pay(x, s.seat, ship(x, s.seat).length, name(x, s));
};

/** Wind Nymph: +2 if yours is the only one in the ships; otherwise every Wind Nymph is discarded. */
const WIND_NYMPH = 37;
const windNymph: Effect = (x, s) => {
  const g = x.g;
  // The seats with a Wind Nymph in their ship counted, and the first of them, without a list.
  let holders = 0;
  let first = -1;
  for (let o = 0; o < g.players; o++) {
    if (indexIn(g.seats[o].den, WIND_NYMPH) < 0) continue;
    if (holders++ === 0) first = o;
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the clash is settled as night falls (night.ts), so a Nymph that acts is the only one
  if (holders === 1 && first === s.seat) {
    gain(x, s.seat, 2, name(x, s));
    return;
  }
  for (let o = 0; o < g.players; o++) {
    // Stryker disable next-line StringLiteral: unreachable since the clash is settled as night falls (night.ts)
    if (indexIn(g.seats[o].den, WIND_NYMPH) >= 0) discard(x, o, WIND_NYMPH, 'den', name(x, s));
  }
};

// ---- anchor ----

const ARISTOCRAT = 34;
const WITCH = 15;
const COLLECTOR: readonly number[] = [0, 0, 1, 3, 5, 10, 10, 10];

const card = (
  rank: number,
  cardName: string,
  text: string,
  fx: Omit<GalecrestCard, 'rank' | 'name' | 'text'> = {},
): GalecrestCard => ({
  rank,
  name: cardName,
  text,
  ...fx,
});

export const GALECREST_CARDS: GalecrestCard[] = [
  card(
    1,
    'Scout',
    'Day: discard the Scout and put another character from your hand on the island in its place in the order.',
    { day: scout },
  ),
  card(2, 'Apprentice', 'Day: use the daytime ability of a character in your ship.', { day: copier('day', 'daytime') }),
  card(3, 'Beggar', 'Day: the owner of the rightmost character gives you 2 doubloons and gains 1 reputation.', {
    day: beggar,
  }),
  card(4, 'Innkeeper', 'Day: return a character from your ship to your hand.', { day: innkeeper }),
  card(5, 'Cabin Boy', 'Day: +3 if the Cabin Boy is the leftmost character. Dusk: takes no loot.', {
    day: cabinBoy,
    loot: 0,
  }),
  card(6, 'Bandit', 'Day: move to the lowest reputation space; +1 per space moved.', { day: bandit }),
  card(7, 'Preacher', 'Day: keep one loot token, discard the rest, +1 reputation per token discarded. Anchor: +6.', {
    day: preacher,
    anchor: () => 6,
  }),
  card(8, 'Barkeep', 'Night: +1. Anchor: +1 per barrel.', {
    night: plus(() => 1),
    anchor: (x, seat) => loot(x, seat).barrel,
  }),
  card(9, 'Stowaway', 'Day: draw a loot token from the bag and resolve its dusk effect, then discard the Stowaway.', {
    day: stowaway,
  }),
  card(10, 'Explorer', 'Dusk: +2 reputation if you took a map. Anchor: one of your maps counts double.', {
    dusk: explorerDusk,
    countsDouble: 'map',
  }),
  card(11, 'Carpenter', 'Day: lose half your doubloons (rounded down). Anchor: +10.', {
    day: minus((x, s) => Math.floor(coins(x, s) / 2)),
    anchor: () => 10,
  }),
  card(12, 'Officer', 'Day: with 12 or more doubloons, +2 reputation; otherwise gain up to 12 doubloons.', {
    day: officer,
  }),
  card(13, 'Smuggler', 'Day: take one of today’s loot tokens now; the Smuggler goes straight into your ship.', {
    day: smuggler,
  }),
  card(14, 'Bodyguard', 'Day: every saber and hook of today’s loot goes back to the bag; +2 per token.', {
    day: bodyguard,
  }),
  card(
    15,
    'Witch',
    'Night: use the night ability of another character in your ship. Anchor: back to your hand if she is your only night character.',
    {
      night: copier('night', 'night'),
      backToHand: (g, seat) => g.seats[seat].den.every((r) => r === WITCH || !GALECREST_CARDS[r - 1].night),
    },
  ),
  card(16, 'Mutineer', 'Night: discard your lowest-ranked ship character, then +2.', { night: mutineer }),
  card(17, 'Brute', 'Day: discard the rightmost character; its owner gains 1 reputation.', { day: brute }),
  card(18, 'Gunner', 'Day: discard a character from any ship; +1 reputation if it was yours, -1 otherwise.', {
    day: gunner,
  }),
  card(19, 'Necromancer', 'Day: discard a relic to move a character from your graveyard into your ship.', {
    day: necromancer,
  }),
  card(20, 'Freed Prisoner', 'Night (last): +1 per ship character above 20; discarded if that made 3 or more.', {
    night: freedPrisoner,
  }),
  card(21, 'Bosun', 'Day: +2 per ship character below 21.', {
    day: plus((x, s) => 2 * countBelow(x, s.seat, 21)),
  }),
  card(22, 'Brawler', 'Day: discard an opponent’s Brawler from their ship and gain 2 reputation. Night: +1.', {
    day: brawler,
    night: plus(() => 1),
  }),
  card(23, 'Thief', 'Day: take a loot token from a neighbour, then lose 2 reputation.', { day: thief }),
  card(24, 'Topman', 'Night: +4, then -1 per character in your ship.', { night: topman }),
  card(25, 'Recruiter', 'Day: play a character from your hand straight into your ship.', { day: recruiter }),
  card(26, 'Cook', 'Dusk: if still on the island, take a second loot token.', { dusk: cookDusk }),
  card(27, 'Watchman', 'Day: swap one of today’s loot tokens with one of tomorrow’s.', { day: watchman }),
  card(28, 'Armorer', 'Dusk: +2 reputation if you took a saber or hook. Night: +1 per saber and hook you own.', {
    dusk: armorerDusk,
    night: plus((x, s) => loot(x, s.seat).saber + loot(x, s.seat).hook),
  }),
  card(29, 'Infantry', 'Day: +5 if the Infantry is the rightmost character.', { day: infantry }),
  card(30, 'Merchant', 'Day: discard 1, 2 or 3 identical loot tokens for 1, 4 or 9 doubloons.', { day: merchant }),
  card(31, 'Surgeon', 'Day: secretly take a character of your graveyard back into your hand.', { day: surgeon }),
  card(32, 'Treasurer', 'Anchor: +1 per barrel, amulet and chest.', {
    anchor: (x, seat) => loot(x, seat).barrel + loot(x, seat).amulet + loot(x, seat).chest,
  }),
  card(33, 'Gambler', 'Day: -1 per loot token you own. Anchor: +6.', {
    day: minus((x, s) => lootCount(x.g, s.seat)),
    anchor: () => 6,
  }),
  card(
    34,
    'Aristocrat',
    'Day: +2 reputation. Anchor: +5 if no one else has an Aristocrat in their ship, otherwise -3.',
    {
      day: reputation(2),
      anchor: (x, seat) => (x.g.seats.some((o, i) => i !== seat && o.den.includes(ARISTOCRAT)) ? -3 : 5),
    },
  ),
  card(35, 'Collector', 'Anchor: 2/3/4/5+ different loot kinds: +1/+3/+5/+10.', {
    anchor: (x, seat) => COLLECTOR[ownedKinds(x, seat).length],
  }),
  card(36, 'Quartermaster', 'Day: +1 per loot token you own. Anchor: -6.', {
    day: plus((x, s) => lootCount(x.g, s.seat)),
    anchor: () => -6,
  }),
  card(
    37,
    'Wind Nymph',
    'Night: +2 if yours is the only Wind Nymph in the ships; otherwise every Wind Nymph is discarded.',
    { night: windNymph },
  ),
  card(38, 'First Mate', 'Day: -1 per character in your ship. Anchor: +1 per character in your ship.', {
    day: minus((x, s) => ship(x, s.seat).length),
    anchor: (x, seat) => ship(x, seat).length,
  }),
  card(39, 'Captain', 'Day: move to the highest reputation space; -1 per space moved.', { day: captain }),
  card(40, 'Governor', 'Day: discard your whole ship; +1 reputation per character discarded.', { day: governor }),
];

/** Card names by rank (0 and ranks without a card as `cardName` writes them), for `name`. */
const NAMES: readonly string[] = Array.from(
  { length: GALECREST_CARDS.length + 1 },
  (_, r) => GALECREST_CARDS.find((c) => c.rank === r)?.name ?? `#${r}`,
);

/** Day ability step helper for the Stowaway (and a copy of it). */
export const discardFromIsland: Effect = (x, s) => {
  // Discards it if still on the island (nothing removes the Stowaway or its copier before this step).
  discard(x, s.seat, s.rank, 'island', name(x, s));
};
