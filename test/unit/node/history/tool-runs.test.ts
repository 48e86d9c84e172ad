// The journal of tool calls in flight (tool-runs.ts, tool-run-journal.ts) on a real SQLite history:
// the output is written at most once a second per call, the last piece too, cut to the tool's caps;
// a stored result forgets the call; the next start gives a left-over call its "interrupted" result
// once, and never one that already has its result.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openHistoryStore, type SqliteHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { OUTPUT_WRITE_INTERVAL_MS, ThrottledToolRunJournal } from '../../../../src/main/node/history/tool-run-journal';
import { MAX_BYTES } from '../../../../src/main/node/tools/output-caps';
import type { AssistantChatMessage, ChatMessage } from '../../../../src/shared/messages';
import { toolDetailsOf } from '../../../../src/shared/tools';
import { bashApproval } from '../../../fixtures/approval-request';

let root: string;
let store: SqliteHistoryStore;
let clock = 0;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-tool-runs-'));
  store = openHistoryStore(join(root, 'history.db'));
  store.ensureSession({ id: 's1', title: 'x', model: 'm', provider: 'p', createdAt: 1, workspace: '/ws' });
  clock = 1_000_000;
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  store.close();
  rmSync(root, { recursive: true, force: true });
});

const callTurn = (id: string, name = 'bash'): AssistantChatMessage => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name, arguments: { command: 'make' } }],
  provider: 'p',
  model: 'm',
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
  stopReason: 'toolUse',
  timestamp: 5,
});

function journal(): ThrottledToolRunJournal {
  return new ThrottledToolRunJournal(store.toolRuns, () => clock);
}

/** What a restart would find: the results given to left-over calls, as their text. */
function recoveredTexts(): string[] {
  return store.recoverToolRuns(clock).map((run) => (run.message.content[0] as { text: string }).text);
}

describe('ThrottledToolRunJournal', () => {
  it('writes the first output at once, then at most once an interval, and the last piece after it', () => {
    const runs = journal();
    runs.began({ sessionId: 's1', toolCallId: 'c1', toolName: 'bash', summary: 'make', startedAt: clock });
    runs.output('c1', 'one');
    clock += 10;
    runs.output('c1', 'one\ntwo');
    // Only the first is written so far: a crash now keeps "one".
    expect(recoveredTexts()[0]).toMatch(/^one\n\n\[Interrupted/);

    runs.began({ sessionId: 's1', toolCallId: 'c2', toolName: 'bash', startedAt: clock });
    runs.output('c2', 'a');
    clock += 10;
    runs.output('c2', 'a\nb');
    clock += OUTPUT_WRITE_INTERVAL_MS;
    vi.advanceTimersByTime(OUTPUT_WRITE_INTERVAL_MS);
    expect(recoveredTexts()[0]).toMatch(/^a\nb\n\n\[Interrupted/);
  });

  it('cuts what it keeps to the tool’s caps, keeping the tail', () => {
    const runs = journal();
    runs.began({ sessionId: 's1', toolCallId: 'c1', toolName: 'bash', startedAt: clock });
    runs.output('c1', `${'x'.repeat(MAX_BYTES * 2)}\nlast line`);
    const [text] = recoveredTexts();
    expect(text).toContain('last line');
    expect(text.length).toBeLessThan(MAX_BYTES + 400);
  });

  it('forgets a call whose result is stored, and no timer writes it back', () => {
    const runs = journal();
    runs.began({ sessionId: 's1', toolCallId: 'c1', toolName: 'bash', startedAt: clock });
    runs.output('c1', 'one');
    runs.output('c1', 'two');
    runs.settled('c1');
    vi.advanceTimersByTime(OUTPUT_WRITE_INTERVAL_MS * 2);
    expect(recoveredTexts()).toEqual([]);
  });
});

describe('recoverToolRuns', () => {
  it('gives a left-over call its interrupted result after its call, once', () => {
    store.appendTurn({ sessionId: 's1', message: callTurn('c1') });
    store.toolRuns.began({ sessionId: 's1', toolCallId: 'c1', toolName: 'bash', summary: 'make', startedAt: clock });
    store.toolRuns.output('c1', 'compiling…', clock + 4_000);
    const [run] = store.recoverToolRuns(clock + 60_000);
    expect(run.sessionId).toBe('s1');
    const turns = store.getSession('s1')!.turns;
    expect(turns.map((t) => t.role)).toEqual(['assistant', 'toolResult']);
    const result = turns[1].message as Extract<ChatMessage, { role: 'toolResult' }>;
    expect(result).toMatchObject({ toolCallId: 'c1', toolName: 'bash', isError: true });
    // The call's time is until its last sign of life, not the time the app was down.
    expect(toolDetailsOf(result.details)).toEqual({ interrupted: true, durationMs: 4_000, summary: 'make' });
    expect(turns[1].text).toContain('compiling…');
    expect(store.loadContext('s1').at(-1)).toMatchObject({ role: 'toolResult', toolCallId: 'c1' });
    expect(store.recoverToolRuns(clock + 70_000)).toEqual([]);
  });

  it('says an MCP call’s result is unknown', () => {
    store.appendTurn({ sessionId: 's1', message: callTurn('c1', 'mcp__srv__deploy') });
    store.toolRuns.began({ sessionId: 's1', toolCallId: 'c1', toolName: 'mcp__srv__deploy', startedAt: clock });
    expect(recoveredTexts()[0]).toMatch(/result is unknown/);
  });

  it('leaves a call whose result was stored alone, and forgets a deleted session’s', () => {
    store.appendTurn({ sessionId: 's1', message: callTurn('c1') });
    store.toolRuns.began({ sessionId: 's1', toolCallId: 'c1', toolName: 'bash', startedAt: clock });
    store.appendTurn({
      sessionId: 's1',
      message: {
        role: 'toolResult',
        toolCallId: 'c1',
        toolName: 'bash',
        content: [{ type: 'text', text: 'done' }],
        isError: false,
        timestamp: 6,
      },
    });
    store.toolRuns.began({ sessionId: 'gone', toolCallId: 'c9', toolName: 'bash', startedAt: clock });
    expect(store.recoverToolRuns(clock)).toEqual([]);
    expect(store.getSession('s1')!.turns).toHaveLength(2);
  });
});

describe('pending approvals', () => {
  const asked = (id: string, requestedAt: number) => bashApproval({ id, toolCallId: `c-${id}`, requestedAt });

  it('keeps a request until it is answered, and lists its chat with its title, newest first', () => {
    store.ensureSession({ id: 's2', title: 'y', model: 'm', provider: 'p', createdAt: 2, workspace: '/ws' });
    const kept = journal();
    kept.asked('s1', asked('a', 10));
    kept.asked('s2', asked('b', 20));
    kept.asked('s1', asked('c', 5));
    expect(store.toolRuns.approvalsOf('s1').map((r) => r.id)).toEqual(['c', 'a']);
    expect(store.toolRuns.chatsWaiting()).toEqual([
      { sessionId: 's2', title: 'y' },
      { sessionId: 's1', title: 'x' },
    ]);
    kept.answered('b');
    expect(store.toolRuns.chatsWaiting()).toEqual([{ sessionId: 's1', title: 'x' }]);
    expect(store.toolRuns.approvalsOf('s2')).toEqual([]);
  });
});
