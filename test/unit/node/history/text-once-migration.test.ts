// The text-once migration (src/main/node/history/migration-text-once.ts) on a file that already
// went through the tools, the failure-cost and the branches migrations, each found by its
// description so the test does not depend on their numbers: a version-4 history with tool calls, a
// tool result, failed attempts with usage and cost, a retry chain, decisions, a sandbox audit row
// and a regenerated reply (branch_from) is rebuilt with nothing lost — what the dropped columns
// held is read back from the stored message, and the counts follow docs/architecture.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src/main/node/history/migrations';
import { openHistoryStore } from '../../../../src/main/node/history/sqlite-history-store';
import { migrationNamed } from '../../../fixtures/history-files';
import { activePath } from '../../../../src/shared/history';
import { messageText, type ChatMessage } from '../../../../src/shared/messages';

const root = mkdtempSync(join(tmpdir(), 'resolute-text-once-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const find = migrationNamed;
const textOnce = find(/text stored once/);
const tools = find(/tools/);
const cost = find(/cost of each attempt/);
const branches = find(/turn branches/);

const usage = (input: number, output: number) => ({
  input,
  output,
  cacheRead: 10,
  cacheWrite: 0,
  totalTokens: input + output + 10,
});

/** The session's turns, in order, with the columns version 3 kept beside each message. */
const TURNS: {
  message: ChatMessage;
  category: string | null;
  chain: string | null;
  cost: number | null;
  branchFrom?: number;
}[] = [
  {
    message: { role: 'user', content: 'list the workspace and read notes.md', timestamp: 1 },
    category: null,
    chain: null,
    cost: null,
  },
  {
    message: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'toolCall', id: 'call-1', name: 'ls', arguments: { path: '.' } },
        { type: 'toolCall', id: 'call-2', name: 'read', arguments: { path: '../secret' } },
      ],
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage: usage(300, 40),
      stopReason: 'toolUse',
      timestamp: 2,
    },
    category: null,
    chain: null,
    cost: 0.0015,
  },
  {
    message: {
      role: 'toolResult',
      toolCallId: 'call-1',
      toolName: 'ls',
      content: [{ type: 'text', text: 'notes.md\nsrc/' }],
      details: { durationMs: 4 },
      isError: false,
      timestamp: 3,
    },
    category: null,
    chain: null,
    cost: null,
  },
  {
    message: {
      role: 'toolResult',
      toolCallId: 'call-2',
      toolName: 'read',
      content: [{ type: 'text', text: 'refused: outside the workspace' }],
      details: { failure: 'sandbox_security' },
      isError: true,
      timestamp: 4,
    },
    category: 'sandbox_security',
    chain: null,
    cost: null,
  },
  {
    message: {
      role: 'assistant',
      content: [],
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage: usage(1200, 0),
      stopReason: 'error',
      errorMessage: '529 overloaded_error',
      timestamp: 5,
    },
    category: 'overloaded',
    chain: 'c1',
    cost: 0.0036,
  },
  {
    message: {
      role: 'assistant',
      content: [],
      provider: 'openai',
      model: 'gpt-4o-mini',
      usage: usage(0, 0),
      stopReason: 'error',
      errorMessage: '503 upstream',
      timestamp: 6,
    },
    category: 'server_error',
    chain: 'c1',
    cost: null,
  },
  {
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'The workspace holds notes.md and src.' }],
      provider: 'openai',
      model: 'gpt-4o-mini',
      usage: usage(500, 20),
      stopReason: 'stop',
      timestamp: 7,
    },
    category: null,
    chain: 'c1',
    cost: 0.0001,
  },
  {
    // Regenerate: a new reply that replaces turn 7.
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'Two entries: a file and a folder.' }],
      provider: 'openai',
      model: 'gpt-4o-mini',
      usage: usage(500, 30),
      stopReason: 'stop',
      timestamp: 8,
    },
    category: null,
    chain: null,
    cost: 0.0002,
    branchFrom: 7,
  },
];

/** A version-4 file, written in version 4's own columns (text, model, usage_json… beside message_json). */
function writeVersion4File(path: string): void {
  const db = new Database(path);
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version < textOnce.version),
  );
  db.prepare(
    `INSERT INTO sessions (id, title, created_at, updated_at, model, provider, workspace)
     VALUES ('s', 'Tools and failures', 1, 7, 'claude-sonnet-4-5', 'anthropic', '/home/me/ws')`,
  ).run();
  const insert = db.prepare(
    `INSERT INTO turns (id, session_id, seq, role, text, message_json, model, provider, stop_reason, error_message,
       error_category, chain_id, created_at, usage_json, cost_usd, branch_from)
     VALUES (?, 's', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  TURNS.forEach(({ message, category, chain, cost: costUsd, branchFrom }, i) => {
    const a = message.role === 'assistant' ? message : null;
    insert.run(
      `t${i + 1}`,
      i + 1,
      message.role,
      messageText(message),
      JSON.stringify(message),
      a?.model ?? null,
      a?.provider ?? null,
      a?.stopReason ?? null,
      a?.errorMessage ?? null,
      category,
      chain,
      message.timestamp,
      a ? JSON.stringify(a.usage) : null,
      costUsd,
      branchFrom ?? null,
    );
  });
  db.exec(`INSERT INTO retry_chains (id, session_id, outcome, attempts, started_at, ended_at)
           VALUES ('c1', 's', 'recovered', 2, 5, 7)`);
  const decision = db.prepare(
    `INSERT INTO retry_decisions (id, session_id, turn_id, chain_id, timestamp, level, error_type, category, attempt,
       action, wait_seconds, reason, error_message, context_json, final_decision)
     VALUES (?, 's', ?, 'c1', '2026-01-01T00:00:00.000Z', 'INFO', 'ModelOverloadedError', 'overloaded', ?, ?, ?, 'r', ?,
       '{"taskType":"chat","modelId":"claude-sonnet-4-5","provider":"anthropic","sessionId":"s","turnId":null}', ?)`,
  );
  decision.run('d1', 't5', 1, 'retry', 0, '529 overloaded_error', null);
  decision.run('d2', 't6', 2, 'retry', 2, '503 upstream', null);
  decision.run('d3', 't7', 3, 'retry', 0, '', 'success');
  db.exec(`INSERT INTO sandbox_audit (id, session_id, timestamp, tool_call_id, tool_name, args_json, workspace, target, reason)
           VALUES ('a1', 's', '2026-01-01T00:00:00.000Z', 'call-2', 'read', '{"path":"../secret"}', '/home/me/ws',
                   '../secret', 'outside the workspace')`);
  db.close();
}

describe('the text-once migration on a version-4 file', () => {
  it('comes after the tools, the failure-cost and the branches migrations', () => {
    expect(textOnce.version).toBeGreaterThan(tools.version);
    expect(textOnce.version).toBeGreaterThan(cost.version);
    expect(textOnce.version).toBeGreaterThan(branches.version);
  });

  it('keeps every turn, tool call and result, cost, chain, decision, audit row and the workspace', () => {
    const path = join(root, 'v4.db');
    writeVersion4File(path);
    const store = openHistoryStore(path);
    try {
      expect(store.schemaVersion).toBe(MIGRATIONS[MIGRATIONS.length - 1].version);
      const detail = store.getSession('s')!;
      expect(detail.session).toMatchObject({
        title: 'Tools and failures',
        workspace: '/home/me/ws',
        // One exchange (the person's one message); its chain recovered, so none ended in an error.
        turnCount: 1,
        erroredTurnCount: 0,
      });
      expect(detail.turns.map((t) => t.message)).toEqual(TURNS.map((t) => t.message));
      // What the dropped columns held comes back from the message: text, model, provider, error, usage.
      expect(detail.turns.map((t) => [t.text, t.model, t.provider, t.stopReason, t.errorMessage])).toEqual(
        TURNS.map(({ message: m }) => {
          const a = m.role === 'assistant' ? m : null;
          return [
            messageText(m),
            a?.model ?? null,
            a?.provider ?? null,
            a?.stopReason ?? null,
            a?.errorMessage ?? null,
          ];
        }),
      );
      expect(detail.turns.map((t) => t.usage)).toEqual(
        TURNS.map(({ message: m }) => (m.role === 'assistant' ? m.usage : null)),
      );
      expect(detail.turns.map((t) => [t.errorCategory, t.chainId, t.costUsd])).toEqual(
        TURNS.map((t) => [t.category, t.chain, t.cost]),
      );
      expect(detail.turns[1].text).toBe('Looking.\n[tool ls]\n[tool read]');
      // The branch survives: the regenerated reply replaces turn 7 on the path and in the resume context.
      expect(detail.turns.map((t) => t.branchFrom)).toEqual(TURNS.map((t) => t.branchFrom ?? null));
      expect(activePath(detail.turns).map((t) => t.id)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't8']);
      expect(store.loadContext('s').map((m) => messageText(m))).toEqual(
        ['t1', 't2', 't3', 't4', 't8'].map((id) => messageText(TURNS[Number(id.slice(1)) - 1].message)),
      );
      expect(detail.chains).toEqual([expect.objectContaining({ id: 'c1', outcome: 'recovered', attempts: 2 })]);
      expect(detail.decisions.map((d) => [d.id, d.finalDecision])).toEqual([
        ['d1', null],
        ['d2', null],
        ['d3', 'success'],
      ]);
      // The cost panel reads the usage from the message now: tokens and cost as before.
      expect(store.failureCost(null).total).toEqual({
        attempts: 2,
        inputTokens: 1200 + 10 + 0 + 10,
        outputTokens: 0,
        costUsd: 0.0036,
        unpricedAttempts: 1,
      });
      expect(store.search('outside workspace').map((hit) => hit.turnId)).toEqual(['t4']);
      expect(
        store
          .search('notes')
          .map((hit) => hit.turnId)
          .sort(),
      ).toEqual(['t1', 't3', 't7']);
      // One entry for the chain, headed by its latest failed attempt, with every attempt and decision.
      const errored = store.erroredTurns();
      expect(errored.map((e) => [e.turn.id, e.turn.model, e.chain?.outcome])).toEqual([
        ['t6', 'gpt-4o-mini', 'recovered'],
      ]);
      expect(errored[0].attempts.map((a) => [a.id, a.model])).toEqual([
        ['t5', 'claude-sonnet-4-5'],
        ['t6', 'gpt-4o-mini'],
      ]);
      expect(errored[0].decisions.map((d) => d.id)).toEqual(['d1', 'd2', 'd3']);
    } finally {
      store.close();
    }
    const raw = new Database(path);
    try {
      expect(raw.prepare("SELECT count(*) FROM sandbox_audit WHERE session_id = 's'").pluck().get()).toBe(1);
      const columns = raw.prepare("SELECT name FROM pragma_table_info('turns')").pluck().all();
      expect(columns).toContain('cost_usd');
      expect(columns).not.toContain('usage_json');
      // Deleting the session still takes its audit rows and its search entries with it.
      raw.prepare("DELETE FROM sessions WHERE id = 's'").run();
      expect(raw.prepare('SELECT count(*) FROM sandbox_audit').pluck().get()).toBe(0);
      expect(raw.prepare("SELECT count(*) FROM turns_fts WHERE turns_fts MATCH 'notes'").pluck().get()).toBe(0);
    } finally {
      raw.close();
    }
  });
});
