// Builds the app (electron-vite build → out/) when out/ is missing or older than the sources,
// so `npm start` and `npm run web` always serve what is in src/. Used by start.js and web.js.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** @param {{ quiet?: boolean }} [options] quiet: say nothing on stdout (the RPC mode's stdout is JSON only). */
export function ensureBuild(options = {}) {
  const marker = join(root, 'out', 'main', 'cli.js');
  const renderer = join(root, 'out', 'renderer', 'index.html');
  const fresh =
    existsSync(marker) && existsSync(renderer) && statSync(marker).mtimeMs >= newestMtime(join(root, 'src'));
  if (fresh) return;
  (options.quiet ? process.stderr : process.stdout).write('Building Resolute…\n');
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (result.status !== 0) {
    process.stderr.write('resolute: the build failed (see above).\n');
    process.exit(result.status ?? 1);
  }
}
