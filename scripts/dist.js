#!/usr/bin/env node
// `npm run dist`: build the app (electron-vite), then package it with electron-builder for the
// current OS (electron-builder.yml; installers land in dist/). Extra arguments go to
// electron-builder, e.g. `npm run dist -- --dir`. electron-builder rebuilds better-sqlite3 for
// Electron inside node_modules; the Node build is set aside first and put back afterwards, so
// `npm test` and the browser mode keep working on the same checkout.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const nodeBuild = join(root, 'node_modules', 'better-sqlite3', 'build');

// An npmrc `nodedir` would make the native rebuild compile against Node's headers, not Electron's.
const { npm_config_nodedir: _nodedir, ...env } = process.env;

function run(script, args) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', ...script), ...args], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  return result.status ?? 1;
}

function withNodeBuildKept(work) {
  if (!existsSync(nodeBuild)) return work();
  const saved = join(mkdtempSync(join(tmpdir(), 'resolute-sqlite-')), 'build');
  cpSync(nodeBuild, saved, { recursive: true });
  try {
    return work();
  } finally {
    rmSync(nodeBuild, { recursive: true, force: true });
    cpSync(saved, nodeBuild, { recursive: true });
    rmSync(join(saved, '..'), { recursive: true, force: true });
  }
}

let status = run(['electron-vite', 'bin', 'electron-vite.js'], ['build']);
if (status === 0) {
  status = withNodeBuildKept(() =>
    run(['electron-builder', 'cli.js'], ['--publish', 'never', ...process.argv.slice(2)]),
  );
}
process.exitCode = status;
