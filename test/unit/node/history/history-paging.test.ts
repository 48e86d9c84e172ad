// Tests of the history's paged reads, the turn counts kept in the session row, write batches and
// the migration that stores text once (src/main/node/history/migration-text-once.ts), on real
// SQLite files: a file written by the previous schema is converted with nothing lost.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TURN_PAGE_SIZE } from '../../../../src/shared/history';
import { messageText, type ChatMessage } from '../../../../src/shared/messages';
import { TEXT_ONCE_MIGRATION } from '../../../../src/main/node/history/migration-text-once';
import { MIGRATIONS, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore, type SqliteHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';

const root = mkdtempSync(join(tmpdir(), 'resolute-paging-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(root, `h-${(counter += 1)}.db`);

const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 };

function turnMessage(n: number): ChatMessage {
  if (n % 2 === 0) return { role: 'user', content: `question ${n} about paging`, timestamp: 1000 + n };
  const failed = n % 6 === 1;
  return {
    role: 'assistant',
    content: failed
      ? []
      : [
          { type: 'thinking', thinking: 'hidden' },
          { type: 'text', text: `answer ${n}` },
          { type: 'toolCall', id: 'c', name: 'bash', arguments: {} },
          { type: 'text', text: '' },
        ],
    provider: 'simulator',
    model: 'sim-1',
    usage,
    stopReason: failed ? 'error' : 'stop',
    ...(failed ? { errorMessage: `503 number ${n}` } : {}),
    timestamp: 1000 + n,
  };
}

function fill(store: SqliteHistoryStore, sessionId: string, count: number): void {
  store.ensureSession({ id: sessionId, title: sessionId, model: 'sim-1', provider: 'simulator', createdAt: 1000 });
  for (let n = 0; n < count; n += 1) {
    const message = turnMessage(n);
    const failed = message.role === 'assistant' && message.stopReason === 'error';
    const chainId = failed ? `${sessionId}-chain-${n}` : null;
    store.batch(() => {
      if (chainId) store.openChain({ id: chainId, sessionId, startedAt: 1000 + n });
      const turn = store.appendTurn({ sessionId, message, errorCategory: failed ? 'server_error' : null, chainId });
      if (chainId) {
        store.recordDecision({
          id: `${chainId}-d`,
          timestamp: new Date(1000 + n).toISOString(),
          level: 'INFO',
          errorType: 'ModelServerError',
          category: 'server_error',
          attempt: 1,
          action: 'retry',
          waitSeconds: 1,
          reason: 'retry',
          errorMessage: '503',
          context: { taskType: 'chat', modelId: 'sim-1', provider: 'simulator', sessionId, turnId: turn.id },
          finalDecision: null,
          chainId,
        });
        // The chain ends failed: an errored exchange (a chain still retrying would not count yet).
        store.closeChain(chainId, { outcome: 'exhausted', attempts: 1, finalError: '503', endedAt: 1000 + n });
      }
    });
  }
}

describe('paged session reads', () => {
  it('give the newest page first, then older pages back to the first turn, with their chains and decisions', () => {
    const store = openHistoryStore(freshPath());
    try {
      fill(store, 's', 250);
      const full = store.getSession('s')!;
      expect(full.turns).toHaveLength(250);
      expect(full.hasOlderTurns).toBe(false);

      const first = store.getSession('s', TURN_PAGE_SIZE)!;
      // The person's 125 messages: a turn count counts exchanges.
      expect(first.session.turnCount).toBe(125);
      expect(first.turns.map((t) => t.seq)).toEqual(full.turns.slice(150).map((t) => t.seq));
      expect(first.hasOlderTurns).toBe(true);
      const pages = [first.turns];
      let before = first.turns[0].seq;
      for (;;) {
        const page = store.sessionTurns('s', before)!;
        pages.unshift(page.turns);
        const chainIds = new Set(page.chains.map((c) => c.id));
        for (const turn of page.turns.filter((t) => t.chainId)) {
          expect(chainIds.has(turn.chainId!)).toBe(true);
          expect(page.decisions.some((d) => d.context.turnId === turn.id)).toBe(true);
        }
        if (!page.hasOlderTurns) break;
        before = page.turns[0].seq;
      }
      expect(pages.flat()).toEqual(full.turns);
      expect(store.sessionTurns('s', 1)).toEqual({
        sessionId: 's',
        turns: [],
        chains: [],
        decisions: [],
        hasOlderTurns: false,
      });
      expect(store.sessionTurns('nope', 10)).toBeUndefined();
      expect(store.getSession('nope', 10)).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('derive text, model, usage and the error from the one stored message, as messageText does', () => {
    const store = openHistoryStore(freshPath());
    try {
      fill(store, 's', 4);
      const [question, failed, , answer] = store.getSession('s')!.turns;
      expect(question.text).toBe('question 0 about paging');
      expect(failed).toMatchObject({ text: '', stopReason: 'error', errorMessage: '503 number 1', usage });
      expect(answer).toMatchObject({ text: 'answer 3\n[tool bash]', model: 'sim-1', provider: 'simulator' });
      // The search index reads the same text through SQL: a tool call's name is found, thinking is not.
      expect(store.search('bash').map((hit) => hit.turnId)).toEqual([answer.id]);
      expect(store.search('hidden')).toEqual([]);
    } finally {
      store.close();
    }
  });
});

describe('turn counts in the session row', () => {
  it('follow every append, in the same transaction, and a batch that fails leaves neither turn nor count', () => {
    const store = openHistoryStore(freshPath());
    try {
      fill(store, 'a', 12);
      fill(store, 'b', 3);
      // Exchanges (the person's messages) and the exchanges that ended in an error.
      expect(store.listSessions().map((s) => [s.id, s.turnCount, s.erroredTurnCount])).toEqual([
        ['a', 6, 2],
        ['b', 2, 1],
      ]);
      expect(() =>
        store.batch(() => {
          store.appendTurn({ sessionId: 'b', message: turnMessage(1), errorCategory: 'server_error' });
          throw new Error('half-way');
        }),
      ).toThrow('half-way');
      expect(store.sessionSummary('b')).toMatchObject({ turnCount: 2, erroredTurnCount: 1 });
      expect(store.getSession('b')!.turns).toHaveLength(3);
    } finally {
      store.close();
    }
  });
});

describe('the text-once migration', () => {
  it('converts a file of the previous schema: every turn, count, chain, decision and search hit kept', () => {
    const path = freshPath();
    const previous = MIGRATIONS.filter((m) => m.version < TEXT_ONCE_MIGRATION.version);
    const db = new Database(path);
    migrate(db, previous);
    db.exec("INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('old', 'Old chat', 1, 9)");
    const insert = db.prepare(
      `INSERT INTO turns (id, session_id, seq, role, text, message_json, model, provider, stop_reason, error_message,
         error_category, chain_id, created_at, usage_json) VALUES (?, 'old', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const messages = Array.from({ length: 9 }, (_, n) => turnMessage(n));
    messages.forEach((m, n) => {
      const a = m.role === 'assistant' ? m : null;
      const failed = a?.stopReason === 'error';
      insert.run(
        `t${n}`,
        n + 1,
        m.role,
        messageText(m),
        JSON.stringify(m),
        a?.model ?? null,
        a?.provider ?? null,
        a?.stopReason ?? null,
        a?.errorMessage ?? null,
        failed ? 'server_error' : null,
        failed ? `c${n}` : null,
        1000 + n,
        a ? JSON.stringify(a.usage) : null,
      );
    });
    // One chain recovered, the other was cut off by a quit: only the second is an errored exchange.
    db.exec(`INSERT INTO retry_chains (id, session_id, outcome, attempts, started_at) VALUES
      ('c1', 'old', 'recovered', 1, 5), ('c7', 'old', 'interrupted', 1, 9)`);
    db.close();

    const store = openHistoryStore(path);
    try {
      expect(store.schemaVersion).toBe(MIGRATIONS[MIGRATIONS.length - 1].version);
      const detail = store.getSession('old')!;
      expect(detail.session).toMatchObject({ title: 'Old chat', turnCount: 5, erroredTurnCount: 1 });
      expect(detail.turns.map((t) => t.message)).toEqual(messages);
      expect(detail.turns.map((t) => t.text)).toEqual(messages.map(messageText));
      expect(detail.chains.map((c) => c.id)).toEqual(['c1', 'c7']);
      expect(store.search('paging')).toHaveLength(5);
      // New writes after the conversion keep the counts and the index.
      store.appendTurn({ sessionId: 'old', message: turnMessage(100) });
      expect(store.sessionSummary('old')!.turnCount).toBe(6);
      expect(store.search('question 100')).toHaveLength(1);
      expect(store.deleteSession('old')).toBe(true);
      expect(store.search('paging')).toEqual([]);
    } finally {
      store.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      const columns = raw.prepare("SELECT name FROM pragma_table_info('turns')").pluck().all();
      expect(columns).not.toContain('text');
      expect(columns).not.toContain('usage_json');
    } finally {
      raw.close();
    }
  });
});
