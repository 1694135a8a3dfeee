// The 30 classic characters: a typed table of small effects, timing by field.
// Rules text and rulings: ../../../../docs/rules-classic.md (and docs/rules/reference/classic-characters.md).
import {
  allSeats,
  cardName,
  denOptions,
  discard,
  gain,
  gainLoot,
  leftOf,
  lootCount,
  moveCharacter,
  ownedKinds,
  passLoot,
  pay,
  placeOnIsland,
  returnLoot,
  transfer,
  parseCharId,
  rankOptions,
  removeAt,
} from '../../actions.js';
import { ask } from '../../kernel.js';
import type { CardDef, Ctx, Effect } from '../../edition.js';
import { drawRandom } from '../../rng.js';
import type { Option, Step } from '../../types.js';

const den = (x: Ctx, s: Step) => x.g.seats[s.seat].den;
const coins = (x: Ctx, s: Step) => x.g.seats[s.seat].doubloons;
const loot = (x: Ctx, s: Step) => x.g.seats[s.seat].loot;
const plus =
  (n: (x: Ctx, s: Step) => number): Effect =>
  (x, s) =>
    gain(x, s.seat, n(x, s), cardName(x, s.rank));
const minus =
  (n: (x: Ctx, s: Step) => number): Effect =>
  (x, s) =>
    void pay(x, s.seat, n(x, s), cardName(x, s.rank));
const countDen = (x: Ctx, s: Step, test: (rank: number) => boolean) => den(x, s).filter(test).length;

function handOptions(x: Ctx, seat: number): Option[] {
  return rankOptions(x, x.g.seats[seat].hand);
}

/** Parrot: discarded; its owner puts another character from hand on the ship instead. */
const parrot: Effect = (x, s, answer) => {
  const hand = x.g.seats[s.seat].hand;
  if (answer === undefined && hand.length > 0) {
    ask(x, s, s.seat, 'hand', 'Parrot: choose the character that takes its place', handOptions(x, s.seat));
    return;
  }
  discard(x, s.seat, s.rank, 'island', 'Parrot');
  if (answer === undefined) return;
  const rank = Number(answer);
  removeAt(hand, hand.indexOf(rank));
  placeOnIsland(x, s.seat, rank);
  x.log.character(s.seat, rank, 'hand', 'island', 'Parrot');
};

/** Beggar: the owner of the highest character on the ship pays 3 (unless it is yours). */
const beggar: Effect = (x, s) => {
  const top = x.g.island[x.g.island.length - 1];
  if (top && top.seat !== s.seat) transfer(x, top.seat, s.seat, 3, 'Beggar');
};

/** Asks for a character of the given seats' dens, then applies `then`. */
function pickFromDens(
  text: string,
  seats: (x: Ctx, s: Step) => number[],
  then: (x: Ctx, s: Step, seat: number, rank: number) => void,
): Effect {
  return (x, s, answer) => {
    if (answer === undefined) {
      ask(x, s, s.seat, 'character', text, denOptions(x, seats(x, s)));
      return;
    }
    const { seat, rank } = parseCharId(answer);
    then(x, s, seat, rank);
  };
}

const recruiter = pickFromDens(
  'Recruiter: return a character from your den to your hand',
  (_x, s) => [s.seat],
  (x, s, seat, rank) => void moveCharacter(x, seat, rank, 'den', 'hand', 'Recruiter'),
);

/** Preacher: keep one booty token of your choice, discard the rest. */
const preacher: Effect = (x, s, answer) => {
  if (answer === undefined) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut (kept for speed: without it, bench:ab 0.98 for classic games); with 0 or 1 token the prompt below has 0 or 1 option and keeps everything anyway
    if (lootCount(x.g, s.seat) <= 1) return;
    const kinds = ownedKinds(x, s.seat);
    ask(
      x,
      s,
      s.seat,
      'loot',
      'Preacher: choose the one booty token you keep',
      kinds.map((k) => ({ id: k, label: k })),
    );
    return;
  }
  for (const k of ownedKinds(x, s.seat))
    returnLoot(x, s.seat, k, loot(x, s)[k] - (k === answer ? 1 : 0), 'Preacher', false);
};

/** Waitress: may discard a treasure map for 3 doubloons. */
const waitress: Effect = (x, s, answer) => {
  if (loot(x, s).map === 0) return;
  if (answer === undefined) {
    ask(x, s, s.seat, 'may', 'Waitress: discard a treasure map for 3 doubloons?', [
      { id: 'yes', label: 'Yes, discard a map for 3' },
      { id: 'no', label: 'No' },
    ]);
    return;
  }
  if (answer === 'yes' && returnLoot(x, s.seat, 'map', 1, 'Waitress', true)) gain(x, s.seat, 3, 'Waitress');
};

/** Mutineer: discard the lowest other character of your den, then gain 2. */
const mutineer: Effect = (x, s) => {
  const others = den(x, s).filter((r) => r !== s.rank);
  if (others.length === 0) return;
  discard(x, s.seat, Math.min(...others), 'den', 'Mutineer');
  gain(x, s.seat, 2, 'Mutineer');
};

/** Brute: discard the highest character on the ship, whoever owns it (himself included). */
const brute: Effect = (x) => {
  // The Brute stands on the ship while his ability runs: there is always a highest character.
  const top = x.g.island[x.g.island.length - 1];
  discard(x, top.seat, top.rank, 'island', 'Brute');
};

/** Gunner: pay 3 (what you can), then discard any character from any den, yours included. */
const gunner: Effect = (x, s, answer) => {
  if (answer === undefined) {
    pay(x, s.seat, 3, 'Gunner');
    ask(x, s, s.seat, 'character', 'Gunner: discard a character from any den', denOptions(x, allSeats(x.g)));
    return;
  }
  const { seat, rank } = parseCharId(answer);
  discard(x, seat, rank, 'den', 'Gunner');
};

/** Spanish Spy: discard your officers; draw as many tokens blind from the bag (no effects). */
const spy: Effect = (x, s) => {
  const n = returnLoot(x, s.seat, 'officer', loot(x, s).officer, 'Spanish Spy', true);
  for (let i = 0; i < n; i++) {
    const k = drawRandom(x.g, x.g.bag);
    // Stryker disable next-line ConditionalExpression: the officers just returned are in the bag, so a draw never finds it empty
    if (k !== undefined) gainLoot(x, s.seat, k, 'bag', false);
  }
};

/** Merchant: trade 2 identical tokens for 3 doubloons or 3 identical for 5 (mandatory). */
const MERCHANT: Record<number, number> = { 2: 3, 3: 5 };
const merchant: Effect = (x, s, answer) => {
  if (answer === undefined) {
    const options: Option[] = [];
    for (const k of ownedKinds(x, s.seat)) {
      for (const n of [2, 3])
        if (loot(x, s)[k] >= n) options.push({ id: `${k}:${n}`, label: `${n} ${k} for ${MERCHANT[n]}` });
    }
    ask(x, s, s.seat, 'trade', 'Merchant: trade identical booty tokens', options);
    return;
  }
  // `<kind>:<count>`. The kind as the edition holds it, not a substring of the answer: the
  // tokens go back to the bag, where they are drawn and compared for the rest of the game.
  const at = answer.indexOf(':');
  const kind = x.ed.lootKinds.find((k) => k.length === at && answer.startsWith(k))!;
  const n = Number(answer.slice(at + 1));
  returnLoot(x, s.seat, kind, n, 'Merchant', true);
  gain(x, s.seat, MERCHANT[n], 'Merchant');
};

/** Surgeon: take a discarded character of yours back into your hand, without showing it. */
const surgeon: Effect = (x, s, answer) => {
  const grave = x.g.seats[s.seat].graveyard;
  if (answer === undefined) {
    const options = rankOptions(x, grave);
    ask(x, s, s.seat, 'graveyard', 'Surgeon: take a discarded character back into your hand', options);
    return;
  }
  moveCharacter(x, s.seat, Number(answer), 'graveyard', 'hand', 'Surgeon', true);
};

/** Topman: +5 if no player has fewer characters in their den. */
const topman: Effect = (x, s) => {
  const mine = den(x, s).length;
  if (x.g.seats.every((o) => o.den.length >= mine)) gain(x, s.seat, 5, 'Topman');
};

/** Governor's Daughter: +6 if she is the only one in any den, otherwise pay 3. */
const daughter: Effect = (x, s) => {
  const others = x.g.seats.some((o, seat) => seat !== s.seat && o.den.includes(s.rank));
  if (others) pay(x, s.seat, 3, "Governor's Daughter");
  else gain(x, s.seat, 6, "Governor's Daughter");
};

/** Granny Wata: a lone Granny in the dens earns 2; two or more are all discarded. */
const granny: Effect = (x, s) => {
  const holders = allSeats(x.g).filter((seat) => x.g.seats[seat].den.includes(s.rank));
  if (holders.length === 1) {
    gain(x, s.seat, 2, 'Granny Wata');
    return;
  }
  for (const seat of holders) discard(x, seat, s.rank, 'den', 'Granny Wata');
};

/** Spanish Governor: discard every character in your den (he is still on the ship). */
const governor: Effect = (x, s) => {
  for (const r of [...den(x, s)]) discard(x, s.seat, r, 'den', 'Spanish Governor');
};

const card = (rank: number, name: string, text: string, fx: Omit<CardDef, 'rank' | 'name' | 'text'> = {}): CardDef => ({
  rank,
  name,
  text,
  ...fx,
});

export const CLASSIC_CARDS: CardDef[] = [
  card(1, 'Parrot', 'Day: discard the Parrot and put another character from your hand on the ship in its place.', {
    day: parrot,
  }),
  card(2, 'Monkey', 'Day: pass every cursed relic in your den to the player on your left.', {
    day: (x, s) => void passLoot(x, s.seat, leftOf(x.g, s.seat), 'relic', loot(x, s).relic, 'Monkey'),
  }),
  card(3, 'Beggar', 'Day: the owner of the highest character on the ship gives you 3 doubloons.', { day: beggar }),
  card(4, 'Recruiter', 'Day: return a character from your den to your hand.', { day: recruiter }),
  card(5, 'Cabin Boy', 'Dusk: takes no booty.', { loot: 0 }),
  card(6, 'Preacher', 'Day: keep one booty token, discard the rest. End of campaign: +5.', {
    day: preacher,
    end: plus(() => 5),
  }),
  card(7, 'Barkeep', 'Night: +1.', { night: plus(() => 1) }),
  card(8, 'Waitress', 'Night: you may discard a treasure map for 3 doubloons.', { night: waitress }),
  card(9, 'Carpenter', 'Day: lose half your doubloons (rounded down). End of campaign: +10.', {
    day: minus((x, s) => Math.floor(coins(x, s) / 2)),
    end: plus(() => 10),
  }),
  card(10, 'French Officer', 'Day: if you have fewer than 9 doubloons, gain 5.', {
    day: plus((x, s) => (coins(x, s) < 9 ? 5 : 0)),
  }),
  card(11, 'Voodoo Witch', 'Day: +2 for each of your characters discarded this campaign.', {
    day: plus((x, s) => 2 * x.g.seats[s.seat].graveyard.length),
  }),
  card(12, 'Freed Slave', 'Night: +1 for each character in your den ranked above 12.', {
    night: plus((x, s) => countDen(x, s, (r) => r > 12)),
  }),
  card(13, 'Mutineer', 'Night: discard the lowest other character of your den, then gain 2.', { night: mutineer }),
  card(14, 'Brute', 'Day: discard the highest character on the ship.', { day: brute }),
  card(15, 'Gunner', 'Day: pay 3, then discard a character from any den.', { day: gunner }),
  card(16, 'Topman', 'End of campaign: +5 if no player has fewer characters in their den.', { end: topman }),
  card(17, 'Spanish Spy', 'Day: discard your Spanish officers and draw as many booty tokens from the bag.', {
    day: spy,
  }),
  card(18, 'Cook', 'Dusk: takes two booty tokens.', { loot: 2 }),
  card(19, 'Bosun', 'Day: +2 for each character in your den ranked below 19.', {
    // Stryker disable next-line EqualityOperator: the Bosun (19) is on the ship, never in the den, while he counts
    day: plus((x, s) => 2 * countDen(x, s, (r) => r < 19)),
  }),
  card(20, 'Armorer', 'Night: +1 for each saber you own.', { night: plus((x, s) => loot(x, s).saber) }),
  card(21, 'Merchant', 'Day: trade 2 identical booty tokens for 3 doubloons, or 3 for 5.', { day: merchant }),
  card(22, 'Surgeon', 'Day: take one of your discarded characters back into your hand.', { day: surgeon }),
  card(23, 'Treasurer', 'End of campaign: +1 per goods, jewel and chest you own.', {
    end: plus((x, s) => loot(x, s).goods + loot(x, s).jewel + loot(x, s).chest),
  }),
  card(24, 'Gambler', 'Day: pay 1 per booty token you own. End of campaign: +8.', {
    day: minus((x, s) => lootCount(x.g, s.seat)),
    end: plus(() => 8),
  }),
  card(25, "Governor's Daughter", 'End of campaign: +6 if no one else has her in their den, otherwise pay 3.', {
    end: daughter,
  }),
  card(26, 'Quartermaster', 'Day: +1 per booty token you own. End of campaign: pay 8.', {
    day: plus((x, s) => lootCount(x.g, s.seat)),
    end: minus(() => 8),
  }),
  card(27, 'Granny Wata', 'Night: +2 if yours is the only Granny in the dens; otherwise every Granny is discarded.', {
    night: granny,
  }),
  card(28, 'First Mate', 'End of campaign: +1 per character in your den.', { end: plus((x, s) => den(x, s).length) }),
  card(29, 'Captain', 'Day: +3. End of campaign: pay 3 per cursed relic you own.', {
    day: plus(() => 3),
    end: minus((x, s) => 3 * loot(x, s).relic),
  }),
  card(30, 'Spanish Governor', 'Day: discard every character in your den.', { day: governor }),
];
