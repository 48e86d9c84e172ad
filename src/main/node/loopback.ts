// The DNS-rebinding guard shared by the two loopback servers (the browser mode's and the
// simulator's): a request's Host header must name this server by a loopback address, because a
// page whose name was re-pointed at 127.0.0.1 still sends its own name as Host.
import type { IncomingMessage } from 'node:http';

/** The origins (scheme://host:port) under which a loopback server on `port` may be addressed. */
export function loopbackOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

export function loopbackHostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host ?? '';
  return loopbackOrigins(port).some((origin) => origin === `http://${host}`);
}
