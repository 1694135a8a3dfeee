import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One dynalite server for the store, API and end-to-end tests (each file makes its own table).
    globalSetup: ['test/setup/dynalite.ts'],
    // The project runs on Node 20 by design (Lambda runs 22); the SDK's once-per-process notice
    // about its future Node 22 requirement would repeat in every test worker.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
