// Tools inside an AgentSession (src/main/core/tools/tool-coordinator.ts and tool-gate.ts), with a
// scripted model at the stream boundary and an in-memory tool runtime: approvals (once, for the
// session, deny, Stop), every tool failure ending the turn and decided like a provider's failure
// (its fault as the run's Failure, decision table, decision log, history) with the audit first for security, invalid calls as
// invalid_output with a finite retry, Continue, and the rules for a waiting chain (rate-limit
// pacing, a quit) with tools. The real file system, sandbox and simulator are in
// test/integration/tools-*.test.ts.
import { describe, expect, it, vi } from 'vitest';
import { ToolFailure } from '../../../../src/main/core/tools/tool-failure';
import type { AuditSink, ToolCallContext, ToolOutcome, ToolRuntime } from '../../../../src/main/core/ports';
import type { SessionEvent } from '../../../../src/shared/events';
import type { NoticeText } from '../../../../src/shared/notice-params';
import type { ApprovalPreview, SandboxAuditRecord } from '../../../../src/shared/tools';
import type { ToolDefinition } from '../../../../src/main/core/tools/tool-definition';
import { ToolRegistry } from '../../../../src/main/core/tools/tool-registry';
import { builtinTools } from '../../../../src/main/node/tools/builtin-tools';
import { harness, waitForEvent, type Harness, type Step } from '../session-fakes';

/** The seven real definitions (names, schemas, which ask first), each recording its runs instead of running. */
class FakeRuntime implements ToolRuntime {
  readonly bashUnavailable: NoticeText | null = null;
  readonly registry: ToolRegistry;
  runs: { name: string; args: Record<string, unknown> }[] = [];
  constructor(private readonly behave: (name: string, args: Record<string, unknown>) => ToolOutcome = ok) {
    const real = builtinTools({ platform: 'linux', bwrap: '/usr/bin/bwrap', sandboxExec: '' }, []);
    const fake = (tool: ToolDefinition): ToolDefinition => ({
      name: tool.name,
      description: tool.description,
      get parameters() {
        return tool.parameters;
      },
      asksFirst: tool.asksFirst,
      prepareArguments: tool.prepareArguments,
      run: async (args: Record<string, unknown>, _context: ToolCallContext) => {
        this.runs.push({ name: tool.name, args });
        return this.behave(tool.name, args);
      },
      preview: async (args: Record<string, unknown>): Promise<ApprovalPreview | null> =>
        tool.name === 'bash' ? { kind: 'command', command: String(args.command), timeoutSeconds: null } : null,
      summary: tool.summary,
    });
    this.registry = new ToolRegistry(real.map(fake));
  }
  openWorkspace(workspace: string): string {
    return workspace;
  }
}

const ok = (): ToolOutcome => ({ text: 'done', details: { exitCode: 0 }, isError: false });

/** Records the order of audit writes and decision-log writes in one list. */
function auditTrail(order: string[]): AuditSink & { records: SandboxAuditRecord[] } {
  const records: SandboxAuditRecord[] = [];
  return {
    records,
    write(record) {
      order.push('audit');
      records.push(record);
    },
  };
}

function setup(steps: Step[], runtime: ToolRuntime, settings: Record<string, unknown> = {}) {
  const order: string[] = [];
  const audit = auditTrail(order);
  const h = harness(steps, {
    settings: { retry: { policy: { invalid_output: { delayMs: 1 } } }, ...settings },
    tools: { runtime, audit, workspace: '/ws' },
  });
  const write = h.log.write.bind(h.log);
  h.log.write = (record) => {
    order.push(`decision:${record.category}`);
    write(record);
  };
  return { h, audit, order };
}

/** Answer every approval request with `choice`, as the person would. */
function answerApprovals(h: Harness, choice: 'once' | 'session' | 'deny'): SessionEvent[] {
  const asked: SessionEvent[] = [];
  h.session.subscribe((event) => {
    if (event.type !== 'tool_approval_request') return;
    asked.push(event);
    queueMicrotask(() => h.session.answerApproval(event.request.id, choice));
  });
  return asked;
}

const rows = (h: Harness) => h.history.turns.map((t) => [t.role, t.stopReason, t.errorCategory]);

describe('approvals', () => {
  it('asks before bash; Allow once runs it and asks again next time', async () => {
    const runtime = new FakeRuntime();
    const { h } = setup(
      [{ tool: 'bash', args: { command: 'ls' } }, { tool: 'bash', args: { command: 'pwd' } }, { text: 'fine' }],
      runtime,
    );
    const asked = answerApprovals(h, 'once');
    await h.session.prompt('list');
    expect(asked).toHaveLength(2);
    expect(runtime.runs.map((r) => r.args.command)).toEqual(['ls', 'pwd']);
    expect(h.events.filter((e) => e.type === 'tool_approval_end')).toHaveLength(2);
    expect(h.session.snapshot({ turns: [], chains: [], decisions: [], hasOlderTurns: false }).pendingApprovals).toEqual(
      [],
    );
  });

  it('Allow for this session stops asking for that tool until the session changes', async () => {
    const runtime = new FakeRuntime();
    const { h } = setup(
      [{ tool: 'bash', args: { command: 'a' } }, { tool: 'bash', args: { command: 'b' } }, { text: 'ok' }],
      runtime,
    );
    const asked = answerApprovals(h, 'session');
    await h.session.prompt('go');
    expect(asked).toHaveLength(1);
    expect(runtime.runs).toHaveLength(2);
    h.session.replaceConversation({ sessionId: 's2', title: '', messages: [], stored: false });
    expect(h.session.tools?.approvals.isAllowedForSession('bash')).toBe(false);
  });

  it('Deny goes back to the model as a refusal, and the turn carries on', async () => {
    const runtime = new FakeRuntime();
    const { h } = setup([{ tool: 'bash', args: { command: 'rm -rf x' } }, { text: 'understood' }], runtime);
    answerApprovals(h, 'deny');
    await h.session.prompt('clean up');
    expect(runtime.runs).toEqual([]);
    const result = h.history.turns.find((t) => t.role === 'toolResult');
    expect(result?.text).toMatch(/user denied this tool call/);
    expect(result?.errorCategory).toBeNull();
    expect(rows(h).at(-1)).toEqual(['assistant', 'stop', null]);
    expect(h.log.records).toEqual([]);
  });

  it('each stored result keeps its approval’s answer and how long it waited, a denied one too', async () => {
    let now = 1_000;
    const h = harness(
      [{ tool: 'bash', args: { command: 'a' } }, { tool: 'bash', args: { command: 'b' } }, { text: 'ok' }],
      {
        tools: { runtime: new FakeRuntime(), audit: auditTrail([]), workspace: '/ws' },
        clock: { now: () => now },
      },
    );
    const choices: ('once' | 'deny')[] = ['once', 'deny'];
    h.session.subscribe((event) => {
      if (event.type !== 'tool_approval_request') return;
      const choice = choices.shift() ?? 'deny';
      now += choice === 'once' ? 42_000 : 5_000;
      queueMicrotask(() => h.session.answerApproval(event.request.id, choice));
    });
    await h.session.prompt('go');
    const results = h.history.turns.filter((t) => t.role === 'toolResult');
    expect(results.map((t) => (t.message as { details?: { approval?: unknown } }).details?.approval)).toEqual([
      { choice: 'once', waitedMs: 42_000 },
      { choice: 'deny', waitedMs: 5_000 },
    ]);
  });

  it('read, ls, find and grep never ask; auto never asks', async () => {
    const runtime = new FakeRuntime();
    const { h } = setup(
      [{ tool: 'read', args: { path: 'a' } }, { tool: 'bash', args: { command: 'ls' } }, { text: 'ok' }],
      runtime,
      { tools: { approval: 'auto' } },
    );
    const asked = answerApprovals(h, 'deny');
    await h.session.prompt('go');
    expect(asked).toEqual([]);
    expect(runtime.runs.map((r) => r.name)).toEqual(['read', 'bash']);
  });

  it('Stop while a card waits counts as Deny and stops the turn', async () => {
    const runtime = new FakeRuntime();
    const { h } = setup([{ tool: 'bash', args: { command: 'sleep 1' } }, { stall: true }], runtime);
    const asked = new Promise<void>((resolve) =>
      h.session.subscribe((e) => e.type === 'tool_approval_request' && resolve()),
    );
    const run = h.session.prompt('go');
    await asked;
    await h.session.abort();
    await run;
    expect(runtime.runs).toEqual([]);
    expect(h.events).toContainEqual(expect.objectContaining({ type: 'tool_approval_end', choice: 'deny' }));
    expect(rows(h).at(-1)).toEqual(['assistant', 'aborted', 'aborted']);
  });
});

describe('tool failures take the provider errors path', () => {
  it.each([
    ['sandbox_security', 'SandboxSecurityError'],
    ['sandbox', 'SandboxExecutionError'],
    ['patch_apply', 'PatchApplyError'],
  ] as const)(
    '%s ends the turn at once: errored turn, WARNING abort, no further request',
    async (category, errorType) => {
      const runtime = new FakeRuntime(() => {
        throw new ToolFailure(category, `refused (${category})`, '../x');
      });
      const { h, audit, order } = setup([{ tool: 'read', args: { path: '../x' } }, { text: 'never' }], runtime);
      await h.session.prompt('go');
      expect(h.stream.calls).toHaveLength(1);
      expect(rows(h)).toEqual([
        ['user', null, null],
        ['assistant', 'toolUse', null],
        ['toolResult', null, category],
        ['assistant', 'error', category],
      ]);
      expect(h.log.records).toEqual([
        expect.objectContaining({ category, errorType, action: 'abort', level: 'WARNING', finalDecision: 'abort' }),
      ]);
      expect(h.history.turns.at(-1)?.errorMessage).toBe(`read: refused (${category})`);
      if (category === 'sandbox_security') {
        // Audit first: the record is written before the decision about the turn.
        expect(order).toEqual(['audit', 'decision:sandbox_security']);
        expect(audit.records[0]).toMatchObject({
          toolName: 'read',
          target: '../x',
          workspace: '/ws',
          sessionId: 'session-1',
        });
        expect(h.history.audits).toEqual(audit.records);
      } else {
        expect(audit.records).toEqual([]);
      }
      expect(h.retryEvents()).toEqual([]);
    },
  );

  it('a later call in the same reply is not run after a failure', async () => {
    const runtime = new FakeRuntime((name) => {
      if (name === 'write') throw new ToolFailure('sandbox_security', 'outside', '/etc/x');
      return ok();
    });
    // Two calls in one assistant message: the second must be skipped.
    const twoCalls: Step = {
      tools: [
        { name: 'write', args: { path: '/etc/x', content: '' } },
        { name: 'read', args: { path: 'a' } },
      ],
    };
    const { h } = setup([twoCalls], runtime, { tools: { approval: 'auto' } });
    await h.session.prompt('go');
    expect(runtime.runs.map((r) => r.name)).toEqual(['write']);
    expect(h.history.turns.filter((t) => t.role === 'toolResult').map((t) => t.text)).toEqual([
      'outside',
      'Not run: an earlier tool call in this turn failed.',
    ]);
  });

  it('an exit code is an ordinary result: the model hears it, nothing is decided', async () => {
    const runtime = new FakeRuntime(() => ({
      text: 'boom\n\nCommand exited with code 2',
      details: { exitCode: 2 },
      isError: true,
    }));
    const { h } = setup([{ tool: 'bash', args: { command: 'false' } }, { text: 'it failed' }], runtime, {
      tools: { approval: 'auto' },
    });
    await h.session.prompt('go');
    expect(h.stream.calls).toHaveLength(2);
    const result = h.history.turns.find((t) => t.role === 'toolResult');
    expect(result?.message).toMatchObject({ isError: true, details: { exitCode: 2 } });
    expect(h.log.records).toEqual([]);
  });
});

describe('invalid calls are invalid_output, retried a finite number of times', () => {
  it('an unknown tool is retried, then the model recovers', async () => {
    const { h } = setup([{ tool: 'nope', args: {} }, { text: 'sorry' }], new FakeRuntime());
    await h.session.prompt('go');
    expect(h.stream.calls).toHaveLength(2);
    expect(h.log.records.map((r) => [r.category, r.action, r.finalDecision])).toEqual([
      ['invalid_output', 'retry', null],
      ['invalid_output', 'retry', 'success'],
    ]);
    expect(h.retryEvents().map((e) => e.type)).toEqual(['auto_retry_start', 'auto_retry_end']);
  });

  it('arguments that fail the schema, every time: three attempts, then abort', async () => {
    const bad: Step = { tool: 'read', args: { nopath: 1 } };
    const { h } = setup([bad, bad, bad, bad, { text: 'never' }], new FakeRuntime());
    await h.session.prompt('go');
    expect(h.stream.calls).toHaveLength(3);
    expect(h.log.records.map((r) => [r.category, r.action, r.finalDecision])).toEqual([
      ['invalid_output', 'retry', null],
      ['invalid_output', 'retry', null],
      ['invalid_output', 'abort', 'abort'],
    ]);
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', success: false, outcome: 'exhausted' });
  });
});

describe('tools and the rules for a waiting chain', () => {
  it('a reply that called tools teaches rate-limit pacing its used-up limit, like any reply', async () => {
    const used = { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '30s' };
    const { h } = setup([{ tool: 'read', args: { path: 'a' }, headers: used }, { text: 'read it' }], new FakeRuntime());
    await h.session.prompt('read a');
    expect(h.session.lastAssistantText()).toBe('read it');
    const held = h.session.prompt('and again');
    await vi.waitFor(() => expect(h.events.some((e) => e.type === 'rate_limit_wait')).toBe(true));
    expect(h.session.snapshot({ turns: [], chains: [], decisions: [], hasOlderTurns: false }).pacing).toMatchObject({
      text: 'and again',
    });
    expect(h.stream.calls).toHaveLength(2);
    expect(h.session.sendAnyway()).toBe(true);
    await held;
    expect(h.stream.calls).toHaveLength(3);
  });

  it('a quit while an invalid call waits for its retry closes the chain as interrupted; nothing runs', async () => {
    const runtime = new FakeRuntime();
    const { h } = setup([{ tool: 'nope', args: {} }, { text: 'never' }], runtime, {
      retry: { policy: { invalid_output: { delayMs: 30_000 } } },
    });
    const turn = h.session.prompt('go');
    await waitForEvent(h, 'auto_retry_start');
    await h.session.shutdown();
    await turn;
    expect(h.retryEvents().at(-1)).toMatchObject({ type: 'auto_retry_end', success: false, outcome: 'interrupted' });
    expect(h.stream.calls).toHaveLength(1);
    expect(runtime.runs).toEqual([]);
  });
});

describe('Continue', () => {
  it('asks the model again after a stopped turn, without a retry chain', async () => {
    const runtime = new FakeRuntime(() => {
      throw new ToolFailure('sandbox', 'bwrap missing');
    });
    const { h } = setup([{ tool: 'bash', args: { command: 'ls' } }, { text: 'after continue' }], runtime, {
      tools: { approval: 'auto' },
    });
    await h.session.prompt('go');
    const decisions = h.log.records.length;
    await h.session.continueTurn();
    expect(h.stream.calls).toHaveLength(2);
    expect(h.log.records).toHaveLength(decisions);
    expect(h.session.lastAssistantText()).toBe('after continue');
    expect(() => h.session.continueTurn()).toThrow(/ended normally/);
  });
});

describe('settings', () => {
  it('tools.enabled = false offers no tools and no tools prompt', () => {
    const { h } = setup([], new FakeRuntime(), { tools: { enabled: false } });
    const agent = (h.session as unknown as { agent: { state: { tools: unknown[]; systemPrompt: string } } }).agent;
    expect(agent.state.tools).toEqual([]);
    expect(agent.state.systemPrompt).not.toMatch(/## Tools/);
    h.settings.update({ tools: { enabled: true } });
    expect(agent.state.tools.map((t) => (t as { name: string }).name)).toEqual([
      'read',
      'ls',
      'find',
      'grep',
      'write',
      'edit',
      'bash',
    ]);
    expect(agent.state.systemPrompt).toMatch(/## Tools\nYou work in the folder \/ws \(the workspace\)/);
  });
});
