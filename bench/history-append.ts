// Benchmark: SQLite history writes. Appends N turns with the store as shipped (WAL,
// synchronous=FULL, FTS5 kept in sync by triggers) and, as the baseline in the same run, plain
// inserts of the same rows into a bare table with synchronous=NORMAL and no index. Prints
// turns/s for both and the ratio. Run: npx tsx bench/history-append.ts [turns]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHistoryStore } from '../src/main/node/history/sqlite-history-store';
import type { ChatMessage } from '../src/shared/messages';

const TURNS = Number(process.argv[2] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'resolute-bench-history-'));

function message(i: number): ChatMessage {
  return i % 2 === 0
    ? { role: 'user', content: `question ${i} about the weather and retries`, timestamp: Date.now() }
    : {
        role: 'assistant',
        content: [{ type: 'text', text: `answer ${i}: the decision table says to wait and try again` }],
        provider: 'simulator',
        model: 'resolute-sim-1',
        usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30 },
        stopReason: i % 10 === 1 ? 'error' : 'stop',
        ...(i % 10 === 1 ? { errorMessage: '503 Service Unavailable' } : {}),
        timestamp: Date.now(),
      };
}

const bare = new Database(join(dir, 'bare.db'));
bare.pragma('journal_mode = WAL');
bare.pragma('synchronous = NORMAL');
bare.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, json TEXT NOT NULL)');
const insert = bare.prepare('INSERT INTO t (json) VALUES (?)');
let started = performance.now();
for (let i = 0; i < TURNS; i += 1) insert.run(JSON.stringify(message(i)));
const bareMs = performance.now() - started;
bare.close();

const store = openHistoryStore(join(dir, 'history.db'));
store.ensureSession({ id: 's', title: 'bench', model: 'm', provider: 'p', createdAt: Date.now() });
started = performance.now();
for (let i = 0; i < TURNS; i += 1)
  store.appendTurn({ sessionId: 's', message: message(i), errorCategory: i % 10 === 1 ? 'server_error' : null });
const storeMs = performance.now() - started;
started = performance.now();
const hits = store.search('weather retries', 50).length;
const searchMs = performance.now() - started;
store.close();
rmSync(dir, { recursive: true, force: true });

console.log(`turns: ${TURNS}`);
console.log(`baseline (bare insert, WAL, synchronous=NORMAL): ${(TURNS / (bareMs / 1000)).toFixed(0)} turns/s`);
console.log(
  `history store (WAL, synchronous=FULL, FTS5, indexes): ${(TURNS / (storeMs / 1000)).toFixed(0)} turns/s (${(storeMs / TURNS).toFixed(3)} ms/turn)`,
);
console.log(`ratio (store time / baseline time): ${(storeMs / bareMs).toFixed(1)}×`);
console.log(`FTS search over ${TURNS} turns: ${searchMs.toFixed(1)} ms, ${hits} hits`);
