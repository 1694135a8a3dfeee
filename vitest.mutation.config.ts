import { defineConfig } from 'vitest/config';

// The test set `npm run mutation` (StrykerJS) runs against each mutant of the engine: the
// rule examples and engine tests, which need no database. The property tests are left out
// (each of their ~1,000-game runs would run again for every mutant they cover; they kill
// almost nothing the examples do not) and so are the golden games (test/golden), so that the
// scores say how well the rule examples pin the rules.
export default defineConfig({
  test: {
    include: ['test/engine/**/*.test.ts'],
    exclude: ['test/engine/properties.test.ts'],
    testTimeout: 30_000,
  },
});
