#!/usr/bin/env node
// `npm run web`: build if needed, then run the browser mode (node out/main/cli.js --mode web),
// passing every flag through (--port, --data-dir, --base-url, --api-key, --set, --no-open …);
// the CLI opens the app in a window unless --no-open.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuild } from './ensure-build.js';

const root = new URL('..', import.meta.url).pathname;

export function runWeb(args) {
  ensureBuild();
  const child = spawn(process.execPath, [join(root, 'out', 'main', 'cli.js'), '--mode', 'web', ...args], {
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (import.meta.url === `file://${process.argv[1]}`) runWeb(process.argv.slice(2));
