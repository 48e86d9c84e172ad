// An MCP server's images are fitted before they reach the model, as the read tool's are: a real
// stdio server (fixtures/mcp-image-server.mjs) returns a 16000×16000 PNG, and the request the
// model gets next carries it within every provider's limits (2,048 px a side, 5 MB of base64),
// with a line saying it was scaled; an image that is not one is left out with a note. Through the
// real AppServices and the built-in simulator over HTTP (OpenRouter's Chat Completions route).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, serverStatus } from './fixtures/mcp-servers';
import { startServices, visionModelThroughSimulator, type Started } from './fixtures/services';

let app: Started;
let workspace: string;

beforeAll(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'resolute-mcp-images-'));
  app = await startServices(
    {
      tools: { approval: 'auto' },
      mcp: { servers: { images: { command: process.execPath, args: [join(FIXTURES, 'mcp-image-server.mjs')] } } },
    },
    { workspace },
  );
  await serverStatus(app.services, 'images');
  await visionModelThroughSimulator(app.services);
}, 30_000);

afterAll(async () => {
  await app.stop();
  rmSync(workspace, { recursive: true, force: true });
});

/** Run one scripted tool call; returns the tool result's message as the model got it next. */
async function toolResultSent(step: string): Promise<string> {
  app.sim.clearRequests();
  app.sim.setScript(`${step}, ok`);
  await app.services.session.prompt('go');
  const next = app.sim.requests[1];
  expect(next, 'the model was asked again after the tool').toBeDefined();
  return JSON.stringify(next.messages.slice(-2));
}

describe('MCP images', () => {
  it('a 16000×16000 PNG reaches the model fitted to 2,048 px and under 5 MB, and says so', async () => {
    const sent = await toolResultSent('tool:mcp__images__huge-image:{}');
    const urls = [...sent.matchAll(/"url":"data:(image\/[a-z]+);base64,([A-Za-z0-9+/=]+)"/g)];
    expect(urls).toHaveLength(1);
    const [, mimeType, data] = urls[0];
    expect(mimeType).toBe('image/png');
    expect(data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const meta = await sharp(Buffer.from(data, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 2048]);
    expect(sent).toContain('Here is the screen.\\n[image 1: sent scaled to 2048×2048 px]');
  }, 120_000);

  it('an image that is not one is left out, with a note for the model', async () => {
    const sent = await toolResultSent('tool:mcp__images__broken-image:{}');
    expect(sent).not.toContain('data:image/png');
    expect(sent).toMatch(/\[image 1 \(image\/png\) left out: it could not be read as an image \(/);
  }, 60_000);
});
