// The benchmark history: deterministic turns shaped like pi-ai's messages (a question, an answer
// with usage and cost, one failure in ten answers with its retry chain and decision), written
// through the store's own API, and the same turns as pi's session JSONL for the size comparison.
// The large databases are built once into the cache folder (bench/lib.ts) and reused.
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '../src/shared/messages';
import { LATEST_SCHEMA_VERSION } from '../src/main/node/history/migrations';
import { openHistoryStore, type SqliteHistoryStore } from '../src/main/node/history/sqlite-history-store';
import { retryDecision } from '../test/fixtures/long-session';
import { cacheDir } from './lib';

export const LONG_SESSION = 'long-session';
/**
 * How the store writes a row without a schema change (2: message-codec.ts's compact messages and
 * 16-character ids). Raise it when that changes, or the cache measures rows the store no longer writes.
 */
const ROW_FORMAT = 2;
export const LONG_SESSION_TURNS = 10_000;
const TURNS_PER_SESSION = 1_000;
const T0 = Date.UTC(2025, 0, 1);
const WORDS = 'the retry wait keeps time while the provider recovers from a transient overload and answers again'.split(
  ' ',
);

function sentence(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i += 1) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length]);
  return out.join(' ');
}

/** Turn n of a session: even n asks, odd n answers; every fifth answer (1 in 10 turns) fails. */
export function benchMessage(n: number, at: number): ChatMessage {
  if (n % 2 === 0) return { role: 'user', content: `${sentence(n, 18)}?`, timestamp: at };
  const failed = n % 10 === 1;
  const usage = {
    input: 120 + n,
    output: failed ? 0 : 60,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 180 + n,
    cost: { input: 0.00036, output: 0.0009, cacheRead: 0, cacheWrite: 0, total: 0.00126 },
  };
  return {
    role: 'assistant',
    content: failed ? [] : [{ type: 'text', text: `${sentence(n, 40)}.` }],
    api: 'openai-completions',
    provider: 'simulator',
    model: 'resolute-sim-1',
    usage,
    stopReason: failed ? 'error' : 'stop',
    ...(failed ? { errorMessage: '503 The server is temporarily unavailable; please try again' } : {}),
    timestamp: at,
  } as ChatMessage;
}

/** Append `count` turns to a session through the store's API, a thousand per transaction. */
function fillSession(store: SqliteHistoryStore, sessionId: string, count: number, start: number): void {
  store.ensureSession({
    id: sessionId,
    title: sentence(count, 6),
    model: 'resolute-sim-1',
    provider: 'simulator',
    createdAt: start,
  });
  for (let from = 0; from < count; from += 1000) {
    store.batch(() => {
      for (let n = from; n < Math.min(count, from + 1000); n += 1) {
        const at = start + n * 1000;
        const message = benchMessage(n, at);
        const failed = message.role === 'assistant' && message.stopReason === 'error';
        const chainId = failed ? `${sessionId}-c${n}` : null;
        if (chainId) store.openChain({ id: chainId, sessionId, startedAt: at });
        const turn = store.appendTurn({ sessionId, message, errorCategory: failed ? 'server_error' : null, chainId });
        if (chainId) {
          store.recordDecision(retryDecision(sessionId, chainId, turn.id, at));
          store.closeChain(chainId, { outcome: 'recovered', attempts: 1, finalError: null, endedAt: at + 2000 });
        }
      }
    });
  }
}

/**
 * The cached history of `turns` turns: one session of LONG_SESSION_TURNS (or all of them when
 * fewer), the rest in sessions of a thousand. Built on first use; the file name carries the schema
 * version and ROW_FORMAT, so a change of either builds a new one. Returns its path.
 */
export function cachedHistory(turns: number, log: (line: string) => void): string {
  const path = join(cacheDir(), `history-v${LATEST_SCHEMA_VERSION}r${ROW_FORMAT}-${turns}.db`);
  if (existsSync(path)) return path;
  const building = `${path}.building`;
  rmSync(building, { force: true });
  rmSync(`${building}-wal`, { force: true });
  log(`building a ${turns}-turn history in ${building} (once; later runs reuse it)…`);
  const started = performance.now();
  const store = openHistoryStore(building);
  const long = Math.min(turns, LONG_SESSION_TURNS);
  fillSession(store, LONG_SESSION, long, T0);
  for (let done = long, s = 0; done < turns; done += TURNS_PER_SESSION, s += 1) {
    fillSession(store, `session-${s}`, Math.min(TURNS_PER_SESSION, turns - done), T0 + (s + 1) * 86_400_000);
    if (s % 100 === 99) log(`  ${done + TURNS_PER_SESSION} turns…`);
  }
  store.close();
  renameSync(building, path);
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return path;
}

/** The first `turns` turns of the generator as one pi session file (pi's JSONL, version 3). */
export function piJsonl(path: string, turns: number): number {
  const lines = [
    JSON.stringify({ type: 'session', version: 3, id: 'bench', timestamp: new Date(T0).toISOString(), cwd: '/bench' }),
  ];
  let parent: string | null = null;
  for (let n = 0; n < turns; n += 1) {
    const at = T0 + n * 1000;
    const id = (n + 1).toString(16).padStart(8, '0');
    lines.push(
      JSON.stringify({
        type: 'message',
        id,
        parentId: parent,
        timestamp: new Date(at).toISOString(),
        message: benchMessage(n, at),
      }),
    );
    parent = id;
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return statSync(path).size;
}
