// What LM Studio and llama.cpp's server say of their models (src/main/node/local-server.ts), each
// played by a real HTTP server on a free port: LM Studio's own GET /api/v0/models gives the window
// (the loaded context, else the model's maximum) and whether a model sees images (type "vlm"), which
// its /v1/models does not; llama.cpp's GET /props gives the context the server runs with
// (default_generation_settings.n_ctx), over the training context its /v1/models lists.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalServerProbe } from '../../../src/main/node/local-server';

type Routes = Record<string, unknown>;
const servers: Server[] = [];
const asked: string[] = [];

async function serve(routes: Routes): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = `${req.method} ${req.url}`;
    asked.push(route);
    const body = routes[route];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: `no route ${route}` }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

afterEach(async () => {
  asked.length = 0;
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const LM_STUDIO: Routes = {
  'GET /v1/models': { object: 'list', data: [{ id: 'qwen2-vl-7b-instruct' }, { id: 'llama-3.1-8b' }, { id: 'gone' }] },
  'GET /api/v0/models': {
    object: 'list',
    data: [
      { id: 'qwen2-vl-7b-instruct', type: 'vlm', state: 'not-loaded', max_context_length: 32_768 },
      { id: 'llama-3.1-8b', type: 'llm', state: 'loaded', max_context_length: 131_072, loaded_context_length: 16_384 },
      { id: 'nomic-embed', type: 'embeddings', max_context_length: 2048 },
    ],
  },
};

const LLAMA_CPP: Routes = {
  'GET /v1/models': { object: 'list', data: [{ id: 'qwen3-14b.gguf', meta: { n_ctx_train: 40_960 } }] },
  'GET /props': { default_generation_settings: { n_ctx: 16_384 }, modalities: { vision: true } },
};

describe("LM Studio's /api/v0/models", () => {
  it('gives each model its window (the loaded context first) and images for a vision model', async () => {
    const url = await serve(LM_STUDIO);
    const probe = new LocalServerProbe();
    await probe.probe(url, 'llama-3.1-8b');
    expect(probe.facts(url, 'llama-3.1-8b')).toEqual({ contextWindow: 16_384, images: false });
    expect(probe.facts(url, 'qwen2-vl-7b-instruct')).toEqual({ contextWindow: 32_768, images: true });
    expect(probe.facts(url, 'gone')).toEqual({});
    expect(probe.models(url)?.models.map((m) => m.id)).toEqual(['qwen2-vl-7b-instruct', 'llama-3.1-8b', 'gone']);
    expect(asked).toContain('GET /api/v0/models');
  });
});

describe("llama.cpp's /props", () => {
  it('gives the context the server runs with, over the training context of the listing, and its vision', async () => {
    const url = await serve(LLAMA_CPP);
    const probe = new LocalServerProbe();
    await probe.probe(url, 'qwen3-14b.gguf');
    expect(probe.facts(url, 'qwen3-14b.gguf')).toEqual({ contextWindow: 16_384, images: true });
    expect(asked).toContain('GET /props');
  });

  it('a /props without a context leaves the listing’s; a server with neither route is asked and left alone', async () => {
    const url = await serve({ ...LLAMA_CPP, 'GET /props': { default_generation_settings: {} } });
    const probe = new LocalServerProbe();
    await probe.probe(url, 'qwen3-14b.gguf');
    expect(probe.facts(url, 'qwen3-14b.gguf')).toEqual({ contextWindow: 40_960 });

    const plain = await serve({ 'GET /v1/models': { data: [{ id: 'm', max_model_len: 8192 }] } });
    await probe.probe(plain, 'm');
    expect(probe.facts(plain, 'm')).toEqual({ contextWindow: 8192 });
  });
});
