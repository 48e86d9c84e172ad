// vitest for `npm run mutate` (scripts/mutate.js, StrykerJS): the everyday config with the test
// files limited to those that cover the file being mutated (RESOLUTE_MUTATE_TESTS, comma
// separated). Limiting them here rather than with Stryker's --testFiles keeps Stryker from filtering
// tests itself, which would activate mutants of module-level constants too late (see the script).
import { defineConfig } from 'vitest/config';
import base from './vitest.config';

const tests = (process.env.RESOLUTE_MUTATE_TESTS ?? '').split(',').filter(Boolean);

export default defineConfig({
  ...base,
  test: { ...base.test, include: tests.length > 0 ? tests : base.test?.include },
});
