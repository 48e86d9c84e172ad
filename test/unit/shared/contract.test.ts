// The contract at the boundary: malformed frames, unknown commands and bad params each get an
// error naming what is wrong; nothing throws. Also the settings schema's refusals and `--set`.
import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../../src/shared/wire';
import { COMMAND_NAMES, commands } from '../../../src/shared/contract';
import { DEFAULT_SETTINGS, applySettingsPatch, parseSetFlag } from '../../../src/shared/settings';
import { SNIPPET_CLOSE, SNIPPET_OPEN, snippetParts } from '../../../src/shared/history';

describe('parseRequest', () => {
  it.each([
    ['not json', '{oops', 'bad_request', /not valid JSON/],
    ['null', null, 'bad_request', /malformed request/],
    ['an array', [1, 2], 'bad_request', /malformed request/],
    ['no kind', { id: 1, method: 'session.getState' }, 'bad_request', /kind/],
    ['no id', { kind: 'request', method: 'session.getState' }, 'bad_request', /id/],
    ['unknown command', { kind: 'request', id: 1, method: 'session.explode' }, 'unknown_command', /session\.explode/],
    [
      'missing text',
      { kind: 'request', id: 2, method: 'session.prompt', params: {} },
      'invalid_params',
      /session\.prompt: text/,
    ],
    [
      'empty text',
      { kind: 'request', id: 2, method: 'session.prompt', params: { text: '   ' } },
      'invalid_params',
      /must not be empty/,
    ],
    [
      'wrong type',
      { kind: 'request', id: 3, method: 'session.resume', params: { sessionId: 42 } },
      'invalid_params',
      /sessionId/,
    ],
    ['extra key', { kind: 'request', id: 4, method: 'session.abort', params: { now: true } }, 'invalid_params', /now/],
    [
      'bad enum',
      { kind: 'request', id: 5, method: 'history.export', params: { sessionId: 'x', format: 'pdf' } },
      'invalid_params',
      /format/,
    ],
    ['proto pollution name', { kind: 'request', id: 6, method: '__proto__' }, 'unknown_command', /__proto__/],
  ])('%s → %s', (_name, frame, code, message) => {
    const parsed = parseRequest(frame);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.code).toBe(code);
    expect(parsed.error.message).toMatch(message);
  });

  it('keeps the id of a frame with bad params so the client can correlate the error', () => {
    const parsed = parseRequest({ kind: 'request', id: 'abc', method: 'session.prompt', params: { text: 5 } });
    expect(parsed).toMatchObject({ ok: false, id: 'abc' });
  });

  it('accepts a good frame and returns parsed params', () => {
    expect(
      parseRequest(JSON.stringify({ kind: 'request', id: 7, method: 'session.prompt', params: { text: ' hi ' } })),
    ).toEqual({
      ok: true,
      id: 7,
      method: 'session.prompt',
      params: { text: 'hi' },
    });
  });

  it('has a params schema for every command', () => {
    for (const name of COMMAND_NAMES) expect(commands[name].params).toBeDefined();
  });
});

describe('settings validation', () => {
  it.each([
    [{ retry: { maxRetries: 12 } }, /retry\.maxRetries: must be at most 9/],
    [{ retry: { baseDelayMs: -1 } }, /retry\.baseDelayMs: must be at least 1/],
    [{ retry: { enabled: 'no' } }, /retry\.enabled/],
    [
      { retry: { policy: { rate_limit: { maxAttempts: 11 } } } },
      /retry\.policy\.rate_limit\.maxAttempts: must be at most 10/,
    ],
    [{ retry: { policy: { auth: { maxAttempts: 3 } } } }, /retry\.policy/],
    [{ ui: { language: 'fr' } }, /ui\.language/],
    [{ nonsense: 1 }, /nonsense|Unrecognized/i],
    ['a string', /must be an object/],
  ])('refuses %j with a message naming the field', (patch, message) => {
    const result = applySettingsPatch(DEFAULT_SETTINGS, patch);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it('applies a good patch deeply, leaving the rest', () => {
    const result = applySettingsPatch(DEFAULT_SETTINGS, { retry: { maxRetries: 5 } });
    expect(result.ok && result.value.retry).toEqual({ ...DEFAULT_SETTINGS.retry, maxRetries: 5 });
  });

  it('parses --set flags, JSON values first', () => {
    expect(parseSetFlag('retry.baseDelayMs=20')).toEqual({ ok: true, value: { retry: { baseDelayMs: 20 } } });
    expect(parseSetFlag('simulator.script=503,ok')).toEqual({ ok: true, value: { simulator: { script: '503,ok' } } });
    expect(parseSetFlag('retry.enabled=false')).toEqual({ ok: true, value: { retry: { enabled: false } } });
    expect(parseSetFlag('novalue').ok).toBe(false);
    expect(parseSetFlag('.x=1').ok).toBe(false);
  });
});

describe('snippetParts', () => {
  it('splits a search snippet into plain and matched parts', () => {
    expect(snippetParts(`the ${SNIPPET_OPEN}server${SNIPPET_CLOSE} said ${SNIPPET_OPEN}503${SNIPPET_CLOSE}`)).toEqual([
      { text: 'the ', match: false },
      { text: 'server', match: true },
      { text: ' said ', match: false },
      { text: '503', match: true },
    ]);
  });
  it('keeps text with stray or unbalanced markers readable', () => {
    expect(snippetParts('plain «text»')).toEqual([{ text: 'plain «text»', match: false }]);
    expect(snippetParts(`a${SNIPPET_CLOSE}b${SNIPPET_OPEN}c`)).toEqual([
      { text: 'ab', match: false },
      { text: 'c', match: false },
    ]);
  });
});
