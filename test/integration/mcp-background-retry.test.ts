// A server that failed at start is tried again in the background (docs/mcp.md, "Failures"), by the
// decision table's `connection` row with each decision logged, and its tools join once it is up;
// "Retry now" (mcp.retry) starts a round at once; "Show log" (mcp.log) returns the end of its stderr
// log. Against a real process of the tests' own that exits on its first start and serves on the
// next (fixtures/mcp-flaky-server.mjs), in the real AppServices.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerStatus } from '../../src/shared/mcp-values';
import { FIXTURES, serverStatus } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

let app: Started | undefined;
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-flaky-'));
});
afterEach(async () => {
  await app?.stop();
  app = undefined;
  rmSync(root, { recursive: true, force: true });
});

const flaky = (startFile: string, failStarts = 1) => ({
  command: process.execPath,
  args: [join(FIXTURES, 'mcp-flaky-server.mjs')],
  env: { START_FILE: startFile, FAIL_STARTS: String(failStarts) },
});

/** The statuses the app published for this server, in order. */
const published = (started: Started, name: string): McpServerStatus[] =>
  started.events.flatMap((e) => (e.type === 'mcp_status' ? e.servers.filter((s) => s.name === name) : []));

describe('a server that failed at start', () => {
  it('is tried again in the background, shown with its next attempt, and its tools join when it is up', async () => {
    const startFile = join(root, 'starts.txt');
    app = await startServices(
      {
        // One attempt in the row's round, so the first start's exit uses it up; the next is 1 s later.
        retry: { baseDelayMs: 1000, policy: { connection: { maxAttempts: 1 } } },
        tools: { approval: 'auto' },
        mcp: { servers: { flaky: flaky(startFile) } },
      },
      { workspace: join(root, 'ws') },
    );
    const failedAt = Date.now();
    const failed = await serverStatus(app.services, 'flaky', 'failed', 10_000);
    expect(failed).toMatchObject({ state: 'failed', reason: expect.stringMatching(/closed/i) });
    // The failure came after failedAt; its next attempt is the backoff (1000 ms, in the log below) after it.
    expect(failed.state === 'failed' && failed.nextAttemptAt).toBeGreaterThanOrEqual(failedAt + 1000);

    expect(await serverStatus(app.services, 'flaky', 'connected', 10_000)).toMatchObject({ tools: 1 });
    expect(readFileSync(startFile, 'utf8')).toBe('start 1\nstart 2\n');
    expect(published(app, 'flaky').map((s) => s.state)).toEqual(expect.arrayContaining(['failed', 'connected']));

    app.sim.setScript('tool:mcp__flaky__hello:{}, ok');
    await app.services.session.prompt('say hello');
    expect(app.sim.requests[1].lastToolResult).toBe('hello from a server that came up late');

    const decisions = readFileSync(join(app.services.domains.app.info().logDir, 'retry-decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { reason: string; category: string; action: string; context: object })
      .filter((d) => /MCP server "flaky"/.test(d.reason));
    expect(decisions).toEqual([
      expect.objectContaining({
        category: 'connection',
        action: 'retry',
        context: expect.objectContaining({ taskType: 'mcp_connect', modelId: 'flaky', provider: 'mcp' }),
        reason: expect.stringMatching(/attempt 1, next attempt in the background after 1000 ms/),
      }),
    ]);
  }, 30_000);

  it('with retries off it stays failed with no next attempt; "Retry now" brings it up; "Show log" shows its stderr', async () => {
    const startFile = join(root, 'starts.txt');
    app = await startServices(
      { retry: { enabled: false }, mcp: { servers: { flaky: flaky(startFile) } } },
      { workspace: join(root, 'ws') },
    );
    const failed = await serverStatus(app.services, 'flaky', 'failed', 10_000);
    expect(failed).not.toHaveProperty('nextAttemptAt');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(app.services.mcp.statuses()[0].state).toBe('failed');
    expect(readFileSync(startFile, 'utf8')).toBe('start 1\n');

    const log = await app.services.commands['mcp.log']({ name: 'flaky' });
    expect(log.path).toBe(join(app.services.domains.app.info().logDir, 'mcp', 'flaky.log'));
    expect(log.text).toMatch(/starting .*mcp-flaky-server\.mjs/);
    expect(log.text).toContain('flaky: failing start 1 on purpose');
    expect(log.truncated).toBe(false);

    expect(await app.services.commands['mcp.retry']({ name: 'flaky' })).toEqual({ retrying: true });
    expect(await serverStatus(app.services, 'flaky', 'connected', 10_000)).toMatchObject({ tools: 1 });
    expect((await app.services.commands['mcp.log']({ name: 'flaky' })).text).toContain('flaky: serving on start 2');
    expect(await app.services.commands['mcp.retry']({ name: 'nobody' })).toEqual({ retrying: false });
  }, 30_000);
});

describe('"Show log"', () => {
  it('gives the last lines asked for, and says when earlier ones were left out', async () => {
    app = await startServices({}, { workspace: join(root, 'ws') });
    const file = app.services.mcp.logPath('big');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const tail = await app.services.commands['mcp.log']({ name: 'big' });
    expect(tail.text.split('\n')).toHaveLength(200);
    expect(tail.text.split('\n')[0]).toBe('line 301');
    expect(tail.text.endsWith('line 500')).toBe(true);
    expect(tail).toMatchObject({ truncated: true });
    expect((await app.services.commands['mcp.log']({ name: 'none' })).text).toBe('');
  });
});
