// Tests of how a turn's message is stored (src/main/node/history/message-codec.ts): every message
// reads back exactly as written, the stored form leaves out what the row's columns say, messages
// stored whole by older versions read as they are, and the failure-cost report reads both forms
// of usage from a real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../src/shared/messages';
import { newId } from '../../../../src/shared/ids';
import { decodeMessage, encodeMessage, type MessageColumns } from '../../../../src/main/node/history/message-codec';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';

const AT = 1_735_689_600_000;
const cost = { input: 0.00036, output: 0.0009, cacheRead: 0, cacheWrite: 0, total: 0.00126 };
const usage = { input: 121, output: 60, cacheRead: 7, cacheWrite: 0, totalTokens: 188, cost };

const assistant = (extra: Record<string, unknown> = {}): ChatMessage =>
  ({
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'weighing it' },
      { type: 'text', text: 'an answer with "quotes" and ünïcödé' },
      { type: 'toolCall', id: 'call-1', name: 'bash', arguments: { command: 'ls -la' } },
    ],
    api: 'openai-completions',
    provider: 'simulator',
    model: 'resolute-sim-1',
    usage,
    stopReason: 'toolUse',
    timestamp: AT,
    ...extra,
  }) as ChatMessage;

const columnsOf = (message: ChatMessage, createdAt = message.timestamp): MessageColumns => ({
  role: message.role,
  createdAt,
  stopReason: message.role === 'assistant' ? message.stopReason : null,
});

const cases: [string, ChatMessage][] = [
  ['a user message with text', { role: 'user', content: 'hello?', timestamp: AT }],
  [
    'a user message with blocks',
    {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      timestamp: AT,
    },
  ],
  ['an assistant answer with usage and cost', assistant()],
  ['an assistant answer whose usage has no cost', assistant({ usage: { ...usage, cost: undefined } })],
  [
    'a failed attempt with an error message',
    assistant({ content: [], stopReason: 'error', errorMessage: '503 overloaded', usage: { ...usage, output: 0 } }),
  ],
  ['a usage with an extra key (kept as an object)', assistant({ usage: { ...usage, reasoning: 12 } })],
  ['a usage missing a key (kept as an object)', assistant({ usage: { input: 1, output: 2, totalTokens: 3 } })],
  ['a cost with only a total (kept as an object)', assistant({ usage: { ...usage, cost: { total: 0.5 } } })],
  [
    'a tool result with details',
    {
      role: 'toolResult',
      toolCallId: 'call-1',
      toolName: 'bash',
      content: [{ type: 'text', text: 'file-a\nfile-b' }],
      details: { exitCode: 0, durationMs: 12 },
      isError: false,
      timestamp: AT,
    },
  ],
];

describe('message codec', () => {
  it.each(cases)('%s reads back exactly as written', (_name, message) => {
    const normalised = JSON.parse(JSON.stringify(message)) as ChatMessage;
    const stored = encodeMessage(normalised, columnsOf(normalised));
    expect(decodeMessage(stored, columnsOf(normalised))).toStrictEqual(normalised);
  });

  it('leaves out the role, the stop reason and the timestamp the row holds, and packs usage', () => {
    const stored = JSON.parse(encodeMessage(assistant(), columnsOf(assistant()))) as Record<string, unknown>;
    expect(Object.keys(stored)).toEqual(['content', 'api', 'provider', 'model', 'usage']);
    expect(stored.usage).toEqual([121, 60, 7, 0, 188, 0.00036, 0.0009, 0, 0, 0.00126]);
    expect(encodeMessage(assistant(), columnsOf(assistant())).length).toBeLessThan(
      JSON.stringify(assistant()).length - 150,
    );
  });

  it('keeps a timestamp that differs from the row time', () => {
    const message: ChatMessage = { role: 'user', content: 'late', timestamp: AT };
    const columns = columnsOf(message, AT + 5);
    expect(JSON.parse(encodeMessage(message, columns))).toHaveProperty('timestamp', AT);
    expect(decodeMessage(encodeMessage(message, columns), columns)).toStrictEqual(message);
  });

  it('reads a message stored whole by an older version as it is', () => {
    const whole = JSON.stringify(assistant());
    expect(decodeMessage(whole, { role: 'assistant', createdAt: 1, stopReason: 'stop' })).toStrictEqual(assistant());
  });

  it('refuses to store a message in a row of another role', () => {
    expect(() => encodeMessage(assistant(), { role: 'user', createdAt: AT, stopReason: null })).toThrow(/assistant/);
  });
});

describe('ids', () => {
  it('are 16 URL-safe characters and do not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, newId));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});

describe('a store with compact and whole messages', () => {
  const root = mkdtempSync(join(tmpdir(), 'resolute-codec-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads both back and the failure-cost report counts the tokens of both', () => {
    const path = join(root, 'h.db');
    const store = openHistoryStore(path);
    store.ensureSession({ id: 's', title: 't', model: 'm', provider: 'p', createdAt: AT });
    const failed = assistant({ content: [], stopReason: 'error', errorMessage: '503', timestamp: AT + 1 });
    const turn = store.appendTurn({ sessionId: 's', message: failed, errorCategory: 'server_error', chainId: null });
    // A row as an older version wrote it: the whole message, usage as an object.
    const legacy = { ...(failed as object), timestamp: AT + 2 } as ChatMessage;
    store.appendTurn({ sessionId: 's', message: legacy, errorCategory: 'server_error', chainId: null });
    store.close();
    const db = new Database(path);
    db.prepare('UPDATE turns SET message_json = ? WHERE seq = (SELECT max(seq) FROM turns)').run(
      JSON.stringify(legacy),
    );
    db.close();

    const reopened = openHistoryStore(path);
    const turns = reopened.getSession('s')?.turns ?? [];
    expect(turns.map((t) => t.message)).toStrictEqual([failed, legacy]);
    expect(turns[0].id).toBe(turn.id);
    const report = reopened.failureCost(null);
    expect(report.total.inputTokens).toBe(2 * (usage.input + usage.cacheRead));
    expect(report.total.outputTokens).toBe(2 * usage.output);
    reopened.close();
  });
});
