// Benchmark: what running ripgrep inside bubblewrap costs a `grep` call (docs/tools.md, "find and
// grep"). On a small workspace (20 files), times N grep calls through the tool (sandboxed) against
// N spawns of the same ripgrep with the same arguments, unsandboxed, alternating so both see the
// same machine load. Prints the median of each and the difference per call.
// Run: npx tsx bench/search-sandbox.ts [calls]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGrep } from '../src/main/node/tools/grep-tool';
import { cachedExecutable } from '../src/main/node/tools/executables';
import { BASE_ARGS } from '../src/main/node/tools/ripgrep';

const CALLS = Number(process.argv[2] ?? 100);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-bench-rg-sandbox-')));
mkdirSync(join(root, 'src'));
for (let i = 0; i < 20; i += 1) writeFileSync(join(root, 'src', `f${i}.ts`), `const a${i} = ${i};\n// NEEDLE ${i}\n`);

const rg = cachedExecutable('rg');
if (rg === null) throw new Error('rg not found');
const bareArgs = ['--json', '--line-number', ...BASE_ARGS, '--regexp', 'NEEDLE', '--', root];

function bare(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg as string, bareArgs, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject).on('close', () => resolve());
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sandboxed: number[] = [];
const unsandboxed: number[] = [];
for (let i = 0; i < CALLS; i += 1) {
  sandboxed.push(await timed(() => runGrep(root, { pattern: 'NEEDLE' })));
  unsandboxed.push(await timed(bare));
}
rmSync(root, { recursive: true, force: true });
const [withSandbox, without] = [median(sandboxed), median(unsandboxed)];
console.log(`calls: ${CALLS} each`);
console.log(`grep through the tool (bubblewrap): median ${withSandbox.toFixed(1)} ms`);
console.log(`the same rg unsandboxed: median ${without.toFixed(1)} ms`);
console.log(`added per call: ${(withSandbox - without).toFixed(1)} ms`);
