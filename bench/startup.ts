// Benchmark: start-up. The Node floor (`node -e 0`) against `resolute --help`; the RPC mode's
// first get_state answer (spawn to response, through the same RpcClient) against pi's, and with a
// 1M-turn history (20k with --quick, the cached file of history-data.ts) against an empty one, in
// wall time and in the process's own CPU time to that answer (Linux), which the machine's load
// moves far less than the wall time.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, fsyncSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cachedHistory } from './history-data';
import { CLI, median, PI_CLI, piClient, QUICK, REPO, report, resoluteClient, tempDir } from './lib';
import { SimulatorServer } from '../src/main/node/simulator/simulator-server';
import type { RpcClient } from '../test/fixtures/rpc-client';

const RUNS = QUICK ? 3 : 7;
/** Spawn → first answer is the noisiest figure on a shared machine: more rounds for it. */
const ANSWER_RUNS = QUICK ? 7 : 9;
const TURNS = QUICK ? 20_000 : 1_000_000;

function spawnMs(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: REPO, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}`);
  return performance.now() - started;
}

/** Median spawn time of each command; the commands take turns, run by run, after one warm-up. */
function medianSpawns(commands: string[][]): number[] {
  commands.forEach(spawnMs);
  const times: number[][] = commands.map(() => []);
  for (let run = 0; run < RUNS; run += 1) commands.forEach((args, index) => times[index].push(spawnMs(args)));
  return times.map(median);
}

/** A live process's user + system CPU time in ms (/proc/<pid>/stat, in clock ticks of 10 ms); null off Linux. */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

interface FirstAnswer {
  wallMs: number;
  /** The process's CPU time when it answered; null where /proc is not there. */
  cpuMs: number | null;
}

/**
 * Spawn to the first get_state answer for each client maker, median of ANSWER_RUNS each. The
 * makers take turns run by run, so a change in the machine's load touches all of them alike; one
 * warm-up round first (it also creates the data files).
 */
async function firstAnswers(makers: (() => RpcClient)[]): Promise<FirstAnswer[]> {
  const walls: number[][] = makers.map(() => []);
  const cpus: (number | null)[][] = makers.map(() => []);
  for (let round = 0; round <= ANSWER_RUNS; round += 1) {
    for (const [index, make] of makers.entries()) {
      const client = make();
      const started = performance.now();
      await client.start();
      const elapsed = performance.now() - started;
      const cpu = cpuMsOf(client.pid);
      await client.stop();
      if (round > 0) walls[index].push(elapsed);
      if (round > 0) cpus[index].push(cpu);
    }
  }
  return walls.map((wall, index) => {
    const cpu = cpus[index];
    return { wallMs: median(wall), cpuMs: cpu.includes(null) ? null : median(cpu as number[]) };
  });
}

async function firstAnswerMs(makers: (() => RpcClient)[]): Promise<number[]> {
  return (await firstAnswers(makers)).map((answer) => answer.wallMs);
}

/** Copy the cached history, and have it on disk before the runs: its writeback must not fall into them. */
function copyDurably(from: string, to: string): void {
  copyFileSync(from, to);
  const fd = openSync(to, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function startupBench(): Promise<void> {
  const [floor, help] = medianSpawns([
    ['-e', '0'],
    [CLI, '--help'],
  ]);
  report({
    figure: '`resolute --help`',
    value: help,
    unit: 'ms',
    baseline: { name: 'Node floor (node -e 0)', value: floor },
    target: '≤ 2×',
  });

  const empty = tempDir('startup-empty');
  // A copy of the cached history in its own data folder, so the runs cannot change the cache.
  const large = tempDir('startup-large');
  copyDurably(
    cachedHistory(TURNS, (line) => console.log(line)),
    join(large, 'history.db'),
  );
  const [emptyAnswer, largeAnswer] = await firstAnswers([() => resoluteClient(empty), () => resoluteClient(large)]);
  const ours = emptyAnswer.wallMs;
  report({
    figure: `RPC start-up to the first get_state answer, ${TURNS}-turn history`,
    value: largeAnswer.wallMs,
    unit: 'ms',
    baseline: { name: 'empty history', value: ours },
    target: '≤ 1.1×',
  });
  if (emptyAnswer.cpuMs !== null && largeAnswer.cpuMs !== null) {
    report({
      figure: `  the same in the process's CPU time, ${TURNS}-turn history`,
      value: largeAnswer.cpuMs,
      unit: 'ms',
      baseline: { name: 'empty history', value: emptyAnswer.cpuMs },
      target: '≤ 1.1×',
    });
  }
  if (PI_CLI) {
    const simulator = new SimulatorServer();
    const url = await simulator.start();
    const [oursAgain, pi] = await firstAnswerMs([
      () => resoluteClient(empty),
      () => piClient(url, { baseDelayMs: 2000, maxRetries: 3 }),
    ]);
    await simulator.stop();
    report({
      figure: 'RPC start-up to the first get_state answer',
      value: oursAgain,
      unit: 'ms',
      baseline: { name: 'pi 0.73.1, same client', value: pi },
      target: '≤ 0.25×',
    });
  } else {
    report({ figure: 'RPC start-up to the first get_state answer', value: ours, unit: 'ms', note: 'pi not installed' });
  }
  rmSync(large, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
}
