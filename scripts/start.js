#!/usr/bin/env node
// `npm start`: the Electron app where the Electron binary is installed; elsewhere (no binary,
// e.g. a machine that cannot download it) say so in one line and start the browser mode.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './electron-binary.js';
import { ensureBuild } from './ensure-build.js';
import { ensureElectronSqlite } from './electron-native.js';
import { runWeb } from './web.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const binary = electronBinary();

if (!binary) {
  process.stdout.write(
    'Electron is not installed on this machine (its binary could not be downloaded); starting the browser mode instead.\n',
  );
  runWeb(args);
} else {
  ensureBuild();
  const env = { ...process.env };
  const binding = await ensureElectronSqlite();
  if (binding) env.RESOLUTE_SQLITE_BINDING = binding;
  const child = spawn(binary, [root, ...args], { stdio: 'inherit', env });
  child.on('exit', (code) => process.exit(code ?? 0));
}
