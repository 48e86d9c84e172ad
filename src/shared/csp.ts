// The Content-Security-Policy, written once for every place that sends it: the Electron session's
// response header, the browser mode's response header, and the <meta> tag the build puts into
// index.html (electron.vite.config.ts). They differ only where the place requires it; see
// docs/hosts.md ("The Content-Security-Policy").

export type CspTarget =
  /** Electron's header: the page talks to the main process over IPC, never over a socket. */
  | 'electron'
  /** The browser mode's header: the page talks to its server over a WebSocket on loopback. */
  | 'browser'
  /** index.html's <meta>, the same file in both hosts; a <meta> policy cannot carry frame-ancestors. */
  | 'page';

const LOOPBACK_SOCKETS = ['ws://127.0.0.1:*', 'ws://localhost:*'];

/**
 * The policy for one target. `isDevServer` relaxes it for `electron-vite dev` only, whose page
 * needs an inline React-refresh preamble and Vite's HMR socket; builds never set it.
 */
export function contentSecurityPolicy(target: CspTarget, { isDevServer = false } = {}): string {
  const inline = isDevServer ? ["'unsafe-inline'"] : [];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...inline]],
    ['style-src', ["'self'", ...inline]],
    ['img-src', ["'self'", 'data:']],
    [
      'connect-src',
      ["'self'", ...(target === 'electron' ? [] : LOOPBACK_SOCKETS), ...(isDevServer ? ['http://localhost:*'] : [])],
    ],
    ['font-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ...(target === 'page' ? [] : ([['frame-ancestors', ["'none'"]]] as [string, string[]][])),
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}
