// MCP tool names never clash silently (issue 40, item 16): real stdio servers of the tests' own
// (fixtures/mcp-schema-server.mjs) announce tools whose `mcp__<server>__<tool>` names coincide —
// `a`/`b__c` and `a__b`/`c`, two names alike in their first 64 characters, `a.b` and `a_b`. The
// model is offered every one of them under its own name, each call reaches the tool it names,
// and the servers' statuses and logs say which tools were renamed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { McpServerStatus } from '../../src/shared/mcp-values';
import { FIXTURES, serverStatus } from './fixtures/mcp-servers';
import { startServices, type Started } from './fixtures/services';

const LONG = 'x'.repeat(70);
const SERVERS: Record<string, string[]> = {
  a: ['b__c'],
  a__b: ['c'],
  s: ['a.b', 'a_b', `${LONG}1`, `${LONG}2`, 'plain'],
};

let app: Started;
let root: string;

const server = (tools: string[]) => ({
  command: process.execPath,
  args: [join(FIXTURES, 'mcp-schema-server.mjs')],
  env: { TOOLS: JSON.stringify(tools.map((name) => ({ name }))) },
});

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-mcp-names-'));
  const servers = Object.fromEntries(Object.entries(SERVERS).map(([name, tools]) => [name, server(tools)]));
  app = await startServices({ tools: { approval: 'auto' }, mcp: { servers } }, { workspace: join(root, 'ws') });
  for (const name of Object.keys(SERVERS)) await serverStatus(app.services, name);
}, 30_000);

afterAll(async () => {
  await app.stop();
  rmSync(root, { recursive: true, force: true });
});

type Connected = Extract<McpServerStatus, { state: 'connected' }>;
const renamedOf = (name: string) =>
  (app.services.mcp.statuses().find((s) => s.name === name) as Connected).renamed ?? [];

it('offers every tool under a name of its own, and says which were renamed', async () => {
  app.sim.setScript('ok');
  await app.services.session.prompt('which tools?');
  const offered = app.sim.requests[0].toolNames.filter((name) => name.startsWith('mcp__'));
  expect(offered).toHaveLength(7);
  expect(new Set(offered).size).toBe(7);
  expect(offered).toContain('mcp__s__plain');
  for (const name of offered) expect(name.length).toBeLessThanOrEqual(64);
  expect(renamedOf('a').map((r) => r.tool)).toEqual(['b__c']);
  expect(renamedOf('a__b').map((r) => r.tool)).toEqual(['c']);
  expect(
    renamedOf('s')
      .map((r) => r.tool)
      .sort(),
  ).toEqual(['a.b', 'a_b', `${LONG}1`, `${LONG}2`]);
  const log = readFileSync(app.services.mcp.logPath('a'), 'utf8');
  expect(log).toContain(`offered as: b__c → ${renamedOf('a')[0].name}`);
});

it('a call by each renamed name reaches the tool it names', async () => {
  const targets = [
    ...renamedOf('a').map((r) => ({ ...r, server: 'a' })),
    ...renamedOf('a__b').map((r) => ({ ...r, server: 'a__b' })),
    ...renamedOf('s').map((r) => ({ ...r, server: 's' })),
  ];
  expect(targets).toHaveLength(6);
  for (const { name, tool } of targets) {
    app.sim.clearRequests();
    app.sim.setScript(`tool:${name}:{}, ok`);
    await app.services.session.prompt('call it');
    expect(app.sim.requests[1].lastToolResult).toBe(`called ${tool} {}`);
  }
}, 30_000);

it('a server that goes away gives the other its plain name back', async () => {
  await app.services.domains.settings.update({ mcp: { servers: { a__b: null } } });
  await expect.poll(() => renamedOf('a')).toEqual([]);
  app.sim.clearRequests();
  app.sim.setScript('tool:mcp__a__b__c:{}, ok');
  await app.services.session.prompt('call it');
  expect(app.sim.requests[1].lastToolResult).toBe('called b__c {}');
});
