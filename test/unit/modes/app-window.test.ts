// Unit tests of the app-mode window's launch: its Chromium flags (a blank app page — nothing of the
// launch link — own profile, window size, the sandbox switched off only for root), a launch that
// fails or exits before showing the app, and the DevTools pipe's framing (NUL-separated JSON cut
// anywhere, garbage ignored) with its replies. A real Chromium
// window is opened, watched and closed by test/integration/app-window.test.ts under Xvfb.
import { Buffer } from 'node:buffer';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { appWindowArgs, BLANK_APP_PAGE, openAppWindow, WINDOW_SIZE } from '../../../src/main/modes/browser/app-window';
import { DevtoolsPipe, parsePipeEvent, type PipeEvent } from '../../../src/main/modes/browser/devtools-pipe';

const URL = 'http://127.0.0.1:4321/?token=t';

describe('appWindowArgs', () => {
  it('opens a blank app page on its own profile, at a set size, watched over a pipe', () => {
    const args = appWindowArgs({ profileDir: '/data/browser-profile', runsAsRoot: false });
    expect(args.slice(0, 4)).toEqual([
      `--app=${BLANK_APP_PAGE}`,
      '--user-data-dir=/data/browser-profile',
      `--window-size=${WINDOW_SIZE.width},${WINDOW_SIZE.height}`,
      '--remote-debugging-pipe',
    ]);
    expect(args).toContain('--no-first-run');
    expect(args).not.toContain('--no-sandbox');
    expect(args.some((arg) => arg.startsWith('--remote-debugging-port'))).toBe(false);
  });

  it('switches the sandbox off only for root', () => {
    expect(appWindowArgs({ profileDir: '/p', runsAsRoot: true })).toContain('--no-sandbox');
  });
});

describe('openAppWindow', () => {
  it('rejects clearly when the browser cannot be started', async () => {
    const opening = openAppWindow({
      executable: '/nonexistent/chromium',
      url: URL,
      profileDir: '/tmp/x',
      runsAsRoot: false,
    });
    await expect(opening).rejects.toThrow(
      /^the browser could not be started \(spawn \/nonexistent\/chromium ENOENT\)$/,
    );
  });

  it('rejects when the browser exits before showing the app (e.g. refused to start)', async () => {
    const opening = openAppWindow({ executable: 'false', url: URL, profileDir: '/tmp/x', runsAsRoot: false });
    await expect(opening).rejects.toThrow('the browser exited (code 1) before showing the app');
  });
});

describe('DevtoolsPipe', () => {
  it('writes NUL-terminated commands with increasing ids', () => {
    const toBrowser = new PassThrough();
    const pipe = new DevtoolsPipe(toBrowser, new PassThrough(), () => undefined);
    pipe.send('Target.setDiscoverTargets', { discover: true });
    pipe.send('Browser.close');
    expect(String(toBrowser.read())).toBe(
      '{"id":1,"method":"Target.setDiscoverTargets","params":{"discover":true}}\0{"id":2,"method":"Browser.close","params":{}}\0',
    );
  });

  it('hears Target events cut anywhere, and skips replies, other events and garbage', async () => {
    const fromBrowser = new PassThrough();
    const events: PipeEvent[] = [];
    new DevtoolsPipe(new PassThrough(), fromBrowser, (event) => events.push(event));
    const created = JSON.stringify({
      method: 'Target.targetCreated',
      params: { targetInfo: { targetId: 'A', type: 'page', url: URL, title: 'Résolute ✓' } },
    });
    const stream = `{"id":99,"result":{}}\0not json\0{"method":"Page.loadEventFired","params":{}}\0${created}\0{"method":"Target.targetDestroyed","params":{"targetId":"A"}}\0`;
    const bytes = Buffer.from(stream, 'utf8');
    const cut = bytes.indexOf('✓') + 1; // inside the three-byte character
    fromBrowser.write(bytes.subarray(0, cut));
    fromBrowser.write(bytes.subarray(cut));
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.map((e) => e.method)).toEqual(['Target.targetCreated', 'Target.targetDestroyed']);
    expect(events[0]).toMatchObject({ params: { targetInfo: { targetId: 'A', type: 'page', url: URL } } });
  });

  it('parsePipeEvent refuses a Target event of the wrong shape, and a response without its session', () => {
    expect(parsePipeEvent({ method: 'Target.targetDestroyed', params: {} })).toBeNull();
    expect(parsePipeEvent({ method: 'Target.targetCreated', params: { targetInfo: { targetId: 1 } } })).toBeNull();
    const response = { type: 'Document', response: { url: URL, status: 410 } };
    expect(parsePipeEvent({ method: 'Network.responseReceived', params: response })).toBeNull();
    expect(parsePipeEvent({ method: 'Network.responseReceived', sessionId: 'S', params: response })).toMatchObject({
      sessionId: 'S',
    });
  });

  it('answers a call with its reply, a browser error with a rejection, and rejects what is pending when the pipe closes', async () => {
    const toBrowser = new PassThrough();
    const fromBrowser = new PassThrough();
    const pipe = new DevtoolsPipe(toBrowser, fromBrowser, () => undefined);
    const attached = pipe.call('Target.attachToTarget', { targetId: 'A', flatten: true });
    const navigated = pipe.call('Page.navigate', { url: URL }, 'S1');
    const waiting = pipe.call('Browser.getVersion');
    expect(String(toBrowser.read())).toBe(
      '{"id":1,"method":"Target.attachToTarget","params":{"targetId":"A","flatten":true}}\0' +
        `{"id":2,"method":"Page.navigate","params":{"url":"${URL}"},"sessionId":"S1"}\0` +
        '{"id":3,"method":"Browser.getVersion","params":{}}\0',
    );
    fromBrowser.write('{"id":2,"error":{"code":-32000,"message":"Cannot navigate"},"sessionId":"S1"}\0');
    fromBrowser.write('{"id":1,"result":{"sessionId":"S1"}}\0');
    await expect(attached).resolves.toEqual({ sessionId: 'S1' });
    await expect(navigated).rejects.toThrow('Cannot navigate');
    fromBrowser.end();
    await expect(waiting).rejects.toThrow('closed its DevTools pipe');
  });
});
