// The one Content-Security-Policy (src/shared/csp.ts) for its three places: Electron's header,
// the browser mode's header and the <meta> the build puts into index.html — strict everywhere,
// sockets only where the page uses them, and the dev-server relaxation never in a build.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../src/shared/csp';

const STRICT =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'{sockets}; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";
const SOCKETS = ' ws://127.0.0.1:* ws://localhost:*';

describe('contentSecurityPolicy', () => {
  it.each([
    ['electron', `${STRICT.replace('{sockets}', '')}; frame-ancestors 'none'`],
    ['browser', `${STRICT.replace('{sockets}', SOCKETS)}; frame-ancestors 'none'`],
    ['page', STRICT.replace('{sockets}', SOCKETS)],
  ] as const)('%s: %s', (target, policy) => {
    expect(contentSecurityPolicy(target)).toBe(policy);
  });

  it('relaxes only for the dev server: inline script and style, its HTTP and socket origins', () => {
    const dev = contentSecurityPolicy('page', { isDevServer: true });
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("style-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' ws://127.0.0.1:* ws://localhost:* http://localhost:*");
    expect(contentSecurityPolicy('page')).not.toContain('unsafe-inline');
  });

  it('is the <meta> of the built index.html', () => {
    const page = resolve('out/renderer/index.html');
    if (!existsSync(page)) throw new Error(`${page} is missing: build first (npx electron-vite build)`);
    const html = readFileSync(page, 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
    expect(meta?.[1].replaceAll('&#39;', "'")).toBe(contentSecurityPolicy('page'));
  });
});
