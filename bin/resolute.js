#!/usr/bin/env node
// The `resolute` command (package.json "bin"): builds the app if out/ is missing or stale, then
// runs the Node CLI — `--mode web` (default), `--mode rpc` or `--mode simulator`.
import { ensureBuild } from '../scripts/ensure-build.js';

ensureBuild({ quiet: process.argv.includes('rpc') });
await import('../out/main/cli.js');
