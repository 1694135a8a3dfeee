// A stormy-like tile table for tests: the printed stormy values are not in our rules data,
// so tests (and the property tests' stormy and uncharted configurations) inject this one
// through the custom-board format (`{ side, stormy }`).
export const STORMY_TEST = {
  map: { anchor: [{ doubloons: 3 }] },
  barrel: { dusk: [{ reputation: -1 }], anchor: [{ doubloons: 2 }] },
  relic: { night: [{ doubloons: 1 }], anchor: [{ doubloons: -4 }] },
  saber: { dusk: [{ discard: 'ship' }] },
  amulet: { anchor: [{ doubloons: 4 }] },
  hook: { dusk: [{ doubloons: 2 }] },
  chest: { anchor: [{ doubloons: 6 }, { reputation: 1 }] },
};
