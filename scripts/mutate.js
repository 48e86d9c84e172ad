#!/usr/bin/env node
// `npm run mutate [-- name …]`: mutation testing (StrykerJS, stryker.config.mjs) of the security-
// and correctness-critical files, one file at a time with the unit tests that cover it, then a
// table of scores and every surviving mutant. Not part of `npm test` (minutes of CPU per file).
// Sources are found by name under src/, so a file that moves keeps its entry.
//
// Module-level constants: Stryker activates a mutant either before the modules load ("static") or
// in a test hook ("runtime"); with per-test coverage and Vitest 4.1 it picks runtime for mutants
// in module-level constants (a RegExp table, a limit), after the module has already read them, and
// reports them as survivors the tests would kill. coverageAnalysis "off" (every mutant runs every
// selected test, activated before loading) and ignoreStatic false make those count; the test files
// are chosen through vitest.mutation.config.ts, never Stryker's --testFiles (same late activation).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const REPORT = join(root, 'reports', 'mutation', 'mutation.json');

/** Name → the unit tests that cover it (the integration tests would add minutes for nothing new). */
const TARGETS = {
  'workspace-fs': [
    'test/unit/node/tools/workspace-fs.test.ts',
    'test/unit/node/tools/workspace-prefix.test.ts',
    'test/unit/node/tools/workspace-edges.test.ts',
    'test/unit/node/tools/workspace-links.test.ts',
  ],
  'confined-io': [
    'test/unit/node/tools/confined-io.test.ts',
    'test/unit/node/tools/workspace-links.test.ts',
    'test/unit/node/tools/file-tools-full-disk.test.ts',
  ],
  'path-rules': ['test/unit/node/tools/path-rules.test.ts', 'test/unit/node/tools/workspace-fs.test.ts'],
  'sandbox-plan': ['test/unit/node/tools/sandbox-plan.test.ts'],
  'mcp-launch': ['test/unit/node/mcp/mcp-parts.test.ts'],
  'seccomp-filter': ['test/unit/node/tools/seccomp-filter.test.ts'],
  'git-guard': ['test/unit/node/tools/git-guard.test.ts'],
  'redact-secrets': ['test/unit/core/llm/redact-secrets.test.ts'],
  'classify-error': [
    'test/unit/core/retry/classify-error.test.ts',
    'test/unit/core/retry/classify-provider-shapes.test.ts',
  ],
  'retry-hints': ['test/unit/core/retry/retry-hints.test.ts', 'test/unit/core/retry/classify-error.test.ts'],
  'decide-retry': [
    'test/unit/core/retry/decide-retry.test.ts',
    'test/unit/core/retry/model-fallback.test.ts',
    'test/unit/core/retry/scheduled-retry.test.ts',
  ],
  'model-fallback': ['test/unit/core/retry/model-fallback.test.ts'],
  'data-lock': ['test/unit/node/data-lock.test.ts', 'test/unit/node/data-lock-race.test.ts'],
  'credential-store': ['test/unit/node/credential-store.test.ts', 'test/unit/node/credential-vault-keys.test.ts'],
};

function sourceOf(name) {
  const listed = spawnSync('git', ['ls-files', 'src'], { cwd: root, encoding: 'utf8' }).stdout.split('\n');
  const found = listed.filter((path) => path.endsWith(`/${name}.ts`));
  if (found.length !== 1) throw new Error(`${name}: expected one src/**/${name}.ts, found ${found.length}`);
  return found[0];
}

/** Stryker's own score: detected (killed, timed out) over valid mutants (not ignored, not errors). */
function summarise(name, file) {
  const report = JSON.parse(readFileSync(REPORT, 'utf8'));
  const mutants = Object.values(report.files).flatMap((entry) => entry.mutants);
  const count = (...statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
  const detected = count('Killed', 'Timeout');
  const valid = detected + count('Survived', 'NoCoverage');
  const survivors = mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .map((m) => `  ${file}:${m.location.start.line} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? '')}`);
  return { name, detected, valid, score: valid === 0 ? 100 : (100 * detected) / valid, survivors };
}

const wanted = process.argv.slice(2);
for (const name of wanted)
  if (!(name in TARGETS)) {
    process.stderr.write(`mutate: unknown file "${name}"; one of: ${Object.keys(TARGETS).join(', ')}\n`);
    process.exit(2);
  }
const results = [];
for (const name of wanted.length > 0 ? wanted : Object.keys(TARGETS)) {
  const file = sourceOf(name);
  process.stdout.write(`\n== ${name} (${file})\n`);
  rmSync(REPORT, { force: true });
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    [join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', '--mutate', file],
    { cwd: root, stdio: 'inherit', env: { ...process.env, RESOLUTE_MUTATE_TESTS: TARGETS[name].join(',') } },
  );
  if (run.status !== 0 || !existsSync(REPORT)) {
    process.stderr.write(`mutate: Stryker failed on ${name} (exit ${run.status})\n`);
    process.exit(1);
  }
  mkdirSync(join(root, 'reports', 'mutation'), { recursive: true });
  copyFileSync(REPORT, join(root, 'reports', 'mutation', `${name}.json`));
  results.push({ ...summarise(name, file), seconds: Math.round((Date.now() - started) / 1000) });
}
process.stdout.write('\nfile              score   killed/valid   time\n');
for (const r of results)
  process.stdout.write(
    `${r.name.padEnd(17)} ${r.score.toFixed(1).padStart(5)} %   ${`${r.detected}/${r.valid}`.padEnd(13)}  ${r.seconds} s\n`,
  );
for (const r of results.filter((result) => result.survivors.length > 0))
  process.stdout.write(`\nsurvivors in ${r.name}:\n${r.survivors.join('\n')}\n`);
