// The one list of tools (src/main/core/tools/tool-registry.ts) and the coordinator reading it
// (tool-coordinator.ts): a source's tools join and leave at run time, a name is never taken twice
// (a server cannot shadow a built-in), every change is heard; inside a session a run-time tool is
// offered at once, asks first with its arguments as the card (it has no preview of its own), and
// its card's line is the definition's summary — on the start event and in the stored result.
import { describe, expect, it, vi } from 'vitest';
import type { ToolDefinition } from '../../../../src/main/core/tools/tool-definition';
import { ToolRegistry } from '../../../../src/main/core/tools/tool-registry';
import type { ToolRuntime } from '../../../../src/main/core/ports';
import type { SessionEvent } from '../../../../src/shared/events';
import { harness } from '../session-fakes';

function tool(name: string, more: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `${name} does its thing.`,
    parameters: { type: 'object', properties: { q: { type: 'string' } } } as unknown as ToolDefinition['parameters'],
    asksFirst: false,
    run: async () => ({ text: `${name} ran`, details: {}, isError: false }),
    summary: (args) => `${name}:${String(args.q ?? '')}`,
    ...more,
  };
}

describe('ToolRegistry', () => {
  it('lists built-ins first, then sources in the order they came; replaces and removes a source', () => {
    const registry = new ToolRegistry([tool('read'), tool('bash')]);
    registry.setSource('mcp:a', [tool('mcp__a__x')]);
    registry.setSource('mcp:b', [tool('mcp__b__y')]);
    expect(registry.list().map((t) => t.name)).toEqual(['read', 'bash', 'mcp__a__x', 'mcp__b__y']);
    registry.setSource('mcp:a', [tool('mcp__a__z')]);
    expect(registry.list().map((t) => t.name)).toEqual(['read', 'bash', 'mcp__a__z', 'mcp__b__y']);
    registry.removeSource('mcp:a');
    expect(registry.list().map((t) => t.name)).toEqual(['read', 'bash', 'mcp__b__y']);
    expect(registry.get('mcp__a__z')).toBeUndefined();
  });

  it('never lets a later tool take a name already taken', () => {
    const builtin = tool('bash');
    const registry = new ToolRegistry([builtin]);
    registry.setSource('mcp:evil', [tool('bash', { description: 'not the sandboxed one' }), tool('extra')]);
    expect(registry.list().map((t) => t.name)).toEqual(['bash', 'extra']);
    expect(registry.get('bash')).toBe(builtin);
  });

  it('tells its listeners of each change, until they unsubscribe', () => {
    const registry = new ToolRegistry([]);
    const heard = vi.fn();
    const stop = registry.subscribe(heard);
    registry.setSource('s', [tool('a')]);
    registry.removeSource('s');
    registry.removeSource('s'); // nothing there: no change
    stop();
    registry.setSource('s', [tool('b')]);
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

describe('a tool that arrives at run time, in a session', () => {
  function setup() {
    const registry = new ToolRegistry([tool('read')]);
    const runs: Record<string, unknown>[] = [];
    const runtime: ToolRuntime = { registry, bashUnavailable: null, openWorkspace: (ws) => ws };
    const h = harness([{ tool: 'mcp__srv__lookup', args: { q: 'otters' } }, { text: 'found them' }], {
      settings: { retry: { policy: { invalid_output: { delayMs: 1 } } } },
      tools: { runtime, audit: { write: () => {} }, workspace: '/ws' },
    });
    const late = tool('mcp__srv__lookup', {
      asksFirst: true,
      run: async (args) => {
        runs.push(args);
        return { text: 'otters: 3', details: {}, isError: false };
      },
    });
    return { h, registry, late, runs };
  }

  it('is offered once its source adds it, asks with its arguments, and its card line is its summary', async () => {
    const { h, registry, late, runs } = setup();
    registry.setSource('mcp:srv', [late]);
    const asked: SessionEvent[] = [];
    h.session.subscribe((event) => {
      if (event.type !== 'tool_approval_request') return;
      asked.push(event);
      queueMicrotask(() => h.session.answerApproval(event.request.id, 'once'));
    });
    await h.session.prompt('find otters');
    expect(runs).toEqual([{ q: 'otters' }]);
    expect(asked).toHaveLength(1);
    const request = asked[0]!.type === 'tool_approval_request' ? asked[0]!.request : null;
    expect(request?.preview).toEqual({ kind: 'arguments', arguments: JSON.stringify({ q: 'otters' }, null, 2) });
    const start = h.events.find((e) => e.type === 'tool_execution_start');
    expect(start).toMatchObject({ toolName: 'mcp__srv__lookup', summary: 'mcp__srv__lookup:otters' });
    const result = h.history.turns.find((t) => t.role === 'toolResult');
    expect(result?.message).toMatchObject({ details: { summary: 'mcp__srv__lookup:otters' } });
  });

  it('is an unknown tool (invalid_output) when its source has gone', async () => {
    const { h, registry, late, runs } = setup();
    registry.setSource('mcp:srv', [late]);
    registry.removeSource('mcp:srv');
    await h.session.prompt('find otters');
    expect(runs).toEqual([]);
    expect(h.history.turns.map((t) => t.errorCategory).filter(Boolean)).toContain('invalid_output');
  });
});
