// The simulator's request guard and its bounded request log, kept apart from the wire formats in
// simulator-server.ts, which calls routeRequest once per request before its route switch. The
// route is resolved first (the /v1 or /v1beta prefix is optional) and every check looks at
// the resolved route, so /v1/__sim/script cannot slip past a check made on the raw path.
import type { IncomingMessage } from 'node:http';
import { loopbackHostAllowed } from '../loopback';

export type RouteResult =
  | {
      ok: true;
      /** e.g. "/chat/completions", "/__sim/script" */ route: string;
      /** as requested, for messages */ path: string;
    }
  | { ok: false; status: number; type: string; message: string };

const CONTROL_PREFIX = '/__sim/';

/** The simulator's own control routes (a resolved route): guarded here, and never cut by its offline switch. */
export const isControlRoute = (route: string): boolean => route.startsWith(CONTROL_PREFIX);

/**
 * Resolve a request's route and decide whether it may be served. Refused: a request target that
 * does not parse (400); a Host that does not name this server, i.e. a DNS-rebinding page (421);
 * and on the control routes, anything a web page could send — an Origin header, or a POST that is
 * not JSON (a JSON POST from a page needs a CORS preflight this server never grants) (403).
 */
export function routeRequest(req: IncomingMessage, port: number): RouteResult {
  let path: string;
  try {
    path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.replace(/\/+$/, '');
  } catch {
    return { ok: false, status: 400, type: 'invalid_request_error', message: 'The request target is not a valid URL.' };
  }
  if (!loopbackHostAllowed(req, port)) {
    return { ok: false, status: 421, type: 'forbidden', message: 'The Host header does not name this server.' };
  }
  // The version prefix is optional ("/v1/chat/completions", "/chat/completions"); Gemini's is "/v1beta".
  const route = path.replace(/^(?:\/(?:v1|v1beta))+(?=\/)/, '');
  const isJsonPost = String(req.headers['content-type'] ?? '').includes('application/json');
  if (isControlRoute(route) && (req.headers.origin !== undefined || (req.method === 'POST' && !isJsonPost))) {
    return {
      ok: false,
      status: 403,
      type: 'forbidden',
      message: 'Requests from web pages are not accepted; send JSON from a local client.',
    };
  }
  return { ok: true, route, path };
}

/** The newest `limit` entries, numbered in arrival order since the last clear. */
export class RequestLog<T extends { index: number }> {
  private entries: T[] = [];
  private total = 0;

  constructor(private readonly limit: number) {}

  /** The index the next entry gets. */
  get nextIndex(): number {
    return this.total;
  }

  add(entry: T): void {
    this.total += 1;
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  list(): T[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
    this.total = 0;
  }
}
