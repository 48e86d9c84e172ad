// One-time launch codes for the browser mode (docs/hosts.md, "Tokens and launch links"): a browser
// Resolute opens gets `/?launch=<code>` through a private channel — its DevTools pipe, or a 0600
// file in the data folder — never on a command line. The first load of that link spends the code
// and gets the page with a token of that launch's own (a <meta> the page reads once into its tab's
// sessionStorage). A launch opened over the pipe stays unconfirmed until the window reports that
// its own load got the page; until then its token's socket waits, and if the window was refused
// (someone else spent the code first) the launch is revoked. Used by browser-server.ts.
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Long enough for a cold browser start; short enough that a stale link on a screen is dead. */
export const LAUNCH_CODE_TTL_MS = 2 * 60_000;

/** Who vouches for the launch: the window over its pipe, or nobody but the file's privacy. */
export type LaunchOpener = 'window' | 'file';

type LaunchState = 'issued' | 'unconfirmed' | 'confirmed' | 'revoked';

/** One launch link and the token its page gets. */
export class Launch {
  readonly token = randomBytes(24).toString('base64url');
  readonly #settled: Promise<boolean>;
  #settle!: (confirmed: boolean) => void;
  readonly #used: Promise<void>;
  #markUsed!: () => void;
  #state: LaunchState = 'issued';
  readonly #onRevoked: Array<() => void> = [];

  constructor(
    readonly code: string,
    readonly opener: LaunchOpener,
    readonly expiresAt: number,
  ) {
    this.#settled = new Promise((resolve) => (this.#settle = resolve));
    this.#used = new Promise((resolve) => (this.#markUsed = resolve));
  }

  get state(): LaunchState {
    return this.#state;
  }

  /** Resolves once the code can no longer be exchanged (spent or revoked): its file may go. */
  get used(): Promise<void> {
    return this.#used;
  }

  /** Resolves true once the token may be used, false once it never may. */
  get settled(): Promise<boolean> {
    return this.#settled;
  }

  /** The code was exchanged for the page: a file's launch is good at once, a window's waits for it. */
  spend(): void {
    if (this.#state !== 'issued') return;
    this.#state = 'unconfirmed';
    this.#markUsed();
    if (this.opener === 'file') this.confirm();
  }

  /** The window Resolute opened got the page from this link itself. */
  confirm(): void {
    if (this.#state !== 'unconfirmed') return;
    this.#state = 'confirmed';
    this.#settle(true);
  }

  /** Nobody may use this launch's token any more; its open sockets are closed. */
  revoke(): void {
    if (this.#state === 'revoked') return;
    this.#state = 'revoked';
    this.#settle(false);
    this.#markUsed();
    for (const listener of this.#onRevoked.splice(0)) listener();
  }

  onRevoked(listener: () => void): void {
    if (this.#state === 'revoked') listener();
    else this.#onRevoked.push(listener);
  }
}

/**
 * What presenting a code did: `granted` — the page with the token; `spent` — an issued code used
 * before or expired (a race, or the window's own reload); `unknown` — never issued (a guess).
 */
export type Presented = { kind: 'granted'; launch: Launch } | { kind: 'spent'; launch: Launch } | { kind: 'unknown' };

export class LaunchCodes {
  readonly #launches: Launch[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** A new code, valid once, for LAUNCH_CODE_TTL_MS. */
  issue(opener: LaunchOpener): Launch {
    const launch = new Launch(randomBytes(24).toString('base64url'), opener, this.now() + LAUNCH_CODE_TTL_MS);
    this.#launches.push(launch);
    return launch;
  }

  present(given: string): Presented {
    const launch = this.#launches.find((candidate) => same(candidate.code, given));
    if (!launch) return { kind: 'unknown' };
    if (launch.state !== 'issued' || this.now() > launch.expiresAt) {
      // Past its time, an unspent code is spent anyway: it never works after a refusal.
      if (launch.state === 'issued') launch.revoke();
      return { kind: 'spent', launch };
    }
    launch.spend();
    return { kind: 'granted', launch };
  }

  /** The launch whose token this is, when it may still be used (waiting or confirmed). */
  byToken(token: string): Launch | null {
    const launch = this.#launches.find((candidate) => same(candidate.token, token));
    return launch && launch.state !== 'revoked' && launch.state !== 'issued' ? launch : null;
  }
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
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
