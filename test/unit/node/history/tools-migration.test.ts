// The history migration for tools (src/main/node/history/migrations.ts, "tools: each session's
// workspace, the sandbox audit"), found by its description so the test does not depend on its
// version number: a file from before it keeps its data and gains the columns and the table; the
// store then records workspaces and audit records, and deleting a session takes its audit rows.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import type { SandboxAuditRecord } from '../../../../src/shared/tools';

const root = mkdtempSync(join(tmpdir(), 'resolute-tools-migration-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tools = MIGRATIONS.find((m) => /tools/.test(m.description));
if (!tools) throw new Error('no tools migration');
const before = MIGRATIONS.filter((m) => m.version < tools.version);

const audit = (id: string, sessionId: string): SandboxAuditRecord => ({
  id,
  timestamp: '2026-02-01T10:00:00.000Z',
  sessionId,
  toolCallId: 'call-1',
  toolName: 'write',
  args: { path: '../x', content: 'y' },
  workspace: '/home/me/ws',
  target: '../x',
  reason: 'outside',
});

describe('the tools migration', () => {
  it('upgrades a file from before it, keeping its sessions and turns', () => {
    const path = join(root, 'old.db');
    const db = new Database(path);
    migrate(db, before);
    db.prepare(
      "INSERT INTO sessions (id, title, created_at, updated_at, model, provider) VALUES ('old', 'Old chat', 1, 2, 'm', 'p')",
    ).run();
    db.prepare(
      `INSERT INTO turns (id, session_id, seq, role, text, message_json, created_at)
       VALUES ('t1', 'old', 1, 'user', 'hello', '{"role":"user","content":"hello","timestamp":1}', 1)`,
    ).run();
    expect(migrate(db)).toEqual({ from: tools.version - 1, to: LATEST_SCHEMA_VERSION });
    expect(db.prepare("SELECT workspace FROM sessions WHERE id = 'old'").pluck().get()).toBe('');
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'sandbox_audit'").pluck().get()).toBe(1);
    db.close();

    const store = openHistoryStore(path);
    try {
      expect(store.sessionSummary('old')).toMatchObject({ title: 'Old chat', turnCount: 1, workspace: '' });
      expect(store.getSession('old')?.turns.map((t) => t.text)).toEqual(['hello']);
    } finally {
      store.close();
    }
  });

  it('lets the store record workspaces and audit records, and delete them with their session', () => {
    const store = openHistoryStore(join(root, 'new.db'));
    try {
      store.ensureSession({ id: 's1', title: 'T', model: 'm', provider: 'p', createdAt: 1, workspace: '/home/me/ws' });
      expect(store.sessionSummary('s1')?.workspace).toBe('/home/me/ws');
      store.setSessionWorkspace('s1', '/home/me/other');
      expect(store.listSessions()[0].workspace).toBe('/home/me/other');
      store.recordAudit(audit('a1', 's1'));
      store.recordAudit(audit('a1', 's1')); // the same record twice is stored once
      // An audit for a session the store never saw gets a placeholder row rather than being lost.
      store.recordAudit(audit('a2', 'unseen'));
      expect(store.sessionSummary('unseen')).toBeDefined();
      const db = new Database(store.path, { readonly: true });
      const count = () => db.prepare('SELECT count(*) FROM sandbox_audit').pluck().get();
      expect(count()).toBe(2);
      expect(store.deleteSession('s1')).toBe(true);
      expect(count()).toBe(1);
      db.close();
    } finally {
      store.close();
    }
  });
});
