// A server's input schema cannot freeze the app (issue 40, item 10): pi validates a model's
// arguments against the tool's schema on the main thread, and `pattern: "^(a+)+$"` against 32 a's
// and a "!" backtracked for 148 s. A real stdio server (fixtures/mcp-schema-server.mjs) announces
// that pattern at the top level and inside an array's items behind a $ref; the call must go
// through to the server (which validates its own input) and the event loop must stay free.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES, serverStatus } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

const EVIL = '^(a+)+$';
const TOOLS = [
  {
    name: 'match',
    inputSchema: {
      type: 'object',
      properties: {
        s: { type: 'string', pattern: EVIL },
        list: { type: 'array', items: { $ref: '#/$defs/word' } },
        when: { type: 'string', format: 'date-time' },
      },
      required: ['s'],
      $defs: { word: { type: 'string', pattern: EVIL } },
    },
  },
];

let app: Started;
let root: string;
let countFile: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-redos-'));
  countFile = join(root, 'calls.txt');
  app = await startServices(
    {
      tools: { approval: 'auto' },
      mcp: {
        servers: {
          schemas: {
            command: process.execPath,
            args: [join(FIXTURES, 'mcp-schema-server.mjs')],
            env: { TOOLS: JSON.stringify(TOOLS), COUNT_FILE: countFile },
          },
        },
      },
    },
    { workspace: join(root, 'ws') },
  );
  await serverStatus(app.services, 'schemas');
}, 30_000);

afterAll(async () => {
  await app.stop();
  rmSync(root, { recursive: true, force: true });
});

it('a call whose arguments make the server’s pattern backtrack goes through, the event loop free', async () => {
  const evil = `${'a'.repeat(32)}!`;
  const args = JSON.stringify({ s: evil, list: [evil, evil], when: 'not a date' });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  app.sim.setScript(`tool:mcp__schemas__match:${args}, ok`);
  await app.services.session.prompt('go');
  delay.disable();
  expect(app.sim.requests[1].lastToolResult).toBe(`called match ${args}`);
  expect(existsSync(countFile) ? readFileSync(countFile, 'utf8') : '').toBe('match\n');
  // The old code held the loop for minutes at n = 32 (2^n steps); a free loop answers in ms, and
  // no load on this machine has held it for 20 s (a bound the backtracking passes by far).
  expect(delay.max / 1e6).toBeLessThan(20_000);
}, 60_000);
