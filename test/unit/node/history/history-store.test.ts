// Tests of the SQLite history store (src/main/node/history) on real database files in a temp
// folder: the retry sequence of docs/retry-policy.md end to end, chain outcomes, listing, search
// with hostile queries, errored turns, cascading delete, export, migrations, and the refusal (byte
// for byte untouched) of newer-version and damaged files, with `startFresh` moving a damaged one
// aside.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ErrorCategory } from '../../../../src/shared/error-category';
import type { RetryDecisionRecord } from '../../../../src/shared/history';
import type { AssistantChatMessage, ChatMessage, UserChatMessage } from '../../../../src/shared/messages';
import { HistoryDatabaseError } from '../../../../src/main/node/history/history-errors';
import { toFtsQuery } from '../../../../src/main/node/history/history-search';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../../src/shared/history';
import {
  LATEST_SCHEMA_VERSION,
  migrate,
  MIGRATIONS,
  type Migration,
} from '../../../../src/main/node/history/migrations';
import { openHistoryStore, type SqliteHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { writeDamagedHistory } from '../../../fixtures/history-files';

const root = mkdtempSync(join(tmpdir(), 'resolute-history-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
const open: SqliteHistoryStore[] = [];
afterEach(() => {
  while (open.length > 0) open.pop()!.close();
});

function freshPath(): string {
  counter += 1;
  const dir = join(root, `case-${counter}`);
  mkdirSync(dir);
  return join(dir, 'history.db');
}

function openStore(path = freshPath()): SqliteHistoryStore {
  const store = openHistoryStore(path);
  open.push(store);
  return store;
}

const T0 = Date.UTC(2025, 0, 15, 9, 30);
const usage = { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 150 };

function user(text: string, timestamp: number): UserChatMessage {
  return { role: 'user', content: text, timestamp };
}

function assistant(
  text: string,
  timestamp: number,
  error?: { message: string; stopReason?: 'error' | 'aborted' },
): AssistantChatMessage {
  return {
    role: 'assistant',
    content: text === '' ? [] : [{ type: 'text', text }],
    provider: 'anthropic',
    model: 'claude-test',
    usage,
    stopReason: error?.stopReason ?? (error ? 'error' : 'stop'),
    ...(error ? { errorMessage: error.message } : {}),
    timestamp,
  };
}

function decision(
  sessionId: string,
  turnId: string | null,
  chainId: string | null,
  attempt: number,
  patch: Partial<RetryDecisionRecord> = {},
): RetryDecisionRecord {
  return {
    id: `${chainId ?? 'none'}-d${attempt}`,
    timestamp: new Date(T0 + attempt * 1000).toISOString(),
    level: 'INFO',
    errorType: 'ModelServerError',
    category: 'server_error',
    attempt,
    action: 'retry',
    waitSeconds: 2 ** attempt,
    reason: 'server error: retry with backoff',
    errorMessage: '503 Service Unavailable',
    context: { taskType: 'chat', modelId: 'claude-test', provider: 'anthropic', sessionId, turnId },
    finalDecision: null,
    chainId,
    ...patch,
  };
}

function newSession(store: SqliteHistoryStore, id: string, title = `Session ${id}`, createdAt = T0): void {
  store.ensureSession({ id, title, model: 'claude-test', provider: 'anthropic', createdAt });
}

/** The sequence of the brief: user, 503, decision, 503, decision, success — chain c1 recovered. */
function recordRecoveredSequence(store: SqliteHistoryStore, sessionId = 's1', chainId = 'c1'): { turnIds: string[] } {
  newSession(store, sessionId, 'Weather in Lisbon');
  const u = store.appendTurn({ sessionId, message: user('What is the weather in Lisbon?', T0) });
  store.openChain({ id: chainId, sessionId, startedAt: T0 + 1000 });
  const e1 = store.appendTurn({
    sessionId,
    message: assistant('', T0 + 1000, { message: '503 Service Unavailable' }),
    errorCategory: 'server_error',
    chainId,
  });
  store.recordDecision(decision(sessionId, e1.id, chainId, 1));
  const e2 = store.appendTurn({
    sessionId,
    message: assistant('', T0 + 4000, { message: '503 Service Unavailable (again)' }),
    errorCategory: 'server_error',
    chainId,
  });
  store.recordDecision(decision(sessionId, e2.id, chainId, 2));
  const ok = store.appendTurn({ sessionId, message: assistant('Sunny, 21 °C.', T0 + 9000) });
  store.linkTurnToChain(ok.id, chainId);
  store.recordDecision(
    decision(sessionId, ok.id, chainId, 3, {
      action: 'skip',
      waitSeconds: 0,
      reason: 'answer received',
      finalDecision: 'success',
    }),
  );
  store.closeChain(chainId, { outcome: 'recovered', attempts: 2, finalError: null, endedAt: T0 + 9000 });
  return { turnIds: [u.id, e1.id, e2.id, ok.id] };
}

function chainOf(store: SqliteHistoryStore, sessionId: string, chainId: string) {
  return store.getSession(sessionId)?.chains.find((chain) => chain.id === chainId);
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function expectHistoryError(fn: () => unknown, kind: HistoryDatabaseError['kind']): HistoryDatabaseError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HistoryDatabaseError);
    expect((error as HistoryDatabaseError).kind).toBe(kind);
    return error as HistoryDatabaseError;
  }
  throw new Error(`expected a HistoryDatabaseError(${kind})`);
}

describe('SqliteHistoryStore: a recovered retry sequence', () => {
  it('stores every turn in order with its category, message and chain, and the decisions linked to turns', () => {
    const path = freshPath();
    const store = openStore(path);
    const { turnIds } = recordRecoveredSequence(store);
    store.close();
    // Read back through a new connection: what we check was committed to the file.
    const reopened = openStore(path);
    const detail = reopened.getSession('s1')!;
    expect(detail.turns.map((t) => [t.seq, t.role, t.stopReason, t.errorCategory, t.errorMessage, t.chainId])).toEqual([
      [1, 'user', null, null, null, null],
      [2, 'assistant', 'error', 'server_error', '503 Service Unavailable', 'c1'],
      [3, 'assistant', 'error', 'server_error', '503 Service Unavailable (again)', 'c1'],
      [4, 'assistant', 'stop', null, null, 'c1'],
    ]);
    expect(detail.turns.map((t) => t.id)).toEqual(turnIds);
    expect(detail.turns[0].text).toBe('What is the weather in Lisbon?');
    expect(detail.turns[3]).toMatchObject({
      text: 'Sunny, 21 °C.',
      model: 'claude-test',
      provider: 'anthropic',
      usage,
      createdAt: T0 + 9000,
    });
    expect(detail.turns[3].message).toEqual(assistant('Sunny, 21 °C.', T0 + 9000));
    expect(detail.chains).toEqual([
      {
        id: 'c1',
        sessionId: 's1',
        outcome: 'recovered',
        attempts: 2,
        finalError: null,
        startedAt: T0 + 1000,
        endedAt: T0 + 9000,
      },
    ]);
    expect(detail.decisions.map((d) => [d.attempt, d.action, d.context.turnId, d.finalDecision])).toEqual([
      [1, 'retry', turnIds[1], null],
      [2, 'retry', turnIds[2], null],
      [3, 'skip', turnIds[3], 'success'],
    ]);
    expect(detail.decisions[0]).toEqual(decision('s1', turnIds[1], 'c1', 1));
    // One exchange, which recovered: no exchange ended in an error.
    expect(detail.session).toMatchObject({
      title: 'Weather in Lisbon',
      turnCount: 1,
      erroredTurnCount: 0,
      updatedAt: T0 + 9000,
    });
  });

  it('loads the resume context without the errored assistant turns', () => {
    const store = openStore();
    recordRecoveredSequence(store);
    expect(store.loadContext('s1')).toEqual([
      user('What is the weather in Lisbon?', T0),
      assistant('Sunny, 21 °C.', T0 + 9000),
    ]);
  });

  it('keeps aborted assistant turns in the context', () => {
    const store = openStore();
    newSession(store, 's2');
    store.appendTurn({ sessionId: 's2', message: user('hi', T0) });
    const aborted = assistant('partial answ', T0 + 1, { message: 'Request was aborted', stopReason: 'aborted' });
    store.appendTurn({ sessionId: 's2', message: aborted, errorCategory: 'aborted' });
    expect(store.loadContext('s2')).toEqual([user('hi', T0), aborted]);
    expect(store.listSessions()[0].erroredTurnCount).toBe(0);
  });

  it('stores tool results and turns that arrive before ensureSession', () => {
    const store = openStore();
    const toolResult: ChatMessage = {
      role: 'toolResult',
      toolCallId: 't1',
      toolName: 'read',
      content: [{ type: 'text', text: 'file body' }],
      isError: false,
      timestamp: T0,
    };
    const turn = store.appendTurn({ sessionId: 'early', message: toolResult });
    expect(turn).toMatchObject({
      seq: 1,
      role: 'toolResult',
      text: 'file body',
      model: null,
      stopReason: null,
      usage: null,
    });
    newSession(store, 'early', 'Filled in later');
    // A tool result is part of an exchange, not one of its own.
    expect(store.getSession('early')?.session).toMatchObject({
      title: 'Filled in later',
      model: 'claude-test',
      turnCount: 0,
    });
  });
});

describe('SqliteHistoryStore: chains, decisions and missing ids', () => {
  it.each([
    ['exhausted', 5, '503 Service Unavailable'],
    ['cancelled', 1, 'cancelled by the person'],
    ['disabled', 0, '429 Too Many Requests'],
  ] as const)('stores a chain that ended %s', (outcome, attempts, finalError) => {
    const store = openStore();
    newSession(store, 's');
    store.openChain({ id: `c-${outcome}`, sessionId: 's', startedAt: T0 });
    expect(chainOf(store, 's', `c-${outcome}`)).toMatchObject({ outcome: 'pending', attempts: 0, endedAt: null });
    const category: ErrorCategory = outcome === 'disabled' ? 'rate_limit' : 'server_error';
    const turn = store.appendTurn({
      sessionId: 's',
      message: assistant('', T0 + 5, { message: finalError }),
      errorCategory: category,
      chainId: `c-${outcome}`,
    });
    store.recordDecision(
      decision('s', turn.id, `c-${outcome}`, attempts + 1, {
        level: 'WARNING',
        action: 'abort',
        finalDecision: 'abort',
        category,
      }),
    );
    store.closeChain(`c-${outcome}`, { outcome, attempts, finalError, endedAt: T0 + 10 });
    expect(chainOf(store, 's', `c-${outcome}`)).toEqual({
      id: `c-${outcome}`,
      sessionId: 's',
      outcome,
      attempts,
      finalError,
      startedAt: T0,
      endedAt: T0 + 10,
    });
    expect(store.getSession('s')!.decisions).toMatchObject([
      { level: 'WARNING', action: 'abort', finalDecision: 'abort', category },
    ]);
  });

  it('stores a decision recorded twice once', () => {
    const store = openStore();
    newSession(store, 's');
    store.recordDecision(decision('s', null, null, 1));
    store.recordDecision(decision('s', null, null, 1));
    expect(store.getSession('s')!.decisions).toHaveLength(1);
  });

  it('answers unknown ids with undefined, false or empty, and ignores writes to them', () => {
    const store = openStore();
    expect(store.getSession('nope')).toBeUndefined();
    expect(store.sessionSummary('nope')).toBeUndefined();
    expect(store.loadContext('nope')).toEqual([]);
    expect(store.deleteSession('nope')).toBe(false);
    expect(store.exportSession('nope', 'markdown')).toBeUndefined();
    expect(store.erroredTurns()).toEqual([]);
    expect(() =>
      store.closeChain('nope', { outcome: 'exhausted', attempts: 1, finalError: null, endedAt: T0 }),
    ).not.toThrow();
    expect(() => store.linkTurnToChain('nope', 'nope')).not.toThrow();
    expect(store.listSessions()).toEqual([]);
  });
});

describe('SqliteHistoryStore: listing, search and errored turns', () => {
  it('lists sessions newest first with turn and errored-turn counts, paged', () => {
    const store = openStore();
    recordRecoveredSequence(store, 'a', 'ca');
    newSession(store, 'b', 'Later session', T0 + 60_000);
    store.appendTurn({ sessionId: 'b', message: user('hello', T0 + 60_000) });
    newSession(store, 'c', 'Empty session', T0 - 60_000);
    expect(store.listSessions().map((s) => [s.id, s.title, s.turnCount, s.erroredTurnCount])).toEqual([
      ['b', 'Later session', 1, 0],
      ['a', 'Weather in Lisbon', 1, 0],
      ['c', 'Empty session', 0, 0],
    ]);
    // One row alone (what history_changed carries) is the same row the list shows.
    expect(store.sessionSummary('a')).toEqual(store.listSessions()[1]);
    expect(store.listSessions({ limit: 1, offset: 1 }).map((s) => s.id)).toEqual(['a']);
    expect(store.listSessions({ limit: 0, offset: -5 }).map((s) => s.id)).toEqual(['b']);
  });

  it('finds turns by words and prefixes, with a marked snippet and the session title', () => {
    const store = openStore();
    recordRecoveredSequence(store);
    const hits = store.search('lisbon weather');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ sessionId: 's1', sessionTitle: 'Weather in Lisbon', role: 'user', createdAt: T0 });
    expect(hits[0].snippet).toContain(`${SNIPPET_OPEN}Lisbon${SNIPPET_CLOSE}`);
    expect(store.search('sun').map((h) => h.role)).toEqual(['assistant']);
    expect(store.search('tokyo')).toEqual([]);
  });

  it('never throws on hostile query strings and treats them as plain words', () => {
    const store = openStore();
    recordRecoveredSequence(store);
    const nasty = [
      '"',
      '"weather',
      'weather"',
      '(',
      'weather)',
      '((weather',
      '*',
      '-',
      ':',
      '-weather',
      'weather*',
      'text:weather',
      'NEAR(weather',
      'AND',
      'OR weather',
      'NOT',
      "'",
      '\\',
      '^weather',
      '{text}: weather',
      '+weather',
      'weather -lisbon',
      '',
      '   ',
    ];
    for (const query of nasty) {
      expect(() => store.search(query), query).not.toThrow();
    }
    for (const query of [
      '"weather',
      'weather)',
      '((weather',
      '-weather',
      'weather*',
      '^weather',
      '+weather',
      'weather -lisbon',
      'Lisbon?',
    ]) {
      expect(
        store.search(query).map((h) => h.role),
        query,
      ).toEqual(['user']);
    }
    expect(store.search('*')).toEqual([]);
    expect(toFtsQuery('a "b" -c*')).toBe('"a" "b" "-c*"*');
    expect(toFtsQuery(' - : ')).toBeNull();
  });

  it('counts exchanges that ended in an error once per chain; recovered, pending and compacted chains do not count', () => {
    const store = openStore();
    newSession(store, 'e');
    const failOnce = (chainId: string | null, at: number) =>
      store.appendTurn({
        sessionId: 'e',
        message: assistant('', at, { message: '503' }),
        errorCategory: 'server_error',
        chainId,
      });
    for (const [chainId, outcome] of [
      ['x1', 'exhausted'],
      ['x2', 'recovered'],
      ['x3', 'pending'],
      ['x4', 'compacted'],
      ['x5', 'cancelled'],
    ] as const) {
      store.appendTurn({ sessionId: 'e', message: user(`ask ${chainId}`, T0) });
      store.openChain({ id: chainId, sessionId: 'e', startedAt: T0 });
      failOnce(chainId, T0 + 1);
      failOnce(chainId, T0 + 2);
      if (outcome !== 'pending')
        store.closeChain(chainId, { outcome, attempts: 1, finalError: '503', endedAt: T0 + 3 });
    }
    store.appendTurn({ sessionId: 'e', message: user('no chain', T0) });
    failOnce(null, T0 + 4);
    expect(store.sessionSummary('e')).toMatchObject({ turnCount: 6, erroredTurnCount: 3 });
  });

  it('lists errored turns across sessions, newest first, with session title, chain and decisions', () => {
    const store = openStore();
    const { turnIds } = recordRecoveredSequence(store, 's1', 'c1');
    newSession(store, 's2', 'Second');
    store.openChain({ id: 'c2', sessionId: 's2', startedAt: T0 + 50_000 });
    const late = store.appendTurn({
      sessionId: 's2',
      message: assistant('', T0 + 50_000, { message: '429 rate limited' }),
      errorCategory: 'rate_limit',
      chainId: 'c2',
    });
    store.closeChain('c2', { outcome: 'exhausted', attempts: 3, finalError: '429 rate limited', endedAt: T0 + 60_000 });
    const errored = store.erroredTurns();
    // One entry per chain, headed by its latest failure, with every attempt and every decision.
    expect(
      errored.map((e) => [
        e.turn.id,
        e.session.title,
        e.chain?.outcome,
        e.attempts.map((a) => a.id),
        e.decisions.map((d) => d.attempt),
      ]),
    ).toEqual([
      [late.id, 'Second', 'exhausted', [late.id], []],
      [turnIds[2], 'Weather in Lisbon', 'recovered', [turnIds[1], turnIds[2]], [1, 2, 3]],
    ]);
    expect(errored[0].turn.errorCategory).toBe('rate_limit');
    expect(store.erroredTurns(1)).toHaveLength(1);
  });

  it('reads a turn back as it was written through every query: whole session, a page, the errored list', () => {
    // The session reads take value arrays by position (TURN_COLUMNS), the errored list a row with
    // named keys: a column out of place on either side changes a field here.
    const store = openStore();
    newSession(store, 'r', 'Reads');
    const asked = store.appendTurn({ sessionId: 'r', message: user('Is it up?', T0) });
    const failed = store.appendTurn({
      sessionId: 'r',
      message: assistant('', T0 + 1000, { message: '500 internal error' }),
      errorCategory: 'server_error',
    });
    expect(store.getSession('r')?.turns).toEqual([asked, failed]);
    expect(store.getSession('r', 1)?.turns).toEqual([failed]);
    expect(store.sessionTurns('r', failed.seq)?.turns).toEqual([asked]);
    const lone = store.erroredTurns().find((entry) => entry.turn.id === failed.id);
    expect(lone?.turn).toEqual(failed);
    expect(lone?.attempts).toEqual([failed]);
    expect(lone?.chain).toBeNull();
  });
});

describe('SqliteHistoryStore: delete and export', () => {
  it('deletes a session with its turns, chains, decisions and search entries', () => {
    const path = freshPath();
    const store = openStore(path);
    recordRecoveredSequence(store, 'gone', 'cg');
    recordRecoveredSequence(store, 'kept', 'ck');
    expect(store.deleteSession('gone')).toBe(true);
    expect(store.deleteSession('gone')).toBe(false);
    expect(store.getSession('gone')).toBeUndefined();
    expect(store.search('lisbon').map((h) => h.sessionId)).toEqual(['kept']);
    expect(store.erroredTurns().every((e) => e.session.id === 'kept')).toBe(true);
    const raw = new Database(path);
    try {
      const count = (sql: string): number => Number(raw.prepare(sql).pluck().get());
      expect(count("SELECT count(*) FROM turns WHERE session_id = 'gone'")).toBe(0);
      expect(count("SELECT count(*) FROM retry_chains WHERE session_id = 'gone'")).toBe(0);
      expect(count("SELECT count(*) FROM retry_decisions WHERE session_id = 'gone'")).toBe(0);
      expect(count('SELECT count(*) FROM turns')).toBe(4);
      // The FTS index agrees with its content table: the cascade removed the deleted rows from it.
      expect(() => raw.exec("INSERT INTO turns_fts (turns_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    } finally {
      raw.close();
    }
  });

  it('exports JSON as the session detail, pretty-printed', () => {
    const store = openStore();
    recordRecoveredSequence(store);
    const exported = store.exportSession('s1', 'json')!;
    expect(exported.mimeType).toBe('application/json');
    expect(exported.filename).toBe('resolute-weather-in-lisbon-2025-01-15.json');
    // The session detail, and its file history (none here: no tool changed a file).
    expect(JSON.parse(exported.content)).toEqual({
      ...store.getSession('s1'),
      fileChanges: { sessionId: 's1', changes: [], undos: [], notRecorded: [] },
    });
    expect(exported.content).toContain('\n  "session": {');
  });

  it('exports a cancelled chain counted from its failed turns, as the card counts it, not from retries started', () => {
    const store = openStore();
    newSession(store, 's1', 'Cancelled');
    store.appendTurn({ sessionId: 's1', message: user('cancel me', T0) });
    store.openChain({ id: 'c1', sessionId: 's1', startedAt: T0 + 1000 });
    for (const [i, at] of [T0 + 1000, T0 + 2000, T0 + 4000].entries()) {
      const failed = store.appendTurn({
        sessionId: 's1',
        message: assistant('', at, { message: '503 Service Unavailable' }),
        errorCategory: 'server_error',
        chainId: 'c1',
      });
      store.recordDecision(decision('s1', failed.id, 'c1', i + 1));
    }
    // Three retries were started; the third was cancelled in its wait and never sent.
    store.closeChain('c1', { outcome: 'cancelled', attempts: 3, finalError: 'Retry cancelled', endedAt: T0 + 5000 });
    const { content } = store.exportSession('s1', 'markdown')!;
    expect(content).toContain('Retry chain `c1`: **cancelled**: the first try and 2 retries failed');
    expect(content).not.toContain('3 retries');
  });

  it("exports a scheduled retry's wait in hours and minutes, not seconds with decimals", () => {
    const store = openStore();
    newSession(store, 's1', 'Scheduled');
    store.appendTurn({ sessionId: 's1', message: user('wait for me', T0) });
    store.openChain({ id: 'c1', sessionId: 's1', startedAt: T0 + 1000 });
    const failed = store.appendTurn({
      sessionId: 's1',
      message: assistant('', T0 + 1000, { message: '429 Too Many Requests' }),
      errorCategory: 'rate_limit',
      chainId: 'c1',
    });
    store.recordDecision(decision('s1', failed.id, 'c1', 1, { waitSeconds: 7200, scheduled: true }));
    // The schedule taken up again after a restart: what was left of the wait.
    store.recordDecision(decision('s1', failed.id, 'c1', 1, { id: 'c1-again', waitSeconds: 7193.457 }));
    store.recordDecision(decision('s1', failed.id, 'c1', 2, { waitSeconds: 42.25 }));
    const { content } = store.exportSession('s1', 'markdown')!;
    expect(content.match(/\*\*retry\*\* in 2 h —/g)).toHaveLength(2);
    expect(content).toContain('**retry** in 42.3 s —');
    expect(content).not.toMatch(/in 7\d{3}/);
  });

  it('exports Markdown with title, date, one section per turn and the retry timeline of errored turns', () => {
    const store = openStore();
    recordRecoveredSequence(store);
    const { filename, mimeType, content } = store.exportSession('s1', 'markdown')!;
    expect(filename).toBe('resolute-weather-in-lisbon-2025-01-15.md');
    expect(mimeType).toBe('text/markdown');
    expect(content.startsWith('# Weather in Lisbon\n')).toBe(true);
    expect(content).toContain('2025-01-15T09:30:00.000Z');
    expect(content.match(/^## \d+\. /gm)).toEqual(['## 1. ', '## 2. ', '## 3. ', '## 4. ']);
    expect(content).toContain('## 2. Assistant · anthropic/claude-test');
    expect(content).toContain('> **Error** (server_error): 503 Service Unavailable (again)');
    expect(content).toContain('Retry chain `c1`: **recovered** after 2 retries');
    // The chain recovered: no exchange ended in an error, but the two failed attempts below are counted.
    expect(content).toContain('- Turns: 1 (0 ended in an error; 2 failed attempts in all)');
    expect(content).toMatch(/attempt 1, ModelServerError \(server_error\): \*\*retry\*\* in 2 s/);
    expect(content).toContain('Sunny, 21 °C.');
  });
});

describe('migrations', () => {
  it('are numbered 1, 2, 3, … and the latest is what a new file gets', () => {
    // Versions must run 1, 2, 3, … with no gap or repeat.
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    const path = freshPath();
    openStore(path).close();
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = raw
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'turns_fts_%' ORDER BY name")
        .pluck()
        .all();
      expect(tables).toEqual(
        expect.arrayContaining(['retry_chains', 'retry_decisions', 'sessions', 'turns', 'turns_fts']),
      );
    } finally {
      raw.close();
    }
  });

  it('initialise an existing empty file and create the missing folder', () => {
    const empty = freshPath();
    writeFileSync(empty, '');
    expect(openStore(empty).schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    const nested = join(root, 'deep', 'er', 'history.db');
    expect(openStore(nested).schemaVersion).toBe(LATEST_SCHEMA_VERSION);
  });

  it('apply an appended version on top of the latest and keep data; a failing one rolls back entirely', () => {
    const path = freshPath();
    const store = openStore(path);
    recordRecoveredSequence(store);
    store.close();
    const db = new Database(path);
    const latest = LATEST_SCHEMA_VERSION;
    try {
      const next: Migration = {
        version: latest + 1,
        description: 'test',
        up: (d) => d.exec('ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0'),
      };
      const broken: Migration = {
        version: latest + 2,
        description: 'broken',
        up: (d) => d.exec('CREATE TABLE half (x); SELECT * FROM no_such_table'),
      };
      expect(() => migrate(db, [...MIGRATIONS, next, broken])).toThrow(/no_such_table/);
      expect(db.pragma('user_version', { simple: true })).toBe(latest);
      expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'half'").pluck().get()).toBe(0);
      expect(migrate(db, [...MIGRATIONS, next])).toEqual({ from: latest, to: latest + 1 });
      expect(migrate(db, [...MIGRATIONS, next])).toEqual({ from: latest + 1, to: latest + 1 });
      expect(db.prepare("SELECT pinned FROM sessions WHERE id = 's1'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});

describe('opening a file it must not touch', () => {
  it('refuses a file from a newer version and leaves it byte-identical, even with startFresh', () => {
    const path = freshPath();
    const db = new Database(path);
    db.exec('CREATE TABLE future (x)');
    const newer = LATEST_SCHEMA_VERSION + 1;
    db.pragma(`user_version = ${newer}`);
    db.close();
    const before = sha256(path);
    const error = expectHistoryError(() => openHistoryStore(path), 'newer_version');
    expect(error.message).toBe(
      `The history database at ${path} was written by a newer version of Resolute (schema ${newer}; this version knows ${LATEST_SCHEMA_VERSION}). It was left untouched. Update Resolute to open it.`,
    );
    expect(error).toMatchObject({ path, foundVersion: newer, knownVersion: LATEST_SCHEMA_VERSION });
    expectHistoryError(() => openHistoryStore(path, { startFresh: true }), 'newer_version');
    expect(sha256(path)).toBe(before);
    expect(readdirSync(join(path, '..')).filter((name) => name.includes('damaged'))).toEqual([]);
  });

  it('refuses a file of random bytes and leaves it byte-identical', () => {
    const path = freshPath();
    writeFileSync(path, createHash('sha512').update('not a database').digest().toString('hex').repeat(200));
    const before = sha256(path);
    const error = expectHistoryError(() => openHistoryStore(path), 'damaged');
    expect(error.message).toMatch(
      new RegExp(
        `^The history database at ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(.*not a database.*\\)\\. It was left untouched;`,
      ),
    );
    expect(sha256(path)).toBe(before);
  });

  function damagedFile(): string {
    const path = freshPath();
    writeDamagedHistory(path);
    return path;
  }

  it('after a clean shutdown opens at once, finds a corrupted page in the background, and refuses it on the next start', async () => {
    const path = damagedFile();
    const before = sha256(path);
    const store = openHistoryStore(path);
    const damage = await store.checkIntegrity();
    store.close();
    expect(damage).toBeInstanceOf(HistoryDatabaseError);
    expect(damage!.kind).toBe('damaged');
    expect(damage!.message).toMatch(/is damaged \(integrity check: .+\)/);
    expect(sha256(path)).toBe(before);
    // The next start checks before opening, and refuses the file untouched — as a damaged file always was.
    expectHistoryError(() => openHistoryStore(path), 'damaged');
    expect(sha256(path)).toBe(before);
    // Agreeing to start fresh moves the file and the marker aside; the new history needs no check.
    const fresh = openHistoryStore(path, { startFresh: true });
    open.push(fresh);
    expect(existsSync(`${fresh.movedAsideTo}-integrity`)).toBe(true);
    expect(await fresh.checkIntegrity()).toBeNull();
    expect(readdirSync(join(path, '..')).filter((name) => name === 'history.db-integrity')).toEqual([]);
  });

  it('after an unclean shutdown (a -wal file with frames left) checks before opening and refuses a damaged file', () => {
    const path = damagedFile();
    writeFileSync(`${path}-wal`, Buffer.alloc(64, 7));
    const before = sha256(path);
    expectHistoryError(() => openHistoryStore(path), 'damaged');
    expect(sha256(path)).toBe(before);
  });

  it('finds a sound file sound in the background and leaves no marker', async () => {
    const path = freshPath();
    const store = openStore(path);
    recordRecoveredSequence(store);
    store.close();
    const reopened = openStore(path);
    expect(await reopened.checkIntegrity()).toBeNull();
    expect(existsSync(`${path}-integrity`)).toBe(false);
  });

  it('with startFresh, moves a damaged file and its -wal aside and starts an empty history', () => {
    const path = freshPath();
    writeFileSync(path, 'this is plainly not SQLite, but it is long enough to look like a file. '.repeat(20));
    writeFileSync(`${path}-wal`, 'stale wal');
    const before = sha256(path);
    const store = openHistoryStore(path, { startFresh: true });
    open.push(store);
    const moved = store.movedAsideTo!;
    expect(moved).toMatch(/history\.db\.damaged-\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
    expect(sha256(moved)).toBe(before);
    expect(readFileSync(`${moved}-wal`, 'utf8')).toBe('stale wal');
    expect(store.listSessions()).toEqual([]);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(openStore(freshPath()).movedAsideTo).toBeNull();
  });

  it('reports a path it cannot open as unreadable', () => {
    const dir = join(root, 'a-folder.db');
    mkdirSync(dir);
    const error = expectHistoryError(() => openHistoryStore(dir), 'unreadable');
    expect(error.message).toContain('could not be opened');
    expect(existsSync(dir)).toBe(true);
  });
});
