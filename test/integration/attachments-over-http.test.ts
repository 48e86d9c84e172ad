// Attachments end to end over real HTTP: an image and a file through the app's composition root,
// pi-ai and each provider's real SDK to the simulator's four routes (Anthropic Messages, OpenAI
// Responses, Chat Completions, Gemini). What reached the server is read from each API's own body
// shape; the simulator's reply names it; the turn is stored and read back with its image.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppServices } from '../../src/main/node/app-services';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';
import type { AttachmentUpload } from '../../src/shared/attachments';
import { messageText } from '../../src/shared/messages';
import { pdfWithPages, tinyPng } from '../fixtures/attachment-files';

type Provider = 'anthropic' | 'openai' | 'google' | 'openai-compatible';
const MODELS: Record<Provider, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-4o',
  google: 'gemini-2.5-flash',
  'openai-compatible': 'llava',
};
const API: Record<Provider, string> = {
  anthropic: 'anthropic',
  openai: 'openai-responses',
  google: 'gemini',
  'openai-compatible': 'openai-chat',
};

/** How each API's body carries the image (as its SDK writes it). */
const IMAGE_SHAPE: Record<Provider, (data: string) => string> = {
  anthropic: (data) => JSON.stringify({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }),
  openai: (data) => `"type":"input_image","detail":"auto","image_url":"data:image/png;base64,${data}"`,
  google: (data) => JSON.stringify({ inlineData: { data, mimeType: 'image/png' } }),
  'openai-compatible': (data) =>
    JSON.stringify({ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } }),
};

const simulator = new SimulatorServer({ chunkDelayMs: 1 });
let v1 = '';
const dirs: string[] = [];
const apps: AppServices[] = [];

beforeAll(async () => {
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY']) vi.stubEnv(name, '');
  vi.stubEnv('OPENAI_LOG', 'off');
  v1 = await simulator.start();
});
afterEach(async () => {
  while (apps.length) await apps.pop()!.dispose();
  simulator.clearRequests();
});
afterAll(async () => {
  await simulator.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function appFor(provider: Provider): Promise<AppServices> {
  const root = v1.replace(/\/v1$/, '');
  const baseUrl = provider === 'anthropic' ? root : provider === 'google' ? `${root}/v1beta` : v1;
  const dataDir = mkdtempSync(join(tmpdir(), `resolute-attach-${provider}-`));
  dirs.push(dataDir);
  const app = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir,
    provider,
    model: MODELS[provider],
    baseUrl,
    apiKey: 'test-key',
    publish: () => undefined,
  });
  apps.push(app);
  return app;
}

describe('an image and a file through each real SDK to the simulator', () => {
  it.each(['anthropic', 'openai', 'google', 'openai-compatible'] as const)('%s', async (provider) => {
    const app = await appFor(provider);
    const png = await tinyPng();
    const uploads: AttachmentUpload[] = [
      { name: 'dot.png', mimeType: 'image/png', data: png.toString('base64') },
      { name: 'notes.md', mimeType: 'text/markdown', data: Buffer.from('# Notes\nhello').toString('base64') },
      { name: 'q3.pdf', mimeType: 'application/pdf', data: pdfWithPages(['Revenue up', '']).toString('base64') },
    ];
    await app.session.prompt('What is this?', await app.domains.session.prepareAttachments(uploads));

    const [request] = simulator.requests;
    expect(request.api).toBe(API[provider]);
    // The image went in this API's own shape (simulator-attachments.ts reads each), its bytes whole.
    expect(request.images).toEqual([{ mimeType: 'image/png', bytes: png.length }]);
    expect(request.lastUserText).toContain('What is this?');
    expect(request.lastUserText).toContain(
      'Attached file "notes.md" (text/markdown, 13 bytes):\n```\n# Notes\nhello\n```',
    );
    expect(request.lastUserText).toMatch(
      /Attached PDF "q3\.pdf" \(2 pages, .*\), its text: Pages with no text .*: 2\./,
    );
    expect(request.lastUserText).toContain('--- Page 1 ---\nRevenue up\n\n--- Page 2 ---\n(no text on this page)');
    // The body in each API's words; only what the API defines went (the file's description stays home).
    const body = JSON.stringify(request.body);
    expect(body).toContain(IMAGE_SHAPE[provider](png.toString('base64')));
    expect(body).not.toContain('"file"');

    const reply = app.session.messages.at(-1);
    expect(reply && messageText(reply)).toContain(
      `I received "What is this?" and 1 image (image/png, ${png.length} bytes) and 2 files ("notes.md", "q3.pdf")`,
    );
    const stored = app.history.getSession(app.session.sessionId)?.turns[0].message;
    expect(stored?.content).toEqual([
      { type: 'text', text: 'What is this?' },
      {
        type: 'image',
        data: png.toString('base64'),
        mimeType: 'image/png',
        file: { name: 'dot.png', mimeType: 'image/png', size: png.length },
      },
      expect.objectContaining({ type: 'text', file: { name: 'notes.md', mimeType: 'text/markdown', size: 13 } }),
      expect.objectContaining({ type: 'text', file: expect.objectContaining({ name: 'q3.pdf' }) }),
    ]);
  });
});
