// Secrets in provider error text, over real HTTP: an OpenAI-compatible server that echoes the key
// it was sent (as sent, without its prefix, base64-encoded, and other key-shaped strings) in its error body. Whatever the app keeps or sends —
// the session events every client receives, the history (turns, chains, decisions), its exports
// and the decision-log file — carries none of them, only "[redacted]" where they stood.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import type { SessionEvent } from '../../src/shared/events';

const RUN_KEY = 'rk-live-4f9a8b7c6d5e4f3a2b1c0d9e';
const STORED_KEY = 'stored-7Hq2Lm9Xv4Tz8Kp3Wn6Rb1Yd';
const FOREIGN_SHAPED = ['sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1', 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7'];
/** How a proxy may echo the key: without its prefix, and base64-encoded (the first 24 characters are enough to tell). */
const bare = (key: string) => key.replace(/^[a-z]+-[a-z]+-/, '');
const base64 = (key: string) => Buffer.from(key).toString('base64').slice(0, 24);
const ECHOED_FORMS = [bare(RUN_KEY), base64(RUN_KEY), base64(`user:${RUN_KEY}`).slice(8)];

let provider: Server;
let services: AppServices;
let dataDir: string;
const events: SessionEvent[] = [];

beforeAll(async () => {
  // Every request fails with a body that quotes the bearer token it came with.
  provider = createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const body = JSON.stringify({
      error: {
        message:
          `upstream rejected ${auth} (key ${auth.replace(/^Bearer /, '')}); also saw ${FOREIGN_SHAPED.join(' and ')}; ` +
          `key id ${bare(auth.replace(/^Bearer /, ''))}, sent as ${Buffer.from(auth.replace(/^Bearer /, '')).toString('base64')} ` +
          `and as ${Buffer.from(`user:${auth.replace(/^Bearer /, '')}`).toString('base64')}`,
        type: 'server_error',
      },
    });
    req.resume();
    req.on('end', () => res.writeHead(503, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-redact-'));
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    baseUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`,
    model: 'echo-model',
    apiKey: RUN_KEY,
    overlay: { retry: { baseDelayMs: 1, jitterMaxMs: 0, maxRetries: 1 } },
    publish: (event) => events.push(event),
  });
  await services.domains.providers.addKey('openai-compatible', STORED_KEY);
});

afterAll(async () => {
  await services.dispose();
  await new Promise((resolve) => provider.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

function expectNoSecret(text: string, where: string): void {
  for (const secret of [RUN_KEY, STORED_KEY, ...FOREIGN_SHAPED, ...ECHOED_FORMS])
    expect(text, `${where} holds ${secret}`).not.toContain(secret);
}

describe('secrets in error text', () => {
  it('are redacted before the error is stored, logged, exported or sent', async () => {
    await services.session.prompt('hello');
    const sessionId = services.session.sessionId;
    const detail = services.history.getSession(sessionId);
    const errored = detail?.turns.filter((t) => t.errorMessage) ?? [];
    expect(errored.length).toBeGreaterThan(0);
    expect(errored[0].errorMessage).toContain('[redacted]');

    expectNoSecret(JSON.stringify(events), 'the events sent to clients');
    expectNoSecret(JSON.stringify(detail), 'the history');
    expectNoSecret(JSON.stringify(services.history.erroredTurns()), 'the errored-turn list');
    expectNoSecret(readFileSync(join(dataDir, 'logs', 'retry-decisions.jsonl'), 'utf8'), 'the decision log');
    for (const format of ['json', 'markdown'] as const)
      expectNoSecret(services.history.exportSession(sessionId, format)?.content ?? '', `the ${format} export`);
  });
});
