// Replays are safe (docs/retry-policy.md, "Nothing streamed is lost"): a tool call whose result is
// stored is never run again — not by the retry of the model request after it, not by a Continue
// after a reply that failed once the tool had run. The tool is the real sandboxed `bash`, and it
// counts its own runs in a file of the workspace; the model is the simulator over real HTTP.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandRouter } from '../../src/main/router/command-router';
import { AppServices } from '../../src/main/node/app-services';

let root: string;
let services: AppServices;
let router: CommandRouter;

const COUNTING_CALL = 'tool:bash:{"command":"echo run >> count.txt; wc -l < count.txt"}';
const runs = () =>
  readFileSync(join(root, 'ws', 'count.txt'), 'utf8')
    .trim()
    .split('\n').length;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-replays-'));
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir: join(root, 'data'),
    workspace: join(root, 'ws'),
    overlay: { retry: { baseDelayMs: 1, jitterMaxMs: 0 }, tools: { approval: 'auto' } },
    publish: () => undefined,
  });
  router = new CommandRouter(services.commands);
});

afterEach(async () => {
  await services.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('a tool call whose result is stored', () => {
  it('is not run again when the model request after it fails and is retried', async () => {
    services.simulator!.setScript(`${COUNTING_CALL}, 503, 503, ok`);
    await services.session.prompt('count once');
    expect(runs()).toBe(1);
    expect(services.simulator!.requests.map((r) => r.step)).toEqual([COUNTING_CALL, '503', '503', 'ok']);
    // The retried requests carried the stored result back to the model.
    expect(services.simulator!.requests.at(-1)!.lastToolResult).toMatch(/^1\b/);
  });

  it('is not run again by Continue after the reply that followed it was cut off', async () => {
    services.settings.update({ retry: { enabled: false } });
    services.simulator!.setScript(`${COUNTING_CALL}, stream_error`);
    await services.session.prompt('count once, then fail');
    expect(runs()).toBe(1);
    services.simulator!.setScript('ok');
    services.simulator!.clearRequests();
    const reply = await router.dispatch({ kind: 'request', id: 1, method: 'session.continue', params: {} });
    expect(reply.ok).toBe(true);
    await services.session.waitForPendingWork();
    expect(runs()).toBe(1);
    expect(services.simulator!.requests).toHaveLength(1);
    // The stored result went back to the model; the cut-off reply's words came after it.
    expect(services.simulator!.requests[0].messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
  });
});
