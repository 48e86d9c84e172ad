// The simulator script's tool steps (src/main/node/simulator/fault-script.ts): tool:NAME:ARGS keeps
// its arguments whole — commas and spaces inside {…}, […] and "…" included, case kept — and sits
// among the other steps; a malformed one is refused with a message naming it.
import { describe, expect, it } from 'vitest';
import { parseFaultScript, scriptTokens } from '../../../../src/main/node/simulator/fault-script';

describe('tool steps in the simulator script', () => {
  it('splits at top-level commas and spaces only', () => {
    expect(scriptTokens('503, tool:bash:{"command":"echo a, b"} ok')).toEqual([
      '503',
      'tool:bash:{"command":"echo a, b"}',
      'ok',
    ]);
    expect(scriptTokens('tool:edit:{"path":"x","edits":[{"oldText":"a b","newText":"c, d"}]},ok')).toEqual([
      'tool:edit:{"path":"x","edits":[{"oldText":"a b","newText":"c, d"}]}',
      'ok',
    ]);
    expect(scriptTokens('tool:write:{"content":"quote \\" and } brace"} ok')).toEqual([
      'tool:write:{"content":"quote \\" and } brace"}',
      'ok',
    ]);
  });

  it('parses the tool, its name and its arguments as written', () => {
    const parsed = parseFaultScript('tool:Read_File:{"Path":"A.txt"}, 429:0, ok');
    expect(parsed.ok && parsed.steps.map((s) => [s.kind, s.tool])).toEqual([
      ['tool', { name: 'Read_File', arguments: '{"Path":"A.txt"}' }],
      ['429', undefined],
      ['ok', undefined],
    ]);
  });

  it('keeps arguments that are not JSON, to script invalid calls', () => {
    const parsed = parseFaultScript('tool:read:{"path":}');
    expect(parsed.ok && parsed.steps[0].tool).toEqual({ name: 'read', arguments: '{"path":}' });
  });

  it.each(['tool', 'tool:', 'tool:1abc:{}', 'tool:bash'])('refuses %j', (script) => {
    expect(parseFaultScript(script)).toEqual({ ok: false, error: expect.stringMatching(/tool:NAME:ARGS/) });
  });
});
