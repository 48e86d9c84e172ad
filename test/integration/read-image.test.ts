// The read tool on a PNG in the workspace (node/tools/read-image.ts), through the app's composition
// root and the simulator over real HTTP: an image-capable model gets the image in the request after
// the tool call; a text-only one gets pi-ai's note instead; a large image is scaled to fit; the
// history keeps the tool result's image once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolResultChatMessage } from '../../src/shared/messages';
import { pngImage, tinyPng } from '../fixtures/attachment-files';
import { startServices, type Started } from './fixtures/services';

let app: Started | null = null;
let workspace = '';
afterEach(async () => {
  await app?.stop();
  app = null;
  rmSync(workspace, { recursive: true, force: true });
});

async function readThrough(model: string, png: Buffer): Promise<Started> {
  workspace = mkdtempSync(join(tmpdir(), 'resolute-read-image-'));
  writeFileSync(join(workspace, 'dot.png'), png);
  app = await startServices({ provider: { id: 'simulator', model } }, { workspace });
  app.sim.setScript('tool:read:{"path":"dot.png"}, ok');
  await app.services.session.prompt('Look at dot.png');
  return app;
}

const toolResult = (started: Started) =>
  started.services.session.messages.find((m): m is ToolResultChatMessage => m.role === 'toolResult');

describe('read on an image', () => {
  it('returns it as an image to a model that takes images', async () => {
    const png = await tinyPng();
    const started = await readThrough('resolute-sim-1', png);
    const requests = started.sim.requests;
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1].body)).toContain(`data:image/png;base64,${png.toString('base64')}`);
    const result = toolResult(started);
    expect(result?.content[0]).toEqual({
      type: 'text',
      text: `dot.png: an image (image/png, ${png.length} B, 1×1 px).`,
    });
    expect(result?.content[1]).toMatchObject({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
    // Stored once, read back whole.
    const stored = started.services.history
      .getSession(started.services.session.sessionId)
      ?.turns.find((t) => t.role === 'toolResult');
    expect(stored?.message.content[1]).toMatchObject({ type: 'image', data: png.toString('base64') });
  });

  it('a text-only model is told an image was left out', async () => {
    const started = await readThrough('resolute-sim-2', await tinyPng());
    const body = JSON.stringify(started.sim.requests[1].body);
    expect(body).not.toContain('data:image/png');
    expect(body).toContain('image omitted');
  });

  it('scales a large image to fit every provider', async () => {
    const started = await readThrough('resolute-sim-1', await pngImage(4000, 1000));
    const image = toolResult(started)?.content[1];
    expect(image?.type).toBe('image');
    const meta = await sharp(Buffer.from(image?.type === 'image' ? image.data : '', 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 512]);
    expect(toolResult(started)?.content[0]).toMatchObject({
      text: expect.stringContaining('sent scaled to 2048×512 px'),
    });
  });
});
