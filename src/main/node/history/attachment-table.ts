// Attachments in the history, stored once (docs/attachments.md, "In the history"): an image's bytes
// or an attached file's text live in the `attachments` table under the SHA-256 of their bytes, and
// a turn's message_json keeps a `ref` to it in the block's place. `attachment_uses` says which turn
// uses which; a trigger removes an attachment when its last use goes (a session's delete cascades to
// its turns and their uses). SqliteHistoryStore stows on write; HistoryQueries hydrates on read.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ChatMessage } from '../../../shared/messages';
import type { Migration } from './migration';

// In SQLite, not as files beside it: a turn and its attachments are written in one transaction, a
// session's delete takes them in the same one, and a backup or a move of history.db is the whole
// history. Attachments are capped at 20 MB a message, sizes SQLite keeps in BLOBs well.
const SCHEMA_V7 = `
CREATE TABLE attachments (
  hash TEXT PRIMARY KEY,
  mime_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  data BLOB NOT NULL
);
CREATE TABLE attachment_uses (
  turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
  hash TEXT NOT NULL REFERENCES attachments (hash),
  PRIMARY KEY (turn_id, hash)
) WITHOUT ROWID;
CREATE INDEX attachment_uses_by_hash ON attachment_uses (hash);
CREATE TRIGGER attachments_unused AFTER DELETE ON attachment_uses
WHEN NOT EXISTS (SELECT 1 FROM attachment_uses WHERE hash = OLD.hash)
BEGIN
  DELETE FROM attachments WHERE hash = OLD.hash;
END;
`;

export const ATTACHMENTS_MIGRATION: Migration = {
  version: 7,
  description: 'attachments stored once, by the hash of their bytes, with the turns that use them',
  up: (db) => db.exec(SCHEMA_V7),
};

type Block = Record<string, unknown> & { type: string };

/** The bytes a block holds when it came from an attachment (an image's, or a file's text), else null. */
function payloadOf(block: Block): { bytes: Buffer; mimeType: string } | null {
  if (block.type === 'image' && typeof block.data === 'string')
    return { bytes: Buffer.from(block.data, 'base64'), mimeType: String(block.mimeType) };
  if (block.type === 'text' && block.file && typeof block.text === 'string')
    return { bytes: Buffer.from(block.text, 'utf8'), mimeType: 'text/plain' };
  return null;
}

export class AttachmentTable {
  private readonly insertStmt: Database.Statement<[string, string, number, Buffer]>;
  private readonly useStmt: Database.Statement<[string, string]>;
  private readonly readStmt: Database.Statement<[string], Buffer>;

  constructor(db: Database.Database) {
    this.insertStmt = db.prepare(
      'INSERT INTO attachments (hash, mime_type, size, data) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING',
    );
    this.useStmt = db.prepare('INSERT INTO attachment_uses (turn_id, hash) VALUES (?, ?) ON CONFLICT DO NOTHING');
    this.readStmt = db.prepare<[string], Buffer>('SELECT data FROM attachments WHERE hash = ?').pluck();
  }

  /**
   * The message as message_json stores it: each attachment's payload moved into the table (once per
   * hash) and replaced by its ref; `hashes` are for recordUses once the turn's row exists. Runs
   * inside the turn's write transaction; `message` is not changed.
   */
  stow(message: ChatMessage): { stored: ChatMessage; hashes: string[] } {
    if (message.role === 'assistant' || typeof message.content === 'string') return { stored: message, hashes: [] };
    const hashes: string[] = [];
    const content = (message.content as unknown as Block[]).map((block) => {
      const payload = payloadOf(block);
      if (!payload) return block;
      const hash = createHash('sha256').update(payload.bytes).digest('hex');
      this.insertStmt.run(hash, payload.mimeType, payload.bytes.length, payload.bytes);
      hashes.push(hash);
      const rest = { ...block };
      delete rest.data;
      delete rest.text;
      return { ...rest, ref: hash };
    });
    return { stored: hashes.length ? ({ ...message, content } as unknown as ChatMessage) : message, hashes };
  }

  /** The turn `turnId` uses these attachments (its row is written). */
  recordUses(turnId: string, hashes: readonly string[]): void {
    for (const hash of hashes) this.useStmt.run(turnId, hash);
  }

  /** A read message with its refs filled in again (in place); a ref with no row reads as empty. */
  hydrate<M extends ChatMessage>(message: M): M {
    if (message.role === 'assistant' || typeof message.content === 'string') return message;
    for (const block of message.content as unknown as Block[]) {
      if (typeof block.ref !== 'string') continue;
      const bytes = this.readStmt.get(block.ref) ?? Buffer.alloc(0);
      if (block.type === 'image') block.data = bytes.toString('base64');
      else block.text = bytes.toString('utf8');
      delete block.ref;
    }
    return message;
  }
}
