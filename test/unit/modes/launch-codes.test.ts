// One-time launch codes (src/main/modes/browser/launch-codes.ts): each works once, not after its
// time, a wrong one never; and the page a launch link loads carries the token where the page's
// script looks for it.
import { describe, expect, it } from 'vitest';
import { LAUNCH_CODE_TTL_MS, LaunchCodes, pageWithToken } from '../../../src/main/modes/browser/launch-codes';

describe('LaunchCodes', () => {
  it('takes a code once', () => {
    const codes = new LaunchCodes();
    const [a, b] = [codes.issue(), codes.issue()];
    expect(a).toMatch(/^[\w-]{32}$/);
    expect(codes.take('wrong')).toBe(false);
    expect(codes.take(b)).toBe(true);
    expect(codes.take(b)).toBe(false);
    expect(codes.take(a)).toBe(true);
  });

  it('refuses (and spends) a code past its time', () => {
    let now = 1_000;
    const codes = new LaunchCodes(() => now);
    const code = codes.issue();
    now += LAUNCH_CODE_TTL_MS + 1;
    expect(codes.take(code)).toBe(false);
    now = 1_000;
    expect(codes.take(code)).toBe(false);
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
