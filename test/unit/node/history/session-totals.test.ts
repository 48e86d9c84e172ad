// Each session's total tokens and cost in its summary (src/main/node/history/session-totals.ts,
// docs/thinking-and-context.md, "Context and cost"): kept in the session row by triggers as turns
// are stored, every attempt counted (failed ones too, they were paid for), whatever page of turns a
// view has loaded; the migration counts the turns a file already had.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import type { AssistantChatMessage } from '../../../../src/shared/messages';
import { historyBefore, migrationNamed } from '../../../fixtures/history-files';

const root = mkdtempSync(join(tmpdir(), 'resolute-session-totals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const reply = (timestamp: number, tokens: { input: number; output: number; totalTokens: number }, failed = false) =>
  ({
    role: 'assistant',
    content: failed ? [] : [{ type: 'text', text: 'ok' }],
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    api: 'anthropic-messages',
    usage: {
      ...tokens,
      cacheRead: 0,
      cacheWrite: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: failed ? 'error' : 'stop',
    ...(failed ? { errorMessage: '529 overloaded' } : {}),
    timestamp,
  }) as AssistantChatMessage;
const ask = (timestamp: number) => ({ role: 'user' as const, content: 'hi', timestamp });

describe("a session's total tokens and cost", () => {
  it('counts every stored turn, priced and unpriced, in the list and in the summary', () => {
    const store = openHistoryStore(join(root, 'totals.db'));
    try {
      store.appendTurn({ sessionId: 's', message: ask(1) });
      store.appendTurn({
        sessionId: 's',
        message: reply(2, { input: 900, output: 100, totalTokens: 1000 }, true),
        costUsd: 0.002,
      });
      store.appendTurn({
        sessionId: 's',
        message: reply(3, { input: 1100, output: 200, totalTokens: 0 }),
        costUsd: 0.003,
      });
      store.appendTurn({ sessionId: 's', message: ask(4) });
      store.appendTurn({ sessionId: 's', message: reply(5, { input: 10, output: 5, totalTokens: 15 }), costUsd: null });
      store.appendTurn({ sessionId: 'other', message: ask(6) });
      const expected = { tokens: 1000 + 1300 + 15, costUsd: 0.005, unpriced: 1 };
      expect(store.sessionSummary('s')?.usage).toEqual({ ...expected, costUsd: expect.closeTo(0.005, 10) });
      expect(store.listSessions().find((s) => s.id === 's')?.usage).toEqual(store.sessionSummary('s')?.usage);
      expect(store.sessionSummary('other')?.usage).toEqual({ tokens: 0, costUsd: null, unpriced: 0 });
      // A page of the newest turns still carries the whole session's total.
      expect(store.getSession('s', 1)?.session.usage?.tokens).toBe(2315);
    } finally {
      store.close();
    }
  });

  it('the migration counts the turns an older file already had', () => {
    const migration = migrationNamed(/total tokens and cost/);
    const path = join(root, 'before.db');
    const db = historyBefore(path, migration);
    const message = JSON.stringify({ ...reply(2, { input: 40, output: 2, totalTokens: 42 }) });
    db.prepare(
      `INSERT INTO turns (id, session_id, seq, role, message_json, stop_reason, created_at, cost_usd)
       VALUES ('t1', 's', 1, 'assistant', ?, 'stop', 2, 0.25)`,
    ).run(message);
    expect(migrate(db)).toEqual({ from: migration.version - 1, to: LATEST_SCHEMA_VERSION });
    db.close();
    const store = openHistoryStore(path);
    try {
      expect(store.sessionSummary('s')?.usage).toEqual({ tokens: 42, costUsd: 0.25, unpriced: 0 });
    } finally {
      store.close();
    }
  });
});
