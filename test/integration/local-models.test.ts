// Local models over real HTTP (docs/thinking-and-context.md, "Local models"), against a scripted
// OpenAI-compatible server that answers as vLLM lists models (max_model_len) and as Ollama shows
// one (/api/show: its context length, vision, thinking): the window, images and thinking come
// from the server, the person's per-model settings win over it, no max-token field goes out unless
// one is set, the provider list and Test connection name the server's models, and the server's
// reasoning_content deltas become a stored thinking block.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../src/shared/events';
import type { AssistantChatMessage } from '../../src/shared/messages';
import { AppServices } from '../../src/main/node/app-services';

let root: string;
let services: AppServices | null = null;
let server: Server;
let baseUrl: string;
const bodies: Record<string, unknown>[] = [];
const events: SessionEvent[] = [];

const MODELS = { object: 'list', data: [{ id: 'qwen3', object: 'model', max_model_len: 32_768 }, { id: 'llava' }] };
const SHOW: Record<string, object> = {
  qwen3: { model_info: { 'qwen3.context_length': 40_960 }, capabilities: ['completion', 'thinking'] },
  llava: { model_info: { 'llama.context_length': 4096 }, capabilities: ['completion', 'vision'] },
};

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'qwen3', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const piece of req) text += String(piece);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (req.method === 'GET' && req.url === '/v1/models') return json(200, MODELS);
  if (req.method === 'POST' && req.url === '/api/show') {
    const shown = SHOW[String(body.model)];
    return shown ? json(200, shown) : json(404, { error: 'model not found' });
  }
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    bodies.push(body);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const piece of ['Weighing ', 'the question. ']) res.write(chunk({ reasoning_content: piece }));
    res.write(chunk({ content: 'OK' }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
    return;
  }
  json(404, { error: `no route ${req.method} ${req.url}` });
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'resolute-local-'));
  mkdirSync(join(root, 'ws'));
  bodies.length = 0;
  events.length = 0;
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterEach(async () => {
  await services?.dispose();
  services = null;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

async function start(model: string, overlay: Record<string, unknown> = {}): Promise<AppServices> {
  services = await AppServices.create({
    host: 'rpc',
    version: 'test',
    dataDir: join(root, 'data'),
    workspace: join(root, 'ws'),
    provider: 'openai-compatible',
    model,
    baseUrl,
    overlay,
    publish: (event) => events.push(event),
  });
  return services;
}

describe('a local server’s model', () => {
  it('takes its window and thinking from the server (Ollama’s /api/show over the listing); no max-token field', async () => {
    const app = await start('qwen3');
    await vi.waitFor(() => expect(app.session.model.contextWindow).toBe(40_960));
    expect(app.session.model.reasoning).toBe(true);
    const changed = events.findLast((e) => e.type === 'model_changed');
    expect(changed).toMatchObject({ model: { id: 'qwen3', contextWindow: 40_960, reasoning: true } });
    await app.session.prompt('hello');
    expect(bodies.at(-1)).not.toHaveProperty('max_completion_tokens');
    expect(bodies.at(-1)).not.toHaveProperty('max_tokens');
  });

  it('takes images from the server, and the person’s per-model settings over what the server says', async () => {
    const app = await start('llava');
    await vi.waitFor(() => expect(app.session.model.input).toEqual(['text', 'image']));
    expect(app.session.model.contextWindow).toBe(4096);
    app.settings.update({
      provider: { localModels: { llava: { contextWindow: 65_536, maxTokens: 2048, images: false } } },
    });
    expect(app.session.model.contextWindow).toBe(65_536);
    expect(app.session.model.input).toEqual(['text']);
    await app.session.prompt('hello');
    expect(bodies.at(-1)?.max_completion_tokens).toBe(2048);
  });

  it('the provider list and Test connection name the server’s models', async () => {
    const app = await start('qwen3');
    const local = (await app.domains.providers.list()).find((p) => p.id === 'openai-compatible')!;
    expect(local.models).toEqual(['qwen3', 'llava']);
    expect(local.contextWindows).toEqual({ qwen3: 32_768 });
    const result = await app.domains.providers.testConnection();
    expect(result).toMatchObject({ ok: true, serverModels: ['qwen3', 'llava'] });
  });

  it('streams reasoning_content into a stored thinking block, and a thinking level reaches the request', async () => {
    const app = await start('qwen3', { agent: { thinkingLevel: 'high' } });
    await vi.waitFor(() => expect(app.session.model.reasoning).toBe(true));
    await app.session.prompt('hello');
    expect(bodies.at(-1)?.reasoning_effort).toBe('high');
    const stored = app.history.getSession(app.session.sessionId)!.turns.at(-1)!.message as AssistantChatMessage;
    expect(stored.content[0]).toMatchObject({ type: 'thinking', thinking: 'Weighing the question. ' });
    expect(stored.content[1]).toMatchObject({ type: 'text', text: 'OK' });
  });

  it('a server that does not answer leaves the defaults', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server = createServer((_req, res) => res.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const app = await start('qwen3');
    const local = (await app.domains.providers.list()).find((p) => p.id === 'openai-compatible')!;
    expect(local.models).toEqual([]);
    expect(app.session.model.contextWindow).toBe(131_072);
    expect(app.session.model.reasoning).toBe(false);
  });
});
