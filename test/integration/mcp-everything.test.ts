// MCP tools against the reference server-everything (a dev dependency no one here wrote) over
// stdio, through the real AppServices and the built-in simulator over HTTP: a scripted
// `tool:mcp__everything__…` step runs the tool, and the request the model got next carries the
// result — echo, sum, an image, a long operation whose progress streams, its env tool showing none
// of the app's keys — plus approval asking first by default, and a failed server's reason.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import { EVERYTHING, serverStatus } from './fixtures/mcp-servers';
import { startServices, visionModelThroughSimulator, type Started } from './fixtures/services';

let app: Started;
let workspace: string;
const SECRET = 'sk-ant-resolute-test-secret-123';

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'resolute-mcp-ws-'));
  process.env.ANTHROPIC_API_KEY = SECRET;
  process.env.OPENAI_API_KEY = SECRET;
  app = await startServices(
    {
      tools: { approval: 'auto' },
      mcp: {
        servers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { GIVEN: 'by-entry' } },
          missing: { command: '/nonexistent/mcp-server' },
        },
      },
    },
    { workspace },
  );
  await serverStatus(app.services, 'everything');
}, 30_000);

afterAll(async () => {
  await app.stop();
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.OPENAI_API_KEY;
  rmSync(workspace, { recursive: true, force: true });
});

/** Run one scripted tool call; returns what the model was given next. */
async function callTool(step: string): Promise<{ toolResult: string | null; messages: unknown[] }> {
  app.sim.clearRequests();
  app.sim.setScript(`${step}, ok`);
  await app.services.session.prompt('go');
  const next = app.sim.requests[1];
  expect(next, 'the model was asked again after the tool').toBeDefined();
  return { toolResult: next.lastToolResult, messages: next.messages };
}

describe('server-everything over stdio', () => {
  it('connects in the background and lists its tools as mcp__everything__<tool>', async () => {
    const status = await serverStatus(app.services, 'everything');
    expect(status).toMatchObject({ state: 'connected', toolNames: expect.arrayContaining(['echo', 'get-sum']) });
    await callTool('tool:mcp__everything__echo:{"message":"x"}');
    expect(app.sim.requests[0].toolNames).toEqual(
      expect.arrayContaining(['bash', 'mcp__everything__echo', 'mcp__everything__get-sum']),
    );
  });

  it('echo: the result reaches the model', async () => {
    const { toolResult } = await callTool('tool:mcp__everything__echo:{"message":"hello from the test"}');
    expect(toolResult).toBe('Echo: hello from the test');
  });

  it('get-sum: arguments go through the server’s own schema', async () => {
    const { toolResult } = await callTool('tool:mcp__everything__get-sum:{"a":2,"b":40}');
    expect(toolResult).toMatch(/42/);
  });

  it('get-tiny-image: a model without image input is told the image was left out', async () => {
    // resolute-sim-2 is the simulator's text-only model.
    await app.services.domains.settings.update({ provider: { id: 'simulator', model: 'resolute-sim-2' } });
    try {
      const { toolResult } = await callTool('tool:mcp__everything__get-tiny-image:{}');
      expect(toolResult).toMatch(/image omitted/);
    } finally {
      await app.services.domains.settings.update({ provider: { id: 'simulator', model: 'resolute-sim-1' } });
    }
  });

  it('get-tiny-image: an image-capable model gets the image itself', async () => {
    await visionModelThroughSimulator(app.services);
    try {
      const { messages } = await callTool('tool:mcp__everything__get-tiny-image:{}');
      const wire = JSON.stringify(messages.slice(-2));
      expect(wire).toContain('"url":"data:image/png;base64,iVBOR');
      const end = app.events.filter((e) => e.type === 'tool_execution_end').at(-1);
      expect(JSON.stringify(end)).toContain('"type":"image"');
    } finally {
      await app.services.domains.settings.update({ provider: { id: 'simulator', model: 'resolute-sim-1' } });
    }
  });

  it('a long operation streams its progress as tool_execution_update and finishes', async () => {
    const from = app.events.length;
    const { toolResult } = await callTool(
      'tool:mcp__everything__trigger-long-running-operation:{"duration":0.6,"steps":3}',
    );
    expect(toolResult).toMatch(/Long running operation completed/);
    const updates = app.events.slice(from).filter((e: SessionEvent) => e.type === 'tool_execution_update');
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(updates)).toContain('(2/3)');
  });

  it('the app took the keys out of its own environment at start, and still has them', () => {
    expect(process.env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(process.env.OPENAI_API_KEY).toBeUndefined();
    expect(app.services.credentials.hasEnvKey('anthropic')).toBe(true);
    expect(app.services.credentials.secrets(['openai'])).toEqual([SECRET]);
  });

  it('get-env: the server sees its own env and none of the app’s keys', async () => {
    const { toolResult } = await callTool('tool:mcp__everything__get-env:{}');
    expect(toolResult).toContain('by-entry');
    expect(toolResult).not.toContain(SECRET);
    expect(toolResult).not.toMatch(/ANTHROPIC_API_KEY|OPENAI_API_KEY/);
  });

  it('its stderr goes to logs/mcp/everything.log', () => {
    const log = readFileSync(join(app.dataDir, 'logs', 'mcp', 'everything.log'), 'utf8');
    expect(log).toMatch(/starting /);
  });

  it('a server that cannot start is failed, with the reason, and does not stop a prompt', async () => {
    const status = await serverStatus(app.services, 'missing', 'failed');
    expect(status).toMatchObject({ state: 'failed', reason: expect.stringMatching(/ENOENT|not found|spawn/) });
    const decisions = readFileSync(join(app.dataDir, 'logs', 'retry-decisions.jsonl'), 'utf8');
    expect(decisions).toContain('MCP server \\"missing\\"');
  });

  it('its resources and prompts are listed read-only (mcp.catalog), and none of them is a tool', async () => {
    const catalog = await app.services.commands['mcp.catalog']({ name: 'everything' });
    expect(catalog.supports).toEqual({ resources: true, prompts: true });
    expect(catalog.resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^demo:\/\/resource\/static\/document\//)]),
    );
    expect(catalog.resourceTemplates.length).toBeGreaterThan(0);
    expect(catalog.prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
    const args = catalog.prompts.find((p) => p.name === 'args-prompt')!;
    expect(args.arguments).toContainEqual(expect.objectContaining({ required: true }));
    // The tools offered to the model, from a request made here: run alone, no earlier test made one.
    await callTool('tool:mcp__everything__echo:{"message":"x"}');
    const names = app.sim.requests[0].toolNames;
    expect(names).toContain('mcp__everything__echo');
    expect(names.some((n) => /simple-prompt|args-prompt|demo:/.test(n))).toBe(false);
    await expect(app.services.commands['mcp.catalog']({ name: 'missing' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
