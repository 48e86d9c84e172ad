#!/usr/bin/env node
// `npm run native:electron` (and `npm start`, the Electron e2e fixture): better-sqlite3 for
// Electron during development. node_modules keeps the Node build (the tests, the browser and RPC
// modes run under Node, and the Electron e2e tests read the database from Node too), so
// @electron/rebuild builds a copy under .electron-native/<electron version>/ — a prebuilt binary
// where one is published, else node-gyp against Electron's headers — and the app is pointed at it
// through RESOLUTE_SQLITE_BINDING (src/main/node/history/history-open.ts). Packaging does not use
// this: electron-builder rebuilds node_modules itself (scripts/dist.js).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readVersion = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;

function stagePaths() {
  const stage = join(root, '.electron-native', readVersion('electron'));
  const module = join(stage, 'node_modules', 'better-sqlite3');
  return { stage, module, binding: join(module, 'build', 'Release', 'better_sqlite3.node') };
}

/** An addon built for Electron's ABI refuses to load in Node; one that loads was built for Node. */
function loadsUnderNode(binding) {
  try {
    process.dlopen({ exports: {} }, binding);
    return true;
  } catch {
    return false;
  }
}

/** The Electron build of better-sqlite3's addon, or null while there is none (or only a Node build). */
export function electronSqliteBinding() {
  const { binding } = stagePaths();
  return existsSync(binding) && !loadsUnderNode(binding) ? binding : null;
}

/** Make the Electron build if it is missing; its path, or null (with the reason on stderr). */
export async function ensureElectronSqlite() {
  const existing = electronSqliteBinding();
  if (existing) return existing;
  const { stage, module, binding } = stagePaths();
  const electronVersion = readVersion('electron');
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const source = join(root, 'node_modules', 'better-sqlite3');
  cpSync(source, module, { recursive: true, filter: (path) => !path.startsWith(join(source, 'build') + sep) });
  // @electron/rebuild walks the dependencies of the package.json in buildPath: just this module.
  writeFileSync(
    join(stage, 'package.json'),
    JSON.stringify({ name: 'resolute-electron-native', private: true, dependencies: { 'better-sqlite3': '*' } }),
  );
  process.stdout.write(`Building better-sqlite3 for Electron ${electronVersion} (@electron/rebuild)…\n`);
  // An npmrc `nodedir` (npm passes it on as npm_config_nodedir) would make node-gyp compile against
  // Node's headers instead of Electron's: a binary of the wrong ABI that only fails in the app.
  delete process.env.npm_config_nodedir;
  try {
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({
      buildPath: stage,
      projectRootPath: stage,
      electronVersion,
      onlyModules: ['better-sqlite3'],
      force: true,
    });
  } catch (error) {
    process.stderr.write(`resolute: could not build better-sqlite3 for Electron (${error?.message ?? error}).\n`);
  }
  if (electronSqliteBinding()) return binding;
  if (existsSync(binding)) process.stderr.write('resolute: the addon was built for Node, not Electron.\n');
  process.stderr.write('resolute: without it the desktop app cannot open its history.\n');
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = (await ensureElectronSqlite()) ? 0 : 1;
}
