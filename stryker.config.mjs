// StrykerJS for `npm run mutate` (scripts/mutate.js passes the file to mutate and picks its tests
// through vitest.mutation.config.ts). coverageAnalysis "off" and ignoreStatic false: every mutant,
// those in module-level constants included, is activated before the modules load and runs every
// selected test — with Vitest 4.1 per-test coverage would activate those too late and call them
// survivors. One test process at a time: the machine is shared.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: {
    configFile: 'vitest.mutation.config.ts',
    related: false,
  },
  coverageAnalysis: 'off',
  ignoreStatic: false,
  concurrency: 1,
  timeoutMS: 30000,
  checkers: [],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: {
    fileName: 'reports/mutation/mutation.json',
  },
  clearTextReporter: {
    allowColor: false,
    logTests: false,
    reportMutants: true,
    reportScoreTable: true,
  },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: [
    'out',
    'dist',
    'release',
    'reports',
    'test-results',
    'playwright-report',
    'test/e2e',
    'bench',
    '.electron-native',
    '.data',
  ],
  thresholds: {
    high: 90,
    low: 80,
    break: null,
  },
};
