// Benchmark: what the sandbox costs per `bash` call. Runs the same short command N times through
// the real tool path (runSandboxed: bubblewrap with its namespaces, mounts and JSON status) and,
// as the baseline in the same run, as a bare spawn of /bin/bash -c (no sandbox), alternating the
// two so both see the same machine load. Prints the median and mean per call, the added time and
// the ratio. Linux with bubblewrap only. Run: npx tsx bench/sandbox-startup.ts [calls] [command]
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSandboxed } from '../src/main/node/tools/bash-sandbox';
import { defaultSandboxHost } from '../src/main/node/tools/executables';

const CALLS = Number(process.argv[2] ?? 40);
const COMMAND = process.argv[3] ?? 'echo hi';
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-bench-sandbox-')));
const host = defaultSandboxHost();

function bare(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-c', COMMAND], { cwd: workspace, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`bare exit ${code}`))));
  });
}

async function sandboxed(): Promise<void> {
  const outcome = await runSandboxed(
    { command: COMMAND, workspace, timeoutMs: 10_000, network: false, hidden: [] },
    host,
  );
  if (outcome.isError) throw new Error(`sandboxed: ${outcome.text}`);
}

async function time(fn: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

const bareMs: number[] = [];
const sandboxMs: number[] = [];
// Warm up both paths (page cache, the bwrap binary) before measuring.
await bare();
await sandboxed();
for (let i = 0; i < CALLS; i += 1) {
  bareMs.push(await time(bare));
  sandboxMs.push(await time(sandboxed));
}
rmSync(workspace, { recursive: true, force: true });

console.log(`bash calls: ${CALLS} of "${COMMAND}" each way, alternating`);
console.log(
  `baseline (bare spawn of /bin/bash -c): median ${median(bareMs).toFixed(2)} ms, mean ${mean(bareMs).toFixed(2)} ms`,
);
console.log(
  `sandboxed (bubblewrap, as the bash tool runs it): median ${median(sandboxMs).toFixed(2)} ms, mean ${mean(sandboxMs).toFixed(2)} ms`,
);
console.log(`sandbox start-up cost per call: ${(median(sandboxMs) - median(bareMs)).toFixed(2)} ms (median)`);
console.log(`ratio (sandboxed / bare, medians): ${(median(sandboxMs) / median(bareMs)).toFixed(2)}×`);
