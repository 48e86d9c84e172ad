// The browser mode's launch token as the page keeps it: read once — from the printed URL's ?token=,
// or from the <meta> the server puts in the page a one-time launch link loads (`?launch=`, what a
// browser Resolute starts gets: browser-server.ts) — then kept in this tab's sessionStorage (so a
// reload still works) and removed from the address bar and the page (so it is neither shown nor
// left in the browser's history). The page presents it on its WebSocket only. Called by pick-bridge.ts.
import { SOCKET_PROTOCOL, SOCKET_TOKEN_PREFIX } from '../../../shared/socket';

const STORAGE_KEY = 'resolute.launchToken';
const META_NAME = 'resolute-launch-token';
/** The server makes base64url tokens; anything else cannot be offered as a subprotocol. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,200}$/;

export interface TokenWindow {
  location: Pick<Location, 'search' | 'pathname' | 'hash'>;
  history: Pick<History, 'replaceState' | 'state'>;
  sessionStorage: Pick<Storage, 'getItem' | 'setItem'>;
  document: { querySelector(selector: string): { getAttribute(name: string): string | null; remove(): void } | null };
}

/** The token from the address (taken out of it) or the one this tab kept; null when there is none. */
export function takeLaunchToken(win: TokenWindow): string | null {
  const params = new URLSearchParams(win.location.search);
  const fromUrl = params.get('token');
  const fromPage = pageToken(win);
  if (fromUrl === null && fromPage === null && !params.has('launch')) return valid(stored(win));
  params.delete('token');
  // The link's code is spent: a reload must not present it again.
  params.delete('launch');
  const query = params.toString();
  win.history.replaceState(
    win.history.state,
    '',
    `${win.location.pathname}${query ? `?${query}` : ''}${win.location.hash}`,
  );
  const token = valid(fromUrl ?? fromPage ?? stored(win));
  try {
    if (token) win.sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage switched off: the token lives as long as this page, and a reload will ask for the URL.
  }
  return token;
}

/** The token a launch link's page carries, taken out of the page. */
function pageToken(win: TokenWindow): string | null {
  const meta = win.document.querySelector(`meta[name="${META_NAME}"]`);
  if (!meta) return null;
  const token = meta.getAttribute('content');
  meta.remove();
  return token;
}

/** What the page offers when it opens its socket: our protocol name, and the token beside it. */
export function socketProtocols(token: string | null): string[] {
  return token ? [SOCKET_PROTOCOL, `${SOCKET_TOKEN_PREFIX}${token}`] : [SOCKET_PROTOCOL];
}

function stored(win: TokenWindow): string | null {
  try {
    return win.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function valid(token: string | null): string | null {
  return token !== null && TOKEN_SHAPE.test(token) ? token : null;
}
