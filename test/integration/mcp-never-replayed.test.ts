// A tools/call is never replayed (docs/mcp.md, "Failures"), checked with a server of the tests'
// own that writes down every call it gets (fixtures/mcp-counting-server.mjs): exactly one call
// across a retry of the model request after it, a server that dies and is reconnected, and a
// Continue; a call that hangs ends at its time limit as a result; isError and a throw are results
// the model gets, not retries.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, serverStatus } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

let app: Started;
let root: string;
let countFile: string;

/**
 * The default time limit for every call but the hang's: with 1 s on all of them, a loaded machine's
 * slow answer to `count` or `cwd` ended at the limit. The limit is read per call (a change restarts
 * nothing), so the hang's test sets 1 s for itself.
 */
const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
const counter = (toolTimeoutMs: number) => ({
  command: process.execPath,
  args: [join(FIXTURES, 'mcp-counting-server.mjs')],
  env: { COUNT_FILE: countFile },
  toolTimeoutMs,
});
const setToolTimeout = (ms: number) => app.services.settings.update({ mcp: { servers: { counter: counter(ms) } } });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-count-'));
  countFile = join(root, 'calls.txt');
  app = await startServices(
    { tools: { approval: 'auto' }, mcp: { servers: { counter: counter(DEFAULT_TOOL_TIMEOUT_MS) } } },
    { workspace: join(root, 'ws') },
  );
  await serverStatus(app.services, 'counter');
}, 30_000);

afterAll(async () => {
  await app.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  rmSync(countFile, { force: true });
  app.sim.clearRequests();
});

const calls = () => (existsSync(countFile) ? readFileSync(countFile, 'utf8').trim().split('\n') : []);

async function run(script: string): Promise<void> {
  app.sim.setScript(script);
  await app.services.session.prompt('go');
}

describe('a tools/call is never replayed', () => {
  it('by a retry of the model request after it', async () => {
    await run('tool:mcp__counter__count:{}, 503, ok');
    expect(app.sim.requests.map((r) => r.step)).toEqual(['tool:mcp__counter__count:{}', '503', 'ok']);
    expect(app.sim.requests[2].lastToolResult).toBe('counted');
    expect(calls()).toEqual(['count']);
  });

  it('by a Continue after the turn failed', async () => {
    await run('tool:mcp__counter__count:{}, bad_request, ok');
    expect(calls()).toEqual(['count']);
    await app.services.domains.session.continueTurn();
    expect(app.sim.requests.at(-1)?.step).toBe('ok');
    expect(app.sim.requests.at(-1)?.lastToolResult).toBe('counted');
    expect(calls()).toEqual(['count']);
  });

  it('by the reconnect after the server died during the call', async () => {
    await run('tool:mcp__counter__die:{}, ok');
    expect(app.sim.requests[1].lastToolResult).toMatch(/MCP server failed this call: .*(closed|Connection)/i);
    await run('tool:mcp__counter__count:{}, ok');
    expect(app.sim.requests.at(-1)?.lastToolResult).toBe('counted');
    expect(calls()).toEqual(['die', 'count']);
    expect(await serverStatus(app.services, 'counter')).toMatchObject({ state: 'connected', tools: 6 });
  });
});

describe('the working folder', () => {
  it('is the session’s workspace, and a new workspace restarts the server there', async () => {
    await run('tool:mcp__counter__cwd:{}, ok');
    expect(app.sim.requests[1].lastToolResult).toBe(realpathSync(join(root, 'ws')));
    const other = join(root, 'other');
    mkdirSync(other);
    app.services.domains.tools.setWorkspace(other);
    await serverStatus(app.services, 'counter', 'starting', 2000).catch(() => undefined);
    await serverStatus(app.services, 'counter');
    app.sim.clearRequests();
    await run('tool:mcp__counter__cwd:{}, ok');
    expect(app.sim.requests[1].lastToolResult).toBe(realpathSync(other));
  });
});

describe('failures are the tool’s result', () => {
  it('a call that hangs ends at its time limit (1 s here), once', async () => {
    setToolTimeout(1000);
    const started = Date.now();
    await run('tool:mcp__counter__hang:{}, ok').finally(() => setToolTimeout(DEFAULT_TOOL_TIMEOUT_MS));
    const took = Date.now() - started;
    expect(app.sim.requests[1].lastToolResult).toMatch(/did not answer within its time limit \(1 s/);
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(calls()).toEqual(['hang']);
    const end = app.events.filter((e) => e.type === 'tool_execution_end').at(-1);
    expect(end).toMatchObject({ isError: true, result: { details: { timedOut: true } } });
  });

  it('isError goes to the model as it is', async () => {
    await run('tool:mcp__counter__fail:{}, ok');
    expect(app.sim.requests[1].lastToolResult).toBe('the tool says no');
    expect(calls()).toEqual(['fail']);
  });

  it('a throw in the tool goes to the model as an error result', async () => {
    await run('tool:mcp__counter__boom:{}, ok');
    expect(app.sim.requests[1].lastToolResult).toMatch(/kaboom/);
    expect(calls()).toEqual(['boom']);
  });

  it('Stop cancels a call that is running; it is not run again', async () => {
    app.sim.setScript('tool:mcp__counter__hang:{}, ok');
    const prompt = app.services.session.prompt('go');
    // Stop once the server has the call (a loaded machine may take seconds to get there; 2 s was the cap).
    await expect.poll(calls, { timeout: 15_000, interval: 10 }).toContain('hang');
    app.services.session.abort();
    await prompt;
    expect(calls()).toEqual(['hang']);
    const end = app.events.filter((e) => e.type === 'tool_execution_end').at(-1);
    expect(JSON.stringify(end)).toMatch(/cancelled/);
  });
});
