import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One dynalite server for the store, API and end-to-end tests (each file makes its own table).
    globalSetup: ['test/setup/dynalite.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
