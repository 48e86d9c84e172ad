// better-sqlite3 is compiled for Node (the tests run under Node). Electron needs its own build
// of the addon (another ABI): compile a copy into .electron-native/ once, with node-gyp against
// Electron's headers, and hand its path to the app (RESOLUTE_SQLITE_BINDING → nativeBinding).
// The Node build in node_modules is never touched, so the tests keep working.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

export function ensureElectronSqlite() {
  const electronVersion = JSON.parse(
    readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
  ).version;
  const outDir = join(root, '.electron-native', electronVersion);
  const binding = join(outDir, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return binding;
  mkdirSync(outDir, { recursive: true });
  cpSync(join(root, 'node_modules', 'better-sqlite3'), join(outDir, 'better-sqlite3'), {
    recursive: true,
    filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`),
  });
  process.stdout.write(`Compiling better-sqlite3 for Electron ${electronVersion}…\n`);
  // npm sets npm_config_node_gyp to its bundled node-gyp when it runs `npm start`.
  const gyp = process.env.npm_config_node_gyp;
  if (!gyp || !existsSync(gyp)) {
    process.stderr.write(
      'resolute: node-gyp not found (run through `npm start`); cannot compile better-sqlite3 for Electron.\n',
    );
    return null;
  }
  const result = spawnSync(
    process.execPath,
    [gyp, 'rebuild', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'],
    {
      cwd: join(outDir, 'better-sqlite3'),
      stdio: 'inherit',
    },
  );
  if (result.status !== 0 || !existsSync(binding)) {
    process.stderr.write(
      'resolute: could not compile better-sqlite3 for Electron; history will not open in the desktop app.\n',
    );
    return null;
  }
  return binding;
}
