// Rule examples for the Galecrest night in the player's order (docs/rules-galecrest.md,
// ruling 7): "all players activate all night abilities on characters in their ship (in any
// order they choose)". The engine asks (prompt kind `order`, options `<seat>:<rank>`) only
// when the order can change the result, and otherwise resolves highest rank first.
import { describe, expect, it } from 'vitest';
import { coins, day, giveLoot, lastDay, pending, same, seat, setup, toShip } from './helpers.js';

const amulets = [[same('amulet')]];

describe('Night in the player’s order', () => {
  it('Mutineer (16) + Barkeep (8): the player may let the Barkeep earn its +1 before the Mutineer discards it', () => {
    const { g } = setup({ deal: [[16, 8, 32, 35, 4, 22]], loot: amulets });
    toShip(g, 0, [8]);
    day(g, [16, 35, 32], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'order', options: ['0:8', '0:16'] });
    day(g, [], [[0, '0:8']]);
    // 12 + Barkeep 1 + Mutineer 2 (discarding the Barkeep afterwards).
    expect(coins(g)[0]).toBe(15);
    expect(seat(g, 0)).toMatchObject({ den: [16], graveyard: [8] });
  });

  it('Mutineer + Barkeep, Mutineer first: the Barkeep is gone before its +1', () => {
    const { g } = setup({ deal: [[16, 8, 32, 35, 4, 22]], loot: amulets });
    toShip(g, 0, [8]);
    day(g, [16, 35, 32], [[0, '0:16']]);
    expect(coins(g)[0]).toBe(14);
    expect(seat(g, 0)).toMatchObject({ den: [16], graveyard: [8] });
  });

  it('Topman (24) + Mutineer: sending the Mutineer away first makes the Topman count one character less', () => {
    const { g } = setup({ deal: [[16, 24, 32, 35, 4, 22]], loot: amulets });
    toShip(g, 0, [24]);
    day(g, [16, 35, 32], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'order', options: ['0:16', '0:24'] });
    day(g, [], [[0, '0:16']]);
    // Mutineer discards himself (the lowest) +2, then Topman +4 -1.
    expect(coins(g)[0]).toBe(12 + 2 + 3);
    expect(seat(g, 0)).toMatchObject({ den: [24], graveyard: [16] });
  });

  it('Topman + Mutineer, Topman first: +4 -2, then the Mutineer +2', () => {
    const { g } = setup({ deal: [[16, 24, 32, 35, 4, 22]], loot: amulets });
    toShip(g, 0, [24]);
    day(g, [16, 35, 32], [[0, '0:24']]);
    expect(coins(g)[0]).toBe(12 + 2 + 2);
  });

  it('no prompt when the abilities only gain doubloons (Barkeep + Brawler + Armorer)', () => {
    const { g } = setup({ deal: [[8, 22, 28, 35, 4, 32]], loot: amulets });
    toShip(g, 0, [8, 22]);
    giveLoot(g, 0, { saber: 1 });
    day(g, [28, 35, 32]);
    expect(coins(g)[0]).toBe(12 + 1 + 1 + 1);
  });

  it('no prompt when trying every order gives the same result (Mutineer, lowest himself, + Armorer)', () => {
    const { g } = setup({ deal: [[16, 28, 30, 35, 4, 32]], loot: amulets });
    toShip(g, 0, [28, 30]);
    giveLoot(g, 0, { hook: 2 });
    day(g, [16, 35, 32]);
    expect(coins(g)[0]).toBe(12 + 2 + 2);
    expect(seat(g, 0)).toMatchObject({ den: [28, 30], graveyard: [16] });
  });

  it('the Witch’s copy counts as a choice: Witch + Mutineer + Barkeep asks', () => {
    const { g } = setup({ deal: [[15, 16, 8, 35, 4, 32]], loot: amulets });
    toShip(g, 0, [8, 16]);
    day(g, [15, 35, 32], [], true);
    expect(pending(g)).toEqual({ seat: 0, kind: 'order', options: ['0:8', '0:15', '0:16'] });
  });

  it('the Freed Prisoner (20) still resolves at the end of the night, after the order', () => {
    const { g } = setup({ deal: [[20, 16, 8, 21, 22, 35]], loot: amulets });
    toShip(g, 0, [8, 16, 21, 22]);
    day(g, [20, 35, 35], [[0, '0:8']]);
    // Barkeep +1, Brawler +1, Mutineer discards the Barkeep (lowest) +2, then the Freed
    // Prisoner: 21 and 22 are above 20: +2.
    expect(coins(g)[0]).toBe(12 + 1 + 1 + 2 + 2);
    expect(seat(g, 0)).toMatchObject({ den: [16, 20, 21, 22], graveyard: [8] });
  });

  it('two Wind Nymphs are discarded as night falls, before any player’s order', () => {
    const { g } = setup({ deal: [[37, 24, 32, 35, 4, 22]], loot: amulets });
    toShip(g, 1, [37]);
    toShip(g, 0, [24]);
    day(g, [37, 35, 32]);
    // The Nymphs go first, so seat 0's Topman counts one character: +4 -1.
    expect(seat(g, 0)).toMatchObject({ den: [24], graveyard: [37] });
    expect(seat(g, 1)).toMatchObject({ graveyard: [37] });
    expect(coins(g)[0]).toBe(12 + 3);
  });
});

describe('Hook in the last voyage', () => {
  it('offers only the doubloons (keeping is worthless when no voyage follows), taken without asking', () => {
    const { g } = setup({
      deal: [[32, 40, 39, 37, 31, 30]],
      loot: [[same('map'), same('map'), same('map'), same('amulet')]],
    });
    // Set-up shortcut: the last day of the third voyage, with this day's loot.
    lastDay(g); // days 1-3 are over: their loot is back in the bag
    g.round = 3;
    g.days = [[], [], [], [], [], g.days[3]];
    g.day = 6;
    toShip(g, 0, [30]);
    giveLoot(g, 0, { hook: 1 });
    day(g, [32, 40, 40]);
    expect(g.finished).toBe(true);
    // 12 + hook 2 + amulet 3 + Treasurer 1 banked.
    expect(g.seats[0].score).toBe(12 + 2 + 3 + 1);
  });
});

describe('the rules that skip the trial (night.ts orderByRule)', () => {
  it('agree with trying every order wherever they decide, on the ships of random games (any waiting subset)', async () => {
    const { playBotGame } = await import('../../../functions/engine/index.js');
    const { cloneState, playCtx } = await import('../../../functions/engine/core.js');
    const { orderByRule, orderMattersByTrial, FREED_PRISONER, WIND_NYMPH } = await import(
      '../../../functions/engine/editions/galecrest/night.js'
    );
    const { GALECREST_CARDS } = await import('../../../functions/engine/editions/galecrest/cards.js');
    const night = (r: number) => r !== FREED_PRISONER && !!GALECREST_CARDS[r - 1].night;
    let decided = 0;
    let mattered = 0;
    let witch = 0;
    let witchTopman = 0;
    let witchTopmanMattered = 0;
    let mutineerPair = 0;
    let mutineerPairMattered = 0;
    let witchResolved = 0;
    for (let i = 0; i < 150; i++) {
      playBotGame(
        { edition: 'galecrest', players: 2 + (i % 5), seed: `rule${i}`, board: 'calm' },
        ['random'],
        i + 1,
        (g) => {
          // The rule assumes the Wind Nymph clash is settled (at most one Nymph in the ships).
          if (g.seats.filter((s) => s.den.includes(WIND_NYMPH)).length > 1) return;
          for (let s = 0; s < g.players; s++) {
            const all = g.seats[s].den.filter(night).sort((a, b) => b - a);
            // Every subset of 2+ abilities: a night may be asked about after some resolved.
            for (let mask = 0; mask < 1 << all.length; mask++) {
              const ranks = all.filter((_, j) => mask & (1 << j));
              if (ranks.length < 2) continue;
              const rule = orderByRule(g, s, ranks);
              if (rule === undefined) continue;
              decided++;
              if (rule) mattered++;
              if (ranks.includes(15)) witch++;
              if (ranks.includes(15) && ranks.includes(24)) witchTopman++;
              const pair = ranks.includes(16) && (ranks.includes(15) || ranks.includes(24));
              if (pair) mutineerPair++;
              if (pair && rule) mutineerPairMattered++;
              const den = g.seats[s].den;
              const resolved = (r: number) => den.includes(r) && !ranks.includes(r);
              if (ranks.includes(15) && (resolved(16) || resolved(24))) witchResolved++;
              expect(
                rule,
                `seat ${s} ${JSON.stringify(ranks)} ship ${JSON.stringify(g.seats[s].den)} doubloons ${g.seats[s].doubloons}`,
              ).toBe(orderMattersByTrial(playCtx(g, null), s, ranks));
              // A Witch with a Topman: the Topman's payment is capped only when the player
              // holds little, which random games rarely reach; try the same ship poorer too.
              if (!(ranks.includes(15) && ranks.includes(24))) continue;
              for (const d of [0, 1, 2]) {
                const h = cloneState(g);
                h.seats[s].doubloons = d;
                const poorer = orderByRule(h, s, ranks);
                if (poorer) witchTopmanMattered++;
                expect(
                  poorer,
                  `seat ${s} ${JSON.stringify(ranks)} ship ${JSON.stringify(h.seats[s].den)} doubloons ${d}`,
                ).toBe(orderMattersByTrial(playCtx(h, null), s, ranks));
              }
            }
          }
        },
      );
    }
    expect(decided).toBeGreaterThan(1000);
    expect(mattered).toBeGreaterThan(10);
    // The Witch among gainers (witchAmongGainers) is decided too, not only left to the trial.
    expect(witch).toBeGreaterThan(100);
    // So is a Witch with a Topman (witchWithTopman), the trial's most frequent case before.
    expect(witchTopman).toBeGreaterThan(20);
    expect(witchTopmanMattered).toBeGreaterThan(5);
    // And a Mutineer with a Witch or a Topman (shipModel), the trial's last cases.
    expect(mutineerPair).toBeGreaterThan(100);
    expect(mutineerPairMattered).toBeGreaterThan(50);
    expect(mutineerPair - mutineerPairMattered).toBeGreaterThan(5);
    // And a Witch with a resolved Mutineer or Topman she may copy (shipModel), left to the trial before.
    expect(witchResolved).toBeGreaterThan(20);
  });
});
