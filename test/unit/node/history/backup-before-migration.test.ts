// The copy a newer Resolute keeps before it migrates the history (history-open.ts): a file at an
// older schema is copied whole (VACUUM INTO, WAL commits included) beside it, private, and the copy
// still reads at the old schema with its chats, so a downgrade opens it; a new file and a file
// already at the latest schema get no copy; a second copy of the same schema does not overwrite the first.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';

const root = mkdtempSync(join(tmpdir(), 'resolute-backup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const older = MIGRATIONS.filter((m) => m.version < LATEST_SCHEMA_VERSION);
const olderVersion = older[older.length - 1].version;

/** A history file one migration behind, with a chat written through its WAL and left open there. */
function olderFile(name: string): string {
  const path = join(root, name);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  migrate(db, older);
  db.prepare(
    "INSERT INTO sessions (id, title, created_at, updated_at, model, provider) VALUES ('old', 'Old chat', 1, 2, 'm', 'p')",
  ).run();
  db.close();
  return path;
}

describe('the copy kept before a migration', () => {
  it('is the file as it was, beside it, private, and named in what the store reports', () => {
    const path = olderFile('history.db');
    const store = openHistoryStore(path);
    const backup = store.backupBeforeMigration;
    store.close();
    expect(backup).toEqual({
      path: `${path}.schema-${olderVersion}.bak`,
      from: olderVersion,
      to: LATEST_SCHEMA_VERSION,
    });
    const copy = new Database(backup!.path, { readonly: true });
    expect(copy.pragma('user_version', { simple: true })).toBe(olderVersion);
    expect(copy.prepare('SELECT title FROM sessions').all()).toEqual([{ title: 'Old chat' }]);
    copy.close();
    if (process.platform !== 'win32') expect(statSync(backup!.path).mode & 0o777).toBe(0o600);
    const migrated = new Database(path, { readonly: true });
    expect(migrated.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    migrated.close();
  });

  it('is not made for a new file or one already at the latest schema', () => {
    const path = join(root, 'new.db');
    const fresh = openHistoryStore(path);
    expect(fresh.backupBeforeMigration).toBeNull();
    fresh.close();
    const again = openHistoryStore(path);
    expect(again.backupBeforeMigration).toBeNull();
    again.close();
    expect(existsSync(`${path}.schema-0.bak`)).toBe(false);
  });

  it('never overwrites an earlier copy', () => {
    const path = olderFile('twice.db');
    openHistoryStore(path).close();
    // The same older file again (a restored one, say): its copy takes a number.
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    olderFile('twice.db');
    const store = openHistoryStore(path);
    expect(basename(store.backupBeforeMigration!.path)).toBe(`twice.db.schema-${olderVersion}-2.bak`);
    store.close();
    expect(existsSync(`${path}.schema-${olderVersion}.bak`)).toBe(true);
  });
});
