// A conversation's own instructions in the history (src/main/node/history/session-instructions.ts,
// docs/thinking-and-context.md, "A conversation's instructions"): the migration that adds their
// table upgrades a file from before it, keeping its sessions; the store reads, replaces and removes
// them, keeps them for a chat that has no stored turn yet, and drops them with their session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { SessionInstructionsStore } from '../../../../src/main/node/session-instructions-store';
import { historyBefore, migrationNamed } from '../../../fixtures/history-files';

const root = mkdtempSync(join(tmpdir(), 'resolute-session-instructions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const own = { text: 'Answer in French.', mode: 'add' as const };

describe("a conversation's own instructions in the history", () => {
  it('the migration comes after the attachments one and upgrades an older file, its sessions kept', () => {
    const migration = migrationNamed(/own instructions/);
    expect(migration.version).toBeGreaterThan(migrationNamed(/attachments/).version);
    const path = join(root, 'before.db');
    const db = historyBefore(path, migration);
    expect(migrate(db)).toEqual({ from: migration.version - 1, to: LATEST_SCHEMA_VERSION });
    db.close();
    const store = openHistoryStore(path);
    try {
      expect(store.sessionInstructions('s')).toBeNull();
      store.setSessionInstructions('s', own);
      expect(store.sessionInstructions('s')).toEqual(own);
      expect(store.sessionSummary('s')?.title).toBe('Old');
    } finally {
      store.close();
    }
  });

  it('are read after a reopen, replaced, removed, and deleted with their session', () => {
    const path = join(root, 'store.db');
    let store = openHistoryStore(path);
    const instructions = new SessionInstructionsStore(store);
    // A new chat with no stored turn yet: kept without making it a row of the History list.
    instructions.set('fresh', own);
    expect(store.listSessions()).toEqual([]);
    store.appendTurn({ sessionId: 'kept', message: { role: 'user', content: 'hi', timestamp: 1 } });
    instructions.set('kept', { text: 'Be a pirate.', mode: 'replace' });
    store.close();

    store = openHistoryStore(path);
    const reopened = new SessionInstructionsStore(store);
    expect(reopened.get('fresh')).toEqual(own);
    expect(reopened.get('kept')).toEqual({ text: 'Be a pirate.', mode: 'replace' });
    reopened.set('kept', own);
    expect(reopened.get('kept')).toEqual(own);
    expect(store.deleteSession('kept')).toBe(true);
    expect(reopened.get('kept')).toBeUndefined();
    reopened.delete('fresh');
    expect(reopened.get('fresh')).toBeUndefined();
    expect(reopened.get('never')).toBeUndefined();
    store.close();
  });
});
