// The browser mode's WebSocket names, apart from wire.ts: the window's first chunk needs these
// three constants, and wire.ts brings zod and every command's schema (contract.ts), built at import.
// Used by modes/browser/browser-server.ts and the renderer's websocket-bridge.ts and launch-token.ts.

/**
 * The page offers this protocol name and, beside it, the launch token as `token.<token>`; a socket
 * without a valid token is closed with SOCKET_UNAUTHORIZED, a code the page can read (a refused
 * handshake looks like a server that is down).
 */
export const SOCKET_PROTOCOL = 'resolute';
export const SOCKET_TOKEN_PREFIX = 'token.';
export const SOCKET_UNAUTHORIZED = 4401;
