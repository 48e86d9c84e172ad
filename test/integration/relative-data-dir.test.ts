// A relative --data-dir (issue 24): it was passed on as given, so bubblewrap got a relative path to
// hide and every bash call failed with the "enable user namespaces" fix message. The flag is made
// absolute where it is parsed (src/main/modes/launch.ts) and where the data folder is chosen
// (resolveDataDir); a bash call through the real composition root then runs.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommonFlags } from '../../src/main/modes/launch';
import { resolveDataDir } from '../../src/main/node/app-options';
import { AppServices } from '../../src/main/node/app-services';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'resolute-reldata-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a relative --data-dir', () => {
  it('is made absolute where the flag is parsed and where the data folder is chosen', () => {
    expect(parseCommonFlags(['--data-dir', 'some/data']).dataDir).toBe(resolve('some/data'));
    expect(isAbsolute(resolveDataDir('rel-data'))).toBe(true);
    expect(resolveDataDir('rel-data')).toBe(resolve('rel-data'));
  });

  it('does not break bash: the command runs', async () => {
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    // A plain relative name, as typed: `--data-dir data`.
    const cwd = process.cwd();
    process.chdir(root);
    const dataDir = 'data';
    const app = await AppServices.create({
      host: 'rpc',
      version: 'test',
      dataDir,
      workspace,
      overlay: { tools: { approval: 'auto', timeoutMs: 10_000 } },
      publish: () => undefined,
    });
    try {
      app.simulator!.setScript(`tool:bash:${JSON.stringify({ command: 'echo ran in the sandbox' })}, ok`);
      await app.session.prompt('go');
      expect(app.simulator!.requests[1]?.lastToolResult).toBe('ran in the sandbox');
    } finally {
      await app.dispose();
      process.chdir(cwd);
    }
  });
});
