// One-time launch codes (src/main/modes/browser/launch-codes.ts): each is granted once, never after
// its time; a code never issued is only `unknown` (no race); a used one is `spent`; a window's
// launch waits for the window's word before its token may be used, a file's is good at once; a
// revoked launch's token is dead and its listeners hear it. And the page a launch link loads
// carries its token where the page's script looks for it.
import { describe, expect, it } from 'vitest';
import { LAUNCH_CODE_TTL_MS, LaunchCodes, pageWithToken } from '../../../src/main/modes/browser/launch-codes';

describe('LaunchCodes', () => {
  it('grants a code once, with a token of its own; then it is spent', () => {
    const codes = new LaunchCodes();
    const [a, b] = [codes.issue('window'), codes.issue('file')];
    expect(a.code).toMatch(/^[\w-]{32}$/);
    expect(a.token).not.toBe(b.token);
    expect(codes.present(b.code)).toEqual({ kind: 'granted', launch: b });
    expect(codes.present(b.code)).toEqual({ kind: 'spent', launch: b });
    expect(codes.present(a.code)).toEqual({ kind: 'granted', launch: a });
  });

  it('a code never issued is unknown, not a race, and spends nothing', () => {
    const codes = new LaunchCodes();
    const launch = codes.issue('window');
    expect(codes.present('made-up')).toEqual({ kind: 'unknown' });
    // One character off (a code that ends in "x" already gets a "y": it was granted 1 run in 64).
    const oneOff = `${launch.code.slice(0, -1)}${launch.code.endsWith('x') ? 'y' : 'x'}`;
    expect(codes.present(oneOff)).toEqual({ kind: 'unknown' });
    expect(codes.present(launch.code).kind).toBe('granted');
  });

  it('refuses (and kills) a code past its time', () => {
    let now = 1_000;
    const codes = new LaunchCodes(() => now);
    const launch = codes.issue('window');
    now += LAUNCH_CODE_TTL_MS + 1;
    expect(codes.present(launch.code).kind).toBe('spent');
    now = 1_000;
    expect(codes.present(launch.code).kind).toBe('spent');
    expect(launch.state).toBe('revoked');
  });

  it("a window's launch: its token waits for the window's word, and is dead once refused", async () => {
    const codes = new LaunchCodes();
    const confirmed = codes.issue('window');
    expect(codes.byToken(confirmed.token)).toBeNull(); // not spent yet: the token is nothing
    codes.present(confirmed.code);
    expect(codes.byToken(confirmed.token)).toBe(confirmed);
    expect(confirmed.state).toBe('unconfirmed');
    confirmed.confirm();
    await expect(confirmed.settled).resolves.toBe(true);

    const refused = codes.issue('window');
    codes.present(refused.code);
    let closed = 0;
    refused.onRevoked(() => (closed += 1));
    refused.revoke();
    await expect(refused.settled).resolves.toBe(false);
    expect(closed).toBe(1);
    expect(codes.byToken(refused.token)).toBeNull();
    refused.confirm(); // a late word changes nothing
    expect(refused.state).toBe('revoked');
    refused.onRevoked(() => (closed += 1)); // a socket let in after the fact is closed at once
    expect(closed).toBe(2);
  });

  it("a file's launch is good once spent; its `used` settles then, or when it is revoked unspent", async () => {
    const codes = new LaunchCodes();
    const file = codes.issue('file');
    codes.present(file.code);
    expect(file.state).toBe('confirmed');
    await expect(file.settled).resolves.toBe(true);
    await file.used;
    const unspent = codes.issue('file');
    unspent.revoke();
    await unspent.used;
    expect(codes.present(unspent.code).kind).toBe('spent');
  });
});

describe('pageWithToken', () => {
  it('puts the token in a <meta> inside <head>', () => {
    const page = Buffer.from('<!doctype html>\n<html lang="en">\n  <head>\n    <title>R</title>');
    expect(pageWithToken(page, 'tok_1-x').toString()).toBe(
      '<!doctype html>\n<html lang="en">\n  <head><meta name="resolute-launch-token" content="tok_1-x">\n    <title>R</title>',
    );
  });

  it('refuses a token that would need escaping', () => {
    expect(() => pageWithToken(Buffer.from('<head>'), '"><script>')).toThrow(/base64url/);
  });
});
