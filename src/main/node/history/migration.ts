// The shape of one step of the history's schema: migrations.ts lists them in order, and the files
// that hold a long one (attachment-table.ts, migration-text-once.ts, …) declare theirs with it.
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  description: string;
  up(db: Database.Database): void;
}
