// Shared helpers of the benchmarks (bench/run.ts runs them all): medians, the report rows, the
// cache folder outside the repo, our RPC mode and the pi coding agent as RPC children of the same
// RpcClient, and a server-side clock on the simulator's HTTP exchanges.
import { subscribe } from 'node:diagnostics_channel';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RpcClient, type RpcClientOptions } from '../test/fixtures/rpc-client';

export const REPO = resolve(import.meta.dirname, '..');
export const QUICK = process.argv.includes('--quick');
/** The CLI under test: this checkout's build, or another one (RESOLUTE_BENCH_CLI) for a before/after run. */
export const CLI = process.env.RESOLUTE_BENCH_CLI ?? join(REPO, 'out', 'main', 'cli.js');

/** Our app's flags for the in-process simulator at `url` (its model), each `--set` given after. */
export function simulatorArgs(url: string, ...sets: string[]): string[] {
  const args = ['--provider', 'openai-compatible', '--base-url', url, '--model', 'resolute-sim-1'];
  return [...args, ...sets.flatMap((set) => ['--set', set])];
}

/** The pi coding agent 0.73.1, installed outside the repo (see bench/README.md); null when absent. */
export const PI_CLI =
  process.env.RESOLUTE_BENCH_PI ??
  [join(homedir(), 'bench-pi'), '/work/bench-pi']
    .map((dir) => join(dir, 'node_modules', '@mariozechner', 'pi-coding-agent', 'dist', 'cli.js'))
    .find((path) => existsSync(path)) ??
  null;

/** Built once, reused by every run: the large history databases live here, outside the repo. */
export function cacheDir(): string {
  const dir =
    process.env.RESOLUTE_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'resolute-bench');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `resolute-bench-${name}-`));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `p`-th percentile (0–100) by nearest rank: of 20 values, p95 is the second largest. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Collect garbage first when the run allows it (npm run bench passes --expose-gc): no pause lands inside a timing. */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

export async function timeIt(fn: () => unknown | Promise<unknown>): Promise<number> {
  collectGarbage();
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Median of `runs` timings of each function, after one unmeasured warm-up; they take turns, run by run. */
export async function mediansOf(runs: number, fns: (() => unknown | Promise<unknown>)[]): Promise<number[]> {
  for (const fn of fns) await fn();
  const times: number[][] = fns.map(() => []);
  for (let i = 0; i < runs; i += 1) for (const [index, fn] of fns.entries()) times[index].push(await timeIt(fn));
  return times.map(median);
}

export interface Row {
  figure: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** The ratio (value / baseline) the issue asks for, e.g. "≤ 0.25×". */
  target?: string;
  note?: string;
}

const rows: Row[] = [];

export function report(row: Row): void {
  rows.push(row);
  const base = row.baseline
    ? ` | ${row.baseline.name}: ${fmt(row.baseline.value)} ${row.unit} | ratio ${(row.value / row.baseline.value).toFixed(2)}×`
    : '';
  const target = row.target ? ` (target ${row.target})` : '';
  const note = row.note ? ` — ${row.note}` : '';
  console.log(`${row.figure}: ${fmt(row.value)} ${row.unit}${base}${target}${note}`);
}

export function reportedRows(): readonly Row[] {
  return rows;
}

function fmt(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** Our RPC mode, built CLI, with its own data folder. */
export function resoluteClient(dataDir: string, args: string[] = []): RpcClient {
  return new RpcClient({ cliPath: CLI, args: ['--data-dir', dataDir, ...args] });
}

/**
 * pi in RPC mode against an OpenAI-compatible URL (our simulator), with its own agent folder:
 * a custom provider "sim" in models.json, the retry settings given, no session file, no network.
 */
export function piClient(baseUrl: string, retry: { baseDelayMs: number; maxRetries: number }): RpcClient {
  if (!PI_CLI) throw new Error('pi is not installed (see bench/README.md)');
  const agentDir = tempDir('pi-agent');
  const models = {
    providers: {
      sim: {
        baseUrl,
        api: 'openai-completions',
        apiKey: 'resolute-simulator-key',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'resolute-sim-1' }],
      },
    },
  };
  writeFileSync(join(agentDir, 'models.json'), JSON.stringify(models));
  writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ retry: { enabled: true, ...retry } }));
  const options: RpcClientOptions = {
    command: process.execPath,
    commandArgs: [PI_CLI],
    args: ['--provider', 'sim', '--model', 'resolute-sim-1', '--no-session', '--no-tools', '--no-extensions'],
    cwd: agentDir,
    env: { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' },
    // pi's start took over 30 s (the client's default) on a shared machine at a load of 25.
    requestTimeoutMs: 120_000,
  };
  return new RpcClient(options);
}

/** When each simulator exchange started and ended, on this process's clock (performance.now()). */
export interface Exchange {
  startedAt: number;
  endedAt: number | null;
}

/**
 * Watches every HTTP exchange served in this process (the in-process simulator): when the request
 * arrived and when the response ended — its end() call, which hands the last bytes to the socket —
 * or its socket was closed (a reset). Not its 'finish' event: that comes a turn of the event loop
 * later, and with this process busy (it also reads the client's events) up to 2 ms late, which
 * shortened the measured overshoot, even below zero. Returns the list.
 */
export function watchExchanges(): Exchange[] {
  const exchanges: Exchange[] = [];
  subscribe('http.server.request.start', (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    if (!request.url?.includes('/chat/completions')) return;
    const exchange: Exchange = { startedAt: performance.now(), endedAt: null };
    exchanges.push(exchange);
    const end = () => {
      exchange.endedAt ??= performance.now();
    };
    const endResponse = response.end;
    response.end = function (this: ServerResponse, ...args: Parameters<ServerResponse['end']>) {
      end();
      return endResponse.apply(this, args);
    } as ServerResponse['end'];
    response.once('finish', end);
    response.once('close', end);
  });
  return exchanges;
}
