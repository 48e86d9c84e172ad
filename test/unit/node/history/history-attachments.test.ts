// Attachments in the SQLite history (attachment-table.ts) on real database files: stored once by
// the hash of their bytes, message_json keeping only a ref, read back whole by every read (the
// session, its pages, the resume context, the exports), and removed with the last session using them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { UserChatMessage } from '../../../../src/shared/messages';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';

const root = mkdtempSync(join(tmpdir(), 'resolute-attach-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const file = { name: 'shot.png', mimeType: 'image/png', size: 16 };
const notes = { name: 'notes.md', mimeType: 'text/markdown', size: 5 };

function withAttachments(text: string, timestamp: number): UserChatMessage {
  return {
    role: 'user',
    timestamp,
    content: [
      { type: 'text', text },
      { type: 'image', data: PNG, mimeType: 'image/png', file },
      { type: 'text', text: 'Attached file "notes.md":\n```\nhello\n```', file: notes },
    ],
  };
}

let n = 0;
function fresh() {
  n += 1;
  const path = join(root, `h${n}.db`);
  const store = openHistoryStore(path);
  const raw = new Database(path, { readonly: true });
  return { store, raw, path };
}

const count = (raw: Database.Database, table: string) =>
  raw.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

describe('attachments in the history', () => {
  it('stores each payload once and keeps a ref in the message', () => {
    const { store, raw } = fresh();
    store.ensureSession({ id: 's1', title: 'one', model: 'm', provider: 'p', createdAt: 1 });
    store.appendTurn({ sessionId: 's1', message: withAttachments('Look', 1) });
    store.appendTurn({ sessionId: 's1', message: withAttachments('Look again', 2) });
    expect(count(raw, 'attachments')).toBe(2);
    expect(count(raw, 'attachment_uses')).toBe(4);
    const json = raw.prepare('SELECT message_json FROM turns ORDER BY seq').pluck().all() as string[];
    expect(json[0]).not.toContain(PNG);
    expect(json[0]).not.toContain('hello');
    expect(JSON.parse(json[0]).content[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      file,
      ref: expect.any(String),
    });
    store.close();
    raw.close();
  });

  it('reads them back whole after a reopen: the session, a page, the context, the exports', () => {
    const { store, raw, path } = fresh();
    store.ensureSession({ id: 's1', title: 'one', model: 'm', provider: 'p', createdAt: 1 });
    store.appendTurn({ sessionId: 's1', message: withAttachments('Look', 1) });
    store.close();
    const again = openHistoryStore(path);
    const expected = withAttachments('Look', 1).content;
    expect(again.getSession('s1')?.turns[0].message.content).toEqual(expected);
    expect(again.getSession('s1', 10)?.turns[0].message.content).toEqual(expected);
    expect(again.loadContext('s1')[0].content).toEqual(expected);
    // The person's words are the turn's text; the file's text is not.
    expect(again.getSession('s1')?.turns[0].text).toBe('Look');
    const json = JSON.parse(again.exportSession('s1', 'json')?.content ?? '{}');
    expect(json.turns[0].message.content[1].data).toBe(PNG);
    const markdown = again.exportSession('s1', 'markdown')?.content ?? '';
    expect(markdown).toContain(`![shot.png](data:image/png;base64,${PNG})`);
    expect(markdown).toContain('<details><summary>notes.md</summary>');
    again.close();
    raw.close();
  });

  it("deletes a session's attachments unless another session's turn uses them", () => {
    const { store, raw } = fresh();
    for (const id of ['s1', 's2']) store.ensureSession({ id, title: id, model: 'm', provider: 'p', createdAt: 1 });
    store.appendTurn({ sessionId: 's1', message: withAttachments('Look', 1) });
    store.appendTurn({
      sessionId: 's2',
      message: { role: 'user', timestamp: 2, content: [{ type: 'image', data: PNG, mimeType: 'image/png', file }] },
    });
    store.deleteSession('s1');
    expect(count(raw, 'attachments')).toBe(1);
    expect(store.getSession('s2')?.turns[0].message.content).toEqual([
      { type: 'image', data: PNG, mimeType: 'image/png', file },
    ]);
    store.deleteSession('s2');
    expect(count(raw, 'attachments')).toBe(0);
    expect(count(raw, 'attachment_uses')).toBe(0);
    store.close();
    raw.close();
  });
});
