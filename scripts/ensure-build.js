// Builds the app (electron-vite build → out/) when out/ is missing or older than its sources, so
// whatever runs the built app runs what is in src/: `npm start` and `npm run web` (start.js,
// web.js, bin/resolute.js), and the tests that spawn out/ — the Playwright global setup
// (test/e2e/global-setup.ts) and the RPC-mode integration tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
/** What the build reads besides node_modules: a change to any of them makes out/ stale. */
const SOURCES = ['src', 'electron.vite.config.ts', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Why out/ cannot be used as it is (missing, or older than a source), or null when it is fresh. */
export function staleBuildReason() {
  const marker = join(root, 'out', 'main', 'cli.js');
  const renderer = join(root, 'out', 'renderer', 'index.html');
  if (!existsSync(marker) || !existsSync(renderer)) return 'out/ has no complete build';
  const builtAt = statSync(marker).mtimeMs;
  const newer = SOURCES.find((source) => newestMtime(join(root, source)) > builtAt);
  return newer ? `${newer} changed after out/ was built` : null;
}

/**
 * Build when out/ is stale; returns whether it built. Throws an Error saying why the build was
 * needed and that it failed (its own output went to stderr).
 * @param {{ quiet?: boolean }} [options] quiet: say nothing on stdout (the RPC mode's stdout is JSON only).
 */
export function rebuildIfStale(options = {}) {
  const reason = staleBuildReason();
  if (!reason) return false;
  (options.quiet ? process.stderr : process.stdout).write(`Building Resolute (${reason})…\n`);
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0) {
    throw new Error(`${reason}, and the build failed (electron-vite exited with ${result.status}); see above.`);
  }
  return true;
}

/** rebuildIfStale for the command-line entry points: a failed build ends the process with a message. */
export function ensureBuild(options = {}) {
  try {
    rebuildIfStale(options);
  } catch (error) {
    process.stderr.write(`resolute: ${error.message}\n`);
    process.exit(1);
  }
}
