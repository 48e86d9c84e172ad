// The counts kept in each session row by triggers (src/main/node/history/session-counts.ts) against
// their definition counted straight from the turns and chains (docs/architecture.md, "Where data
// lives": exchanges are the person's messages; errored exchanges count once per chain, unless the
// chain recovered, is pending or was compacted). Random sequences of the store's own writes on a
// real SQLite file, and a version-1 file converted to the latest schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChainOutcome } from '../../../../src/shared/error-category';
import type { ChatMessage } from '../../../../src/shared/messages';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore, type SqliteHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { SESSION_COUNTS_BY_DEFINITION } from '../../../fixtures/history-files';

const root = mkdtempSync(join(tmpdir(), 'resolute-counts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(root, `h-${(counter += 1)}.db`);

function counted(path: string): [string, number, number][] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare<[], { id: string; turns: number; errored: number }>(SESSION_COUNTS_BY_DEFINITION)
      .all()
      .map((r) => [r.id, r.turns, r.errored]);
  } finally {
    db.close();
  }
}

function kept(store: SqliteHistoryStore): [string, number, number][] {
  return store
    .listSessions({ limit: 500 })
    .map((s): [string, number, number] => [s.id, s.turnCount, s.erroredTurnCount])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

/** A small deterministic generator (mulberry32), so a failing sequence can be replayed. */
function random(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

function message(kind: number, at: number): ChatMessage {
  if (kind === 0) return { role: 'user', content: `question ${at}`, timestamp: at };
  if (kind === 1)
    return { role: 'toolResult', toolCallId: 'c', toolName: 'ls', content: [], isError: false, timestamp: at };
  const failed = kind === 2;
  return {
    role: 'assistant',
    content: failed ? [] : [{ type: 'text', text: `answer ${at}` }],
    provider: 'p',
    model: 'm',
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
    stopReason: failed ? 'error' : 'stop',
    ...(failed ? { errorMessage: '503' } : {}),
    timestamp: at,
  };
}

const OUTCOMES: ChainOutcome[] = [
  'recovered',
  'exhausted',
  'cancelled',
  'disabled',
  'not_retryable',
  'compacted',
  'interrupted',
];

/**
 * One random write of the kinds the session makes (and a deletion now and then). A chain belongs
 * to one session, as the retry controller's do: only that session's turns are linked to it.
 */
function step(
  store: SqliteHistoryStore,
  pick: (n: number) => number,
  at: number,
  turnIds: Map<string, string[]>,
): void {
  const session = `s${pick(3)}`;
  const chain = `${session}-c${pick(4)}`;
  const ids = turnIds.get(session) ?? [];
  turnIds.set(session, ids);
  switch (pick(8)) {
    case 0:
    case 1:
    case 2: {
      const kind = pick(4);
      const chainId = kind === 2 && pick(2) === 0 ? chain : null;
      ids.push(store.appendTurn({ sessionId: session, message: message(kind, at), chainId }).id);
      return;
    }
    case 3:
      return store.openChain({ id: chain, sessionId: session, startedAt: at });
    case 4:
      if (ids.length > 0) store.linkTurnToChain(ids[pick(ids.length)], chain);
      return;
    case 5:
      return store.closeChain(chain, {
        outcome: OUTCOMES[pick(OUTCOMES.length)],
        attempts: 1,
        finalError: null,
        endedAt: at,
      });
    case 6:
      if (pick(2) === 0) store.reopenChain(chain);
      else store.closeInterruptedChains(at);
      return;
    default:
      if (pick(10) === 0 && store.deleteSession(session)) turnIds.delete(session);
  }
}

describe('the counts in the session row', () => {
  it('match their definition after every write of random sequences of turns, links and chain ends', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const path = freshPath();
      const store = openHistoryStore(path);
      const pick = random(seed);
      const turnIds = new Map<string, string[]>();
      try {
        for (let at = 1; at <= 300; at += 1) {
          step(store, pick, at, turnIds);
          if (at % 10 === 0) expect(kept(store), `seed ${seed}, step ${at}`).toEqual(counted(path));
        }
        expect(kept(store).some(([, , errored]) => errored > 0)).toBe(true);
      } finally {
        store.close();
      }
    }
  });

  it('count a chain of failed attempts once, and only while it has not recovered', () => {
    const path = freshPath();
    const store = openHistoryStore(path);
    try {
      const failed = (at: number, chainId: string | null) =>
        store.appendTurn({ sessionId: 's', message: message(2, at), chainId });
      store.appendTurn({ sessionId: 's', message: message(0, 1) });
      // The first failure is stored before its chain opens, then linked to it (what the retry path does).
      const first = failed(2, null);
      expect(store.sessionSummary('s')).toMatchObject({ turnCount: 1, erroredTurnCount: 1 });
      store.openChain({ id: 'c', sessionId: 's', startedAt: 2 });
      store.linkTurnToChain(first.id, 'c');
      failed(3, 'c');
      expect(store.sessionSummary('s')!.erroredTurnCount).toBe(0);
      store.closeChain('c', { outcome: 'exhausted', attempts: 2, finalError: '503', endedAt: 4 });
      expect(store.sessionSummary('s')!.erroredTurnCount).toBe(1);
      store.reopenChain('c');
      expect(store.sessionSummary('s')!.erroredTurnCount).toBe(0);
      store.closeChain('c', { outcome: 'recovered', attempts: 3, finalError: null, endedAt: 5 });
      expect(store.sessionSummary('s')!.erroredTurnCount).toBe(0);
      expect(kept(store)).toEqual(counted(path));
    } finally {
      store.close();
    }
  });
});

describe('a version-1 file converted to the latest schema', () => {
  it('gets counts that match the definition, and the triggers keep them from then on', () => {
    const path = freshPath();
    const db = new Database(path);
    migrate(db, [MIGRATIONS[0]]);
    db.exec(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('a', 'A', 1, 9), ('b', 'B', 1, 9);
      INSERT INTO retry_chains (id, session_id, outcome, attempts, started_at) VALUES
        ('ca', 'a', 'exhausted', 2, 2), ('cb', 'b', 'recovered', 1, 2), ('cp', 'b', 'pending', 1, 5);`);
    const insert = db.prepare(
      `INSERT INTO turns (id, session_id, seq, role, text, message_json, stop_reason, error_message, chain_id, created_at)
       VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?)`,
    );
    const rows: [string, string, number, number, string | null][] = [
      ['a1', 'a', 1, 0, null],
      ['a2', 'a', 2, 2, 'ca'],
      ['a3', 'a', 3, 2, 'ca'],
      ['a4', 'a', 4, 0, null],
      ['a5', 'a', 5, 2, null],
      ['b1', 'b', 1, 0, null],
      ['b2', 'b', 2, 2, 'cb'],
      ['b3', 'b', 3, 3, null],
      ['b4', 'b', 4, 0, null],
      ['b5', 'b', 5, 2, 'cp'],
    ];
    for (const [id, session, seq, kind, chain] of rows) {
      const m = message(kind, seq);
      const failed = m.role === 'assistant' && m.stopReason === 'error';
      insert.run(
        id,
        session,
        seq,
        m.role,
        JSON.stringify(m),
        failed ? 'error' : null,
        failed ? '503' : null,
        chain,
        seq,
      );
    }
    db.close();
    const before = counted(path);
    expect(before).toEqual([
      ['a', 2, 2],
      ['b', 2, 0],
    ]);

    const store = openHistoryStore(path);
    try {
      expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      expect(kept(store)).toEqual(before);
      // A quit leaves b's pending chain interrupted: now it counts.
      store.closeInterruptedChains(10);
      expect(store.sessionSummary('b')!.erroredTurnCount).toBe(1);
      store.appendTurn({ sessionId: 'b', message: message(0, 11) });
      expect(kept(store)).toEqual(counted(path));
      expect(store.sessionSummary('b')!.turnCount).toBe(3);
    } finally {
      store.close();
    }
  });
});
