// One-time launch links for the browser mode (README, "How the browser mode opens"): the browser
// Resolute starts gets `/?launch=<code>` on its command line — which every local user can read
// with `ps` — never the token. The first load of that link spends the code and gets the page with
// the token inside it (a <meta> the page reads once into its tab's sessionStorage); a second use,
// or a use after LAUNCH_CODE_TTL_MS, is refused. Used by browser-server.ts.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Long enough for a cold browser start; short enough that a stale link on a screen is dead. */
export const LAUNCH_CODE_TTL_MS = 2 * 60_000;

export class LaunchCodes {
  readonly #codes = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new code, valid once, for LAUNCH_CODE_TTL_MS. */
  issue(): string {
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, this.now() + LAUNCH_CODE_TTL_MS);
    return code;
  }

  /** True once per issued code, within its time; a matching code is spent either way. */
  take(given: string): boolean {
    const wanted = Buffer.from(given);
    for (const [code, expires] of this.#codes) {
      const candidate = Buffer.from(code);
      if (candidate.length !== wanted.length || !timingSafeEqual(candidate, wanted)) continue;
      this.#codes.delete(code);
      return this.now() <= expires;
    }
    return false;
  }
}

const META = 'resolute-launch-token';

/** The page (index.html) with the token in a <meta> its script takes out (launch-token.ts). */
export function pageWithToken(page: Buffer, token: string): Buffer {
  // base64url: nothing in it needs escaping inside an attribute.
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('the launch token is not base64url');
  const html = page.toString('utf8');
  // Inside <head>; else after the doctype (nothing may come before it), else first.
  const after = /<head(\s[^>]*)?>/i.exec(html) ?? /<!doctype[^>]*>/i.exec(html);
  const end = after ? after.index + after[0].length : 0;
  return Buffer.from(`${html.slice(0, end)}<meta name="${META}" content="${token}">${html.slice(end)}`);
}
