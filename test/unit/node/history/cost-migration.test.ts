// The history migration for what failures cost (src/main/node/history/migrations.ts, "the cost of
// each attempt"), found by its description so the test does not depend on its version number: it
// comes after the tools migration; a file from before it (one that has the tools tables) keeps its
// turns with an unknown cost, and the store then stores and reads each attempt's cost.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { migrationNamed } from '../../../fixtures/history-files';
import type { AssistantChatMessage } from '../../../../src/shared/messages';

const root = mkdtempSync(join(tmpdir(), 'resolute-cost-migration-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const find = migrationNamed;
const cost = find(/cost of each attempt/);
const tools = find(/tools/);

const failed = (timestamp: number): AssistantChatMessage => ({
  role: 'assistant',
  content: [],
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  usage: { input: 1200, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1200 },
  stopReason: 'error',
  errorMessage: '529 overloaded',
  timestamp,
});

describe('the failure-cost migration', () => {
  it('comes after the tools migration, whatever their numbers', () => {
    expect(cost.version).toBeGreaterThan(tools.version);
  });

  it('upgrades a file from before it: old turns have an unknown cost, new ones store theirs', () => {
    const path = join(root, 'before-cost.db');
    const db = new Database(path);
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < cost.version),
    );
    db.prepare(
      "INSERT INTO sessions (id, title, created_at, updated_at, model, provider, workspace) VALUES ('s', 'Old', 1, 2, 'm', 'p', '/ws')",
    ).run();
    db.prepare(
      `INSERT INTO turns (id, session_id, seq, role, text, message_json, created_at)
       VALUES ('t1', 's', 1, 'user', 'hello', '{"role":"user","content":"hello","timestamp":1}', 1)`,
    ).run();
    expect(migrate(db)).toEqual({ from: cost.version - 1, to: LATEST_SCHEMA_VERSION });
    db.close();

    const store = openHistoryStore(path);
    try {
      store.appendTurn({ sessionId: 's', message: failed(3), errorCategory: 'overloaded', costUsd: 0.0036 });
      store.appendTurn({ sessionId: 's', message: failed(4), errorCategory: 'overloaded', costUsd: null });
      const turns = store.getSession('s')!.turns;
      expect(turns.map((t) => [t.role, t.costUsd])).toEqual([
        ['user', null],
        ['assistant', 0.0036],
        ['assistant', null],
      ]);
      expect(store.sessionSummary('s')).toMatchObject({ title: 'Old', workspace: '/ws' });
      expect(store.failureCost(null).total).toMatchObject({ attempts: 2, costUsd: 0.0036, unpricedAttempts: 1 });
    } finally {
      store.close();
    }
  });
});
