// The measuring loop of `npm run bench:ab` (scripts/bench-ab.ts), bundled with both engines.
type Engine = typeof import('../functions/engine/index.js');

/** The batch pairs are cut into this many repetitions (consecutive pairs) for the spread. */
const REPETITIONS = 5;

/**
 * Runs in the bundle: alternating batches of `per` games, A's and B's CPU seconds summed.
 * `mixed`: both engines first play games of every edition and player count, as in
 * `npm run bench:engine` (code that has seen every edition's objects runs slower than code
 * that has seen one: this measures the engine as a process serving both editions runs it).
 */
export function alternate(
  A: Engine,
  B: Engine,
  edition: 'classic' | 'galecrest',
  players: number,
  batches: number,
  pure: boolean,
  mixed = false,
  perBatch = 0,
) {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const board = edition === 'galecrest' ? 'calm' : undefined;
  // `perBatch` (--per): smaller batches give more pairs, each closer in time (a loaded machine).
  const per = perBatch > 0 ? perBatch : pure ? 50 : 500;
  const batch = (E: Engine, first: number): number => {
    const t0 = cpu();
    for (let i = first; i < first + per; i++) {
      if (!pure) {
        E.playBotGame({ edition, players, seed: `ab${i}`, board }, ['random'], i + 1);
        continue;
      }
      const rnd = E.botRandom(i + 1);
      let g = E.createGame({ edition, players, seed: `ab${i}`, board });
      while (!g.finished) g = E.apply(g, E.botCommand(g, E.awaitedSeats(g)[0], 'random', rnd)).state;
    }
    return cpu() - t0;
  };
  if (mixed) {
    for (let i = 0; i < 1500; i++) {
      const e = i % 2 ? 'galecrest' : 'classic';
      for (const E of [A, B])
        E.playBotGame(
          { edition: e, players: 2 + (i % 5), seed: `mix${i}`, board: e === 'galecrest' ? 'calm' : undefined },
          ['random'],
          i + 1,
        );
    }
  }
  // Warm both (JIT and a grown young heap) on games that are not counted.
  for (let w = 0; w < 4; w++) {
    batch(A, 1e6 + w * per);
    batch(B, 1e6 + w * per);
  }
  let a = 0;
  let b = 0;
  // One ratio per pair of batches (A B or B A, back to back): the spread of these shows how far
  // the load moved the figure; the headline ratio is over the sums.
  const pairs: number[] = [];
  // Each pair's two times, to cut the run into repetitions afterwards.
  const times: [number, number][] = [];
  // The fastest batch of each side (every batch plays other games, but 500 of them: their
  // costs agree closely): other processes only add time, so these move least with the load.
  let bestA = Infinity;
  let bestB = Infinity;
  for (let k = 0; k < batches; k++) {
    let ta: number;
    let tb: number;
    if (k % 2) {
      tb = batch(B, k * per);
      ta = batch(A, k * per);
    } else {
      ta = batch(A, k * per);
      tb = batch(B, k * per);
    }
    a += ta;
    b += tb;
    bestA = Math.min(bestA, ta);
    bestB = Math.min(bestB, tb);
    pairs.push(ta / tb);
    times.push([ta, tb]);
  }
  // REPETITIONS runs of consecutive pairs, each a ratio of its summed times: the spread the
  // headline ratio (over all the sums) should be read with.
  const pairsEach = Math.max(1, Math.floor(times.length / REPETITIONS));
  const reps: number[] = [];
  for (let r = 0; r + pairsEach <= times.length && reps.length < REPETITIONS; r += pairsEach) {
    let sa = 0;
    let sb = 0;
    for (const [x, y] of times.slice(r, r + pairsEach)) {
      sa += x;
      sb += y;
    }
    reps.push(sa / sb);
  }
  reps.sort((x, y) => x - y);
  pairs.sort((x, y) => x - y);
  const median =
    pairs.length % 2 ? pairs[(pairs.length - 1) / 2] : (pairs[pairs.length / 2 - 1] + pairs[pairs.length / 2]) / 2;
  const games = batches * per;
  return {
    edition,
    players,
    mode: pure ? 'apply()' : 'games',
    games,
    refGamesPerSecond: games / a,
    treeGamesPerSecond: games / b,
    ratio: a / b,
    fastestRatio: bestA / bestB,
    pairs: {
      n: pairs.length,
      min: pairs[0],
      q1: pairs[Math.floor((pairs.length - 1) / 4)],
      median,
      q3: pairs[Math.ceil((3 * (pairs.length - 1)) / 4)],
      max: pairs[pairs.length - 1],
    },
    repetitions: {
      n: reps.length,
      pairsEach,
      min: reps[0],
      median: reps[reps.length >> 1],
      max: reps[reps.length - 1],
    },
  };
}
