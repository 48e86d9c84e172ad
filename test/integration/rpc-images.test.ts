// RPC `prompt` with pi's `images` field, through the BUILT CLI (rebuilt when older than src/)
// against a SimulatorServer over real HTTP: the image reaches the server in the Chat Completions
// shape and the reply names it; a text-only model refuses it with a clear error and sends nothing.
// sharp, the native image library, is loaded by the first image, not at start-up (Linux: /proc maps).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../fixtures/rpc-client';
import { SimulatorServer } from '../../src/main/node/simulator/simulator-server';
import { rebuildIfStale } from '../../scripts/ensure-build.js';
import { tinyPng } from '../fixtures/attachment-files';

const CLI = process.env.RESOLUTE_CLI ?? resolve('out/main/cli.js');
const sim = new SimulatorServer({ chunkDelayMs: 1 });
let simUrl = '';
let dataDir = '';
let client: RpcClient | null = null;

beforeAll(async () => {
  if (!process.env.RESOLUTE_CLI) rebuildIfStale({ quiet: true });
  simUrl = await sim.start();
  dataDir = mkdtempSync(join(tmpdir(), 'resolute-rpc-images-'));
}, 120_000);
afterEach(async () => {
  await client?.stop();
  client = null;
  sim.clearRequests();
});
afterAll(async () => {
  await sim.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(args: string[]): Promise<RpcClient> {
  client = new RpcClient({ cliPath: CLI, args: ['--data-dir', dataDir, ...args], env: { OPENAI_LOG: 'off' } });
  await client.start();
  return client;
}

/** Whether the process has sharp's native library mapped; null where /proc cannot say. */
function hasSharpLoaded(pid: number | undefined): boolean | null {
  const maps = `/proc/${pid}/maps`;
  if (pid === undefined || !existsSync(maps)) return null;
  return readFileSync(maps, 'utf8').includes('sharp-');
}

describe('RPC prompt with images', () => {
  it('sends them to the model: the server gets the image, the reply names it', async () => {
    const rpc = await start(['--base-url', simUrl, '--model', 'resolute-sim-1']);
    const loadedAtStart = hasSharpLoaded(rpc.pid);
    if (loadedAtStart !== null) expect(loadedAtStart).toBe(false);
    const png = (await tinyPng()).toString('base64');
    const response = await rpc.request({
      type: 'prompt',
      message: 'Describe it',
      images: [{ type: 'image', data: png, mimeType: 'image/png' }],
    });
    expect(response).toMatchObject({ type: 'response', command: 'prompt', success: true });
    await rpc.waitForIdle();
    expect(sim.requests).toHaveLength(1);
    expect(JSON.stringify(sim.requests[0].body)).toContain(`"image_url":{"url":"data:image/png;base64,${png}"}`);
    expect(await rpc.getLastAssistantText()).toContain(
      `I received "Describe it" and 1 image (image/png, ${Buffer.from(png, 'base64').length} bytes)`,
    );
    if (loadedAtStart !== null) expect(hasSharpLoaded(rpc.pid)).toBe(true);
  });

  it('refuses them for a text-only model, saying so, and sends nothing', async () => {
    const rpc = await start(['--provider', 'simulator', '--model', 'resolute-sim-2']);
    const response = await rpc.request({
      type: 'prompt',
      message: 'Describe it',
      images: [{ type: 'image', data: (await tinyPng()).toString('base64'), mimeType: 'image/png' }],
    });
    expect(response).toMatchObject({
      success: false,
      command: 'prompt',
      error: 'The current model reads text only, so the image "image-1" cannot be sent to it.',
    });
    expect((await rpc.getState()).messageCount).toBe(0);
  });
});
