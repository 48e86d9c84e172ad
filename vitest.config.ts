// vitest: unit tests (pure core, store, renderer logic), integration tests over real HTTP, and
// the provider conformance suite (test/conformance: real error shapes through the real SDKs).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
