// The wait facts of a stored decision (RetryDecisionRecord.hintMs and maxDelayMs, which the failed
// card reads to say "the provider asked to wait …") on a real SQLite file: kept and read back as
// numbers; a decision stored before they were kept reads them from its reason; one without a hint
// has neither (src/main/node/history/history-rows.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openHistoryStore, type SqliteHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { waitTooLongReason } from '../../../../src/shared/retry-policy/decision-table';
import type { RetryDecisionRecord } from '../../../../src/shared/history';
import { rateLimitAbort } from '../../../fixtures/decision-records';

const root = mkdtempSync(join(tmpdir(), 'resolute-decision-wait-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let store: SqliteHistoryStore | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

function decision(id: string, patch: Partial<RetryDecisionRecord>): RetryDecisionRecord {
  return rateLimitAbort({
    id,
    timestamp: '2026-01-12T10:00:00.000Z',
    reason: 'rate_limit: retry 1 of 4 in 2 s (exponential backoff)',
    errorMessage: '429 Too Many Requests',
    context: { taskType: 'chat', modelId: 'm', provider: 'simulator', sessionId: 's1', turnId: null },
    chainId: null,
    ...patch,
  });
}

function openWithSession(path: string): SqliteHistoryStore {
  const opened = openHistoryStore(path);
  opened.ensureSession({ id: 's1', title: 't', model: 'm', provider: 'simulator', createdAt: 1 });
  return opened;
}

const stored = (s: SqliteHistoryStore) => s.getSession('s1')!.decisions;

describe('the wait facts of a decision', () => {
  it('are stored and read back as numbers', () => {
    store = openWithSession(join(root, 'kept.db'));
    const over = decision('d1', { hintMs: 120_000, maxDelayMs: 60_000, reason: waitTooLongReason(120_000, 60_000) });
    const hinted = decision('d2', { hintMs: 3_000, action: 'retry', finalDecision: null });
    store.recordDecision(over);
    store.recordDecision(hinted);
    store.recordDecision(decision('d3', {}));
    expect(stored(store)).toEqual([over, hinted, decision('d3', {})]);
    expect(stored(store)[2]).not.toHaveProperty('hintMs');
  });

  it('of a decision stored before they were kept are read from its reason', () => {
    const path = join(root, 'older.db');
    store = openWithSession(path);
    store.recordDecision(decision('d1', { reason: waitTooLongReason(120_000, 60_000) }));
    store.close();
    store = undefined;
    // An older version wrote context_json with the context alone: take the wait out again.
    const db = new Database(path);
    const row = db.prepare('SELECT context_json FROM retry_decisions WHERE id = ?').get('d1') as {
      context_json: string;
    };
    expect(JSON.parse(row.context_json)).not.toHaveProperty('wait');
    db.close();
    store = openHistoryStore(path);
    expect(stored(store)[0]).toMatchObject({ hintMs: 120_000, maxDelayMs: 60_000 });
  });
});
