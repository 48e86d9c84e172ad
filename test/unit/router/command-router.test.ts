// The command router over a handler map (the domains' handlers, gathered by AppServices): a frame
// reaches its command's handler with the params as the table's schema parsed them, bad params never
// reach it, and whatever a handler throws (or rejects with) is an error reply, never a throw. Also
// the domains' shared rules (command-helpers.ts): not found, invalid input, a turn refused while one
// runs and a later failure told as a notice, and no command answered by two domains.
import { describe, expect, it, vi } from 'vitest';
import { CommandRouter } from '../../../src/main/router/command-router';
import { asInvalid, assertOneHandlerEach, found, startTurn } from '../../../src/main/node/domains/command-helpers';
import { COMMAND_NAMES, type CommandHandlers } from '../../../src/shared/contract';
import type { SessionDetail } from '../../../src/shared/history';
import { CommandError } from '../../../src/shared/wire';

/** Every command answers "unhandled" unless a test gives it a handler. */
function handlers(some: Partial<CommandHandlers>): CommandHandlers {
  const all = Object.fromEntries(
    COMMAND_NAMES.map((name) => [
      name,
      () => {
        throw new Error('unhandled');
      },
    ]),
  );
  return { ...all, ...some } as CommandHandlers;
}

const request = (method: string, params: unknown, id = 1) => ({ kind: 'request', id, method, params });

describe('CommandRouter', () => {
  it("runs the command's own handler with the parsed params and replies with its result", async () => {
    const prompt = vi.fn(() => ({ accepted: true as const }));
    const router = new CommandRouter(handlers({ 'session.prompt': prompt }));
    const reply = await router.dispatch(request('session.prompt', { text: '  hi  ' }, 7));
    expect(reply).toEqual({ kind: 'response', id: 7, ok: true, result: { accepted: true } });
    expect(prompt).toHaveBeenCalledWith({ text: 'hi' });
  });

  it('never calls a handler for params the schema refuses', async () => {
    const prompt = vi.fn(() => ({ accepted: true as const }));
    const router = new CommandRouter(handlers({ 'session.prompt': prompt }));
    const reply = await router.dispatch(request('session.prompt', { text: '' }));
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
    expect(prompt).not.toHaveBeenCalled();
  });

  it("turns a handler's throw or rejection into an error reply with its code", async () => {
    const router = new CommandRouter(
      handlers({
        'history.get': () => found<SessionDetail>(undefined, 'session s1'),
        'history.delete': async () => {
          throw new Error('disk gone');
        },
      }),
    );
    await expect(router.dispatch(request('history.get', { sessionId: 's1' }))).resolves.toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'session s1 not found' },
    });
    await expect(router.dispatch(request('history.delete', { sessionId: 's1' }))).resolves.toMatchObject({
      ok: false,
      error: { code: 'failed', message: 'disk gone' },
    });
  });

  it('hears of every request, the refused ones too', async () => {
    const heard = vi.fn();
    const router = new CommandRouter(handlers({}), heard);
    await router.dispatch('{not json');
    await router.dispatch(request('session.nope', {}));
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

describe("the domains' shared rules", () => {
  it('asInvalid makes a refusal of input an invalid_params error', async () => {
    await expect(
      asInvalid(() => {
        throw new Error('not a folder');
      }),
    ).rejects.toMatchObject({ code: 'invalid_params', message: 'not a folder' });
    await expect(asInvalid(() => 42)).resolves.toBe(42);
  });

  it('startTurn refuses while a turn runs, lets its own refusal through, and tells a later failure', async () => {
    const report = vi.fn();
    const start = vi.fn(async () => undefined);
    expect(() => startTurn({ isBusy: true, report }, start)).toThrow(CommandError);
    expect(start).not.toHaveBeenCalled();
    const refusal = new CommandError('not_found', 'That message is not in the current conversation.');
    expect(() =>
      startTurn({ isBusy: false, report }, () => {
        throw refusal;
      }),
    ).toThrow(refusal);
    expect(startTurn({ isBusy: false, report }, () => Promise.reject(new Error('provider down')))).toEqual({
      accepted: true,
    });
    await vi.waitFor(() =>
      expect(report).toHaveBeenCalledWith(expect.objectContaining({ code: 'turn_command_failed' })),
    );
  });

  it('a command answered by two domains is refused, naming it', () => {
    const a = { 'app.info': () => undefined };
    const b = { 'session.new': () => undefined, 'app.info': () => undefined };
    expect(() => assertOneHandlerEach([a, b])).toThrow(/app\.info is answered by two domains/);
    expect(() => assertOneHandlerEach([a, { 'session.new': () => undefined }])).not.toThrow();
  });
});
