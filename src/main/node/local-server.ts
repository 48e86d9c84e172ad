// What an OpenAI-compatible server says of its models (docs/thinking-and-context.md, "Local
// models"): the ids its GET /models lists, each one's context window where the listing says it
// (vLLM's max_model_len, llama.cpp's meta.n_ctx_train, a context_length field); beside /v1, each
// server's own API: LM Studio's GET /api/v0/models (each model's loaded or maximum context, and
// type "vlm" for images), llama.cpp's GET /props (the context it runs with, its vision) and Ollama's
// POST /api/show for the model in use (its context length, whether it sees images or thinks).
// Answers are kept per base URL; a server that does not answer within a few seconds, or answers
// something else, leaves the defaults. Used by ActiveModel, the provider list and Test connection
// through AppServices.

/** One model as the server describes it; a field it does not say is absent. */
export interface ServerModel {
  id: string;
  contextWindow?: number;
  images?: boolean;
  reasoning?: boolean;
}

export interface ServerModels {
  models: ServerModel[];
  /** Why the list could not be read (the server is down, it has no /models); absent when it was. */
  error?: string;
}

const PROBE_TIMEOUT_MS = 3000;

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

/** One entry of GET /models: its id and the window fields the servers we know use. */
function listedModel(entry: unknown): ServerModel | null {
  if (!isRecord(entry) || typeof entry.id !== 'string' || entry.id === '') return null;
  const meta = isRecord(entry.meta) ? entry.meta : {};
  const contextWindow =
    positive(entry.max_model_len) ??
    positive(entry.context_length) ??
    positive(entry.max_context_length) ??
    positive(meta.n_ctx) ??
    positive(meta.n_ctx_train);
  return contextWindow === undefined ? { id: entry.id } : { id: entry.id, contextWindow };
}

/** Ollama's /api/show answer: `model_info["<arch>.context_length"]` and its capabilities. */
function ollamaFacts(body: unknown): Omit<ServerModel, 'id'> {
  if (!isRecord(body)) return {};
  const info = isRecord(body.model_info) ? body.model_info : {};
  const key = Object.keys(info).find((k) => k.endsWith('.context_length'));
  const contextWindow = key ? positive(info[key]) : undefined;
  const capabilities = Array.isArray(body.capabilities) ? body.capabilities : null;
  return {
    ...(contextWindow !== undefined && { contextWindow }),
    ...(capabilities && { images: capabilities.includes('vision'), reasoning: capabilities.includes('thinking') }),
  };
}

/** LM Studio's /api/v0/models: each model's context (the loaded one, else its maximum) and images. */
function lmStudioFacts(body: unknown): Map<string, Omit<ServerModel, 'id'>> {
  const facts = new Map<string, Omit<ServerModel, 'id'>>();
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
  for (const entry of data) {
    if (!isRecord(entry) || typeof entry.id !== 'string') continue;
    const contextWindow = positive(entry.loaded_context_length) ?? positive(entry.max_context_length);
    const images = entry.type === 'vlm' ? true : entry.type === 'llm' ? false : undefined;
    facts.set(entry.id, {
      ...(contextWindow !== undefined && { contextWindow }),
      ...(images !== undefined && { images }),
    });
  }
  return facts;
}

/** llama.cpp's /props: the context each slot runs with (not the training one) and its vision. */
function llamaCppFacts(body: unknown): Omit<ServerModel, 'id'> {
  if (!isRecord(body)) return {};
  const settings = isRecord(body.default_generation_settings) ? body.default_generation_settings : {};
  const contextWindow = positive(settings.n_ctx) ?? positive(body.n_ctx);
  const vision = isRecord(body.modalities) ? body.modalities.vision : undefined;
  return {
    ...(contextWindow !== undefined && { contextWindow }),
    ...(typeof vision === 'boolean' && { images: vision }),
  };
}

async function getJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as unknown;
}

/** The server's own root: its base URL without the OpenAI-compatible /v1. */
const originOf = (baseUrl: string): string => baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');

export class LocalServerProbe {
  private readonly lists = new Map<string, ServerModels>();
  private readonly shown = new Map<string, Omit<ServerModel, 'id'>>();
  /** LM Studio's facts of every model of a server, by base URL and then model id. */
  private readonly native = new Map<string, Map<string, Omit<ServerModel, 'id'>>>();
  private readonly pending = new Map<string, Promise<ServerModels>>();

  /** What is known of one model of the server at `baseUrl` (nothing before a probe answered). */
  facts(baseUrl: string, model: string): Omit<ServerModel, 'id'> | undefined {
    const listed = this.lists.get(baseUrl)?.models.find((m) => m.id === model);
    const native = this.native.get(baseUrl)?.get(model);
    const shown = this.shown.get(`${baseUrl} ${model}`);
    if (!listed && !native && !shown) return undefined;
    const { id: _id, ...fromList } = listed ?? { id: model };
    // The server's own API knows more than its OpenAI-compatible listing: it wins.
    return { ...fromList, ...native, ...shown };
  }

  /** The server's model list as last read, if it was. */
  models(baseUrl: string): ServerModels | undefined {
    return this.lists.get(baseUrl);
  }

  /**
   * Ask the server (again) for its models, and Ollama for the model in use; resolves when both
   * answered or gave up. Calls for the same URL at once share one request.
   */
  probe(baseUrl: string, model?: string): Promise<ServerModels> {
    const key = `${baseUrl} ${model ?? ''}`;
    const running = this.pending.get(key);
    if (running) return running;
    const done = this.read(baseUrl, model).finally(() => this.pending.delete(key));
    this.pending.set(key, done);
    return done;
  }

  private async read(baseUrl: string, model: string | undefined): Promise<ServerModels> {
    const root = baseUrl.replace(/\/+$/, '');
    const [list] = await Promise.all([
      this.readList(root),
      this.readLmStudio(baseUrl),
      model ? this.readShow(baseUrl, model) : undefined,
    ]);
    this.lists.set(baseUrl, list);
    return list;
  }

  private async readList(root: string): Promise<ServerModels> {
    try {
      const body = await getJson(`${root}/models`);
      const data = isRecord(body) && Array.isArray(body.data) ? body.data : [];
      return { models: data.map(listedModel).filter((m): m is ServerModel => m !== null) };
    } catch (error) {
      return { models: [], error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** LM Studio's own API lives beside /v1; any other server answers 404 and nothing is learnt. */
  private async readLmStudio(baseUrl: string): Promise<void> {
    try {
      this.native.set(baseUrl, lmStudioFacts(await getJson(`${originOf(baseUrl)}/api/v0/models`)));
    } catch {
      // Not LM Studio (or one before 0.3.6): the listing and the settings decide.
    }
  }

  /**
   * For the model in use: Ollama's POST /api/show and llama.cpp's GET /props, both beside /v1;
   * any other server answers 404 to each and nothing is learnt. Ollama's answer wins where both say.
   */
  private async readShow(baseUrl: string, model: string): Promise<void> {
    const origin = originOf(baseUrl);
    const request = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model }),
    };
    const [props, shown] = await Promise.all([
      getJson(`${origin}/props`).then(llamaCppFacts, () => ({})),
      getJson(`${origin}/api/show`, request).then(ollamaFacts, () => ({})),
    ]);
    if (Object.keys(props).length || Object.keys(shown).length)
      this.shown.set(`${baseUrl} ${model}`, { ...props, ...shown });
  }
}
