// The Node modes' network check (src/main/node/reachability.ts) against real sockets: a provider on
// a loopback or private address that does not answer is not "offline" — the machine's network has
// nothing to do with it, and taking it for offline paused the chain forever (issue 24) — while a
// public host that does not answer still is.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { headProbe, isLocalHost } from '../../../src/main/node/reachability';

/** A port on 127.0.0.1 that nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('headProbe', () => {
  it('a down OpenAI-compatible server on 127.0.0.1 counts as reachable (not offline)', async () => {
    const port = await closedPort();
    expect(await headProbe(300)(`http://127.0.0.1:${port}/v1`)).toBe(true);
    expect(await headProbe(300)(`http://localhost:${port}/v1`)).toBe(true);
  });

  it('a private address that does not answer is not offline either', async () => {
    expect(await headProbe(300)('http://10.255.255.1:8000/v1')).toBe(true);
    expect(await headProbe(300)('http://[fd00::1]:8000/v1')).toBe(true);
  });

  it('a public host that cannot be reached is offline (the checks above can fail)', async () => {
    // Name resolution fails, as it does with the network gone.
    expect(await headProbe(300)('https://api.resolute-test.invalid/v1')).toBe(false);
  });
});

describe('isLocalHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['api.localhost', true],
    ['[::1]', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.20', true],
    ['169.254.1.1', true],
    ['[fe80::1]', true],
    ['[fd12::3]', true],
    ['100.64.0.1', true],
    ['printer.local', true],
    ['api.openai.com', false],
    ['8.8.8.8', false],
    ['[2001:db8::1]', false],
  ])('%s → %s', (host, local) => {
    expect(isLocalHost(host)).toBe(local);
  });
});
