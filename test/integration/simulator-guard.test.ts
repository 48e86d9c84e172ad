// The simulator's control routes against web pages, over real HTTP: a route is resolved once
// (with or without /v1) before any check, so /v1/__sim/… is guarded like /__sim/…; a Host header
// that does not name the simulator (a DNS-rebinding page) is refused on every route; and the
// request log keeps only the newest requests. The offline switch is a control route too: guarded
// the same way, and never cut by the outage it plays, under either prefix. node:http is used
// because fetch cannot set Host.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';

let sim: SimulatorServer | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

interface Answer {
  status: number;
  body: string;
}

/** One raw request with exactly these headers (fetch forbids Host and adds its own). */
function send(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // The offline switch drops connections unanswered: a socket error is the answer then.
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve({ status: 0, body: 'dropped' }) : reject(error),
    );
    req.end(body);
  });
}

async function started(options: ConstructorParameters<typeof SimulatorServer>[0] = {}): Promise<number> {
  sim = new SimulatorServer(options);
  return Number(new URL(await sim.start()).port);
}

const completion = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false });

describe('simulator control routes', () => {
  it('guards /v1/__sim/script like /__sim/script: a page on another port cannot re-script it', async () => {
    const port = await started({ script: '503' });
    const fromPage = await send(
      port,
      'POST',
      '/v1/__sim/script',
      { host: `127.0.0.1:${port}`, origin: 'http://127.0.0.1:9999', 'content-type': 'text/plain' },
      '{"script":"ok"}',
    );
    expect(fromPage.status).toBe(403);
    expect(sim!.script).toBe('503');
    // The local client the route is for still works under either prefix.
    const local = await send(
      port,
      'POST',
      '/v1/__sim/script',
      { host: `127.0.0.1:${port}`, 'content-type': 'application/json' },
      '{"script":"ok"}',
    );
    expect(local.status).toBe(200);
    expect(sim!.script).toBe('ok');
  });

  it('refuses a Host that does not name it (DNS rebinding) on every route', async () => {
    const port = await started();
    await send(
      port,
      'POST',
      '/v1/chat/completions',
      { host: `127.0.0.1:${port}`, authorization: 'Bearer sk-x' },
      completion,
    );
    for (const path of ['/__sim/requests', '/v1/__sim/requests', '/v1/models']) {
      const rebound = await send(port, 'GET', path, { host: `attacker.example:${port}` });
      expect(rebound.status, path).toBe(421);
      expect(rebound.body).not.toContain('sk-x');
    }
    const chat = await send(port, 'POST', '/v1/chat/completions', { host: `rebind.example:${port}` }, completion);
    expect(chat.status).toBe(421);
    expect((await send(port, 'GET', '/__sim/requests', { host: `localhost:${port}` })).status).toBe(200);
  });

  it('keeps only the newest requests in its log', async () => {
    const port = await started({ requestLogLimit: 3 });
    for (let i = 0; i < 5; i += 1) {
      const reply = await send(port, 'POST', '/v1/chat/completions', { host: `127.0.0.1:${port}` }, completion);
      expect(reply.status).toBe(200);
    }
    expect(sim!.requests.map((r) => r.index)).toEqual([2, 3, 4]);
  });

  it('answers 400, not 500, to a request target it cannot parse', async () => {
    const port = await started();
    const reply = await send(port, 'GET', 'http://[bad/__sim/requests', { host: `127.0.0.1:${port}` });
    expect(reply.status).toBe(400);
  });
});

describe('the offline switch', () => {
  const json = (port: number) => ({ host: `127.0.0.1:${port}`, 'content-type': 'application/json' });

  it('is guarded like the other control routes, under either prefix', async () => {
    const port = await started();
    for (const path of ['/__sim/offline', '/v1/__sim/offline']) {
      const fromPage = await send(
        port,
        'POST',
        path,
        { ...json(port), origin: 'http://127.0.0.1:9999' },
        '{"offline":true}',
      );
      expect(fromPage.status, path).toBe(403);
    }
    expect((await send(port, 'POST', '/v1/chat/completions', json(port), completion)).status).toBe(200);
    expect((await send(port, 'POST', '/__sim/offline', json(port), '{"offline":"yes"}')).status).toBe(400);
  });

  it('drops model requests and HEADs while on; its control routes still answer, with /v1 too', async () => {
    const port = await started({ script: '503, ok' });
    expect((await send(port, 'HEAD', '/v1', { host: `127.0.0.1:${port}` })).status).toBe(204);
    expect((await send(port, 'POST', '/v1/__sim/offline', json(port), '{"offline":true}')).status).toBe(200);
    expect((await send(port, 'POST', '/v1/chat/completions', json(port), completion)).status).toBe(0);
    expect((await send(port, 'HEAD', '/v1', { host: `127.0.0.1:${port}` })).status).toBe(0);
    const state = await send(port, 'GET', '/v1/__sim/offline', { host: `127.0.0.1:${port}` });
    expect(JSON.parse(state.body)).toEqual({ offline: true, dropped: 1 });
    expect((await send(port, 'POST', '/v1/__sim/offline', json(port), '{"offline":false}')).status).toBe(200);
    // Neither the HEADs nor the dropped request consumed a step: the first request gets the 503.
    expect((await send(port, 'POST', '/v1/chat/completions', json(port), completion)).status).toBe(503);
    expect(sim!.requests.map((r) => r.step)).toEqual(['503']);
  });
});
