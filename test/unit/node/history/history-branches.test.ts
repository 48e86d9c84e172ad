// Tests of what the chat's message actions need from the SQLite history (real files in a temp
// folder): branches (an edited message or a regenerated reply replaces turns on the active path
// while every turn stays stored), the resume and rewind context, a file from before branches
// migrated in place, search over error text, renaming, and the rewinds worked out for the session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SNIPPET_CLOSE, SNIPPET_OPEN, activePath, titleFromText } from '../../../../src/shared/history';
import type { AssistantChatMessage, UserChatMessage } from '../../../../src/shared/messages';
import { errorSnippet } from '../../../../src/main/node/history/history-search';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore, type SqliteHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { rewindForEdit, rewindForRegenerate } from '../../../../src/main/node/conversation-edits';

const root = mkdtempSync(join(tmpdir(), 'resolute-branches-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const stores: SqliteHistoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
let n = 0;

function store(path = join(root, `h${(n += 1)}.db`)): SqliteHistoryStore {
  const opened = openHistoryStore(path);
  stores.push(opened);
  return opened;
}

const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
const user = (text: string, timestamp = n): UserChatMessage => ({ role: 'user', content: text, timestamp });
const reply = (text: string, error?: string): AssistantChatMessage => ({
  role: 'assistant',
  content: text ? [{ type: 'text', text }] : [],
  provider: 'simulator',
  model: 'resolute-sim-1',
  usage,
  stopReason: error ? 'error' : 'stop',
  ...(error ? { errorMessage: error } : {}),
  timestamp: 1,
});

/** s: "first?" → "one", "second?" → failed → "two"; returns the store and the turns' ids by name. */
function conversation() {
  const history = store();
  history.ensureSession({ id: 's', title: 'Branches', model: 'm', provider: 'p', createdAt: 1 });
  const add = (message: UserChatMessage | AssistantChatMessage, extra: { branchFrom?: number } = {}) =>
    history.appendTurn({
      sessionId: 's',
      message,
      errorCategory: message.role === 'assistant' && message.errorMessage ? 'server_error' : null,
      ...extra,
    });
  const ids = {
    first: add(user('first?')).id,
    one: add(reply('one')).id,
    second: add(user('second?')).id,
    failed: add(reply('', '503 Service Unavailable from the upstream')).id,
    two: add(reply('two')).id,
  };
  return { history, add, ids };
}

const texts = (history: SqliteHistoryStore) =>
  history
    .loadContext('s')
    .map((m) =>
      typeof m.content === 'string' ? m.content : m.content.map((b) => ('text' in b ? b.text : '')).join(''),
    );

describe('branches in the history', () => {
  it('an edit replaces the edited message and what followed on the active path; every turn stays stored', () => {
    const { history, add, ids } = conversation();
    const rewind = rewindForEdit(history, 's', ids.second);
    expect(rewind.branchFrom).toBe(3);
    expect(rewind.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    add(user('second, edited?'), { branchFrom: rewind.branchFrom! });
    add(reply('two, again'));
    const detail = history.getSession('s')!;
    expect(detail.turns).toHaveLength(7);
    expect(activePath(detail.turns).map((t) => t.text)).toEqual(['first?', 'one', 'second, edited?', 'two, again']);
    expect(texts(history)).toEqual(['first?', 'one', 'second, edited?', 'two, again']);
    // Stored and read back: the branch marker survives a reopen.
    expect(detail.turns[5].branchFrom).toBe(3);
    expect(detail.session.turnCount).toBe(3);
  });

  it('regenerate replaces a reply that arrived, and adds after a reply that only failed', () => {
    const { history, add } = conversation();
    const replace = rewindForRegenerate(history, 's');
    expect(replace.branchFrom).toBe(4);
    expect(replace.messages.at(-1)).toMatchObject({ role: 'user', content: 'second?' });
    add(reply('', '429 slow down'), { branchFrom: 4 });
    const retry = rewindForRegenerate(history, 's');
    expect(retry.branchFrom).toBeNull();
    expect(retry.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('refuses to edit a reply, an unknown turn or a replaced one', () => {
    const { history, add, ids } = conversation();
    expect(() => rewindForEdit(history, 's', ids.one)).toThrow(/own messages/);
    expect(() => rewindForEdit(history, 's', 'nope')).toThrow(/not in the current conversation/);
    add(user('first, edited'), { branchFrom: 1 });
    expect(() => rewindForEdit(history, 's', ids.second)).toThrow(/not in the current conversation/);
    const empty = store();
    expect(() => rewindForRegenerate(empty, 'none')).toThrow(/no message of yours/);
  });

  it('migrates a file from before branches in place and keeps its turns', () => {
    // A real file of the version before branches (found by its description, not its number), with a turn in it.
    const branches = MIGRATIONS.find((m) => /branches/.test(m.description));
    if (!branches) throw new Error('no migration for turn branches');
    const path = join(root, 'before-branches.db');
    const before = new Database(path);
    migrate(
      before,
      MIGRATIONS.filter((m) => m.version < branches.version),
    );
    const hasBranchFrom = before.prepare("SELECT count(*) FROM pragma_table_info('turns') WHERE name = 'branch_from'");
    expect(hasBranchFrom.pluck().get()).toBe(0);
    before.prepare(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('old', 'Old', 1, 1)`).run();
    before
      .prepare(
        `INSERT INTO turns (id, session_id, seq, role, text, message_json, created_at) VALUES ('t1', 'old', 1, 'user', 'hi', ?, 1)`,
      )
      .run(JSON.stringify(user('hi', 1)));
    before.close();
    const reopened = store(path);
    expect(reopened.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(reopened.getSession('old')!.turns.map((t) => [t.text, t.branchFrom])).toEqual([['hi', null]]);
    expect(reopened.loadContext('old')).toEqual([user('hi', 1)]);
  });
});

describe('branches and paged reads', () => {
  /** `turns` turns, person and reply in turn, then the person's message at seq `editOf` edited (and answered). */
  function editedSession(turns: number, editOf: number) {
    const history = store();
    history.ensureSession({ id: 's', title: 'Edited', model: 'm', provider: 'p', createdAt: 1 });
    for (let seq = 1; seq <= turns; seq += 1)
      history.appendTurn({ sessionId: 's', message: seq % 2 === 1 ? user(`q${seq}`, seq) : reply(`a${seq}`) });
    history.appendTurn({ sessionId: 's', message: user(`q${editOf}, edited`, turns + 1), branchFrom: editOf });
    history.appendTurn({ sessionId: 's', message: reply(`a${turns + 2}`) });
    return history;
  }

  it('the newest page shows its part of the path; the next page starts below what the edit replaced', () => {
    const history = editedSession(250, 101);
    const path = activePath(history.getSession('s')!.turns).map((t) => t.seq);
    const newest = history.getSession('s', 100)!;
    expect(newest.turns.map((t) => t.seq)).toEqual(Array.from({ length: 100 }, (_, i) => 153 + i));
    // Seqs 153–250 were replaced by the edit at 251 (from 101 on): only the branch is on this page's path.
    expect(activePath(newest.turns).map((t) => t.seq)).toEqual([251, 252]);
    expect(newest.hasOlderTurns).toBe(true);
    // Not 53–152 (replaced as well): the page before 153 ends below 101, where the path goes on.
    const older = history.sessionTurns('s', 153, 100)!;
    expect(older.turns.map((t) => t.seq)).toEqual(Array.from({ length: 100 }, (_, i) => 1 + i));
    expect(older.hasOlderTurns).toBe(false);
    expect(activePath([...older.turns, ...newest.turns]).map((t) => t.seq)).toEqual(path);
  });

  it('says there are no older turns when everything before the page was replaced', () => {
    const history = editedSession(20, 1);
    const newest = history.getSession('s', 5)!;
    expect(activePath(newest.turns).map((t) => t.seq)).toEqual([21, 22]);
    expect(newest.hasOlderTurns).toBe(false);
    expect(history.sessionTurns('s', 18, 5)!.turns).toEqual([]);
  });
});

describe('search, rename and titles', () => {
  it('finds a failed turn by words of its error text, marked in the snippet', () => {
    const { history, ids } = conversation();
    const hits = history.search('upstream 503');
    expect(hits.map((h) => h.turnId)).toEqual([ids.failed]);
    expect(hits[0].snippet).toContain(`${SNIPPET_OPEN}503${SNIPPET_CLOSE}`);
    expect(hits[0].snippet).toContain(`${SNIPPET_OPEN}upstream${SNIPPET_CLOSE}`);
    expect(history.search('upstream nowhere')).toEqual([]);
    expect(history.search('50%')).toEqual([]);
    expect(errorSnippet('x'.repeat(200) + ' boom', ['boom'])).toBe(
      `…${'x'.repeat(59)} ${SNIPPET_OPEN}boom${SNIPPET_CLOSE}`,
    );
  });

  it('renames a session; an unknown one is refused', () => {
    const { history } = conversation();
    expect(history.renameSession('s', 'Renamed')).toBe(true);
    expect(history.sessionSummary('s')?.title).toBe('Renamed');
    expect(history.renameSession('nope', 'x')).toBe(false);
  });

  it('cuts a long first message at a word with an ellipsis, and CJK text at the limit', () => {
    expect(titleFromText('short one')).toBe('short one');
    const long = 'Why do retries need a decision table when every provider sends different errors anyway?';
    const title = titleFromText(long);
    expect(title.endsWith('…')).toBe(true);
    expect([...title].length).toBeLessThanOrEqual(60);
    expect(long.startsWith(title.slice(0, -1))).toBe(true);
    expect(long.charAt(title.length - 1)).toBe(' ');
    const cjk = '再試行の判断表がなぜ必要なのかを詳しく説明してください。'.repeat(4);
    expect([...titleFromText(cjk)].length).toBe(60);
  });
});
