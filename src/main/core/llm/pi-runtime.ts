// pi-ai and pi-agent-core, loaded on first use. Importing them is most of a cold start (pi-ai's
// index pulls in typebox: hundreds of modules) and nothing needs them before the first prompt, a
// model-catalogue lookup or an API-key lookup in the environment. The composition root, the
// DeferredAgent's factory, the LLM room's streams and the tools' schemas (lazySchema) reach them
// through here — in the core, only core/llm does (a lint rule); launch.ts warms them up once the
// app is up, so that the first prompt does not wait for them either.
import type * as AgentCore from '@mariozechner/pi-agent-core';
import type * as PiAi from '@mariozechner/pi-ai';

export interface PiRuntime {
  piAi: typeof PiAi;
  agentCore: typeof AgentCore;
}

let loaded: PiRuntime | undefined;
let loading: Promise<PiRuntime> | undefined;

/** Load both packages once; a failed load is tried again by the next call. */
export function loadPiRuntime(): Promise<PiRuntime> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= Promise.all([import('@mariozechner/pi-ai'), import('@mariozechner/pi-agent-core')]).then(
    ([piAi, agentCore]) => (loaded = { piAi, agentCore }),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * pi-ai imports each API's provider module (and its SDK) on that API's first request; these are
 * the same modules by their public names, so that a warm-up can load the one the session uses.
 */
const PROVIDER_MODULES: Record<string, () => Promise<unknown>> = {
  'openai-completions': () => import('@mariozechner/pi-ai/openai-completions'),
  'openai-responses': () => import('@mariozechner/pi-ai/openai-responses'),
  'anthropic-messages': () => import('@mariozechner/pi-ai/anthropic'),
  'google-generative-ai': () => import('@mariozechner/pi-ai/google'),
};

/** Load pi-ai and the provider module of `api()` (read once pi-ai is in, since it may need the catalogue). */
export async function warmPiRuntime(api: () => string): Promise<void> {
  await loadPiRuntime();
  await PROVIDER_MODULES[api()]?.();
}

export function isPiRuntimeLoaded(): boolean {
  return loaded !== undefined;
}

/** Whether the load has begun (or ended): the warm-up's tests ask when it starts. */
export function isPiRuntimeRequested(): boolean {
  return loaded !== undefined || loading !== undefined;
}

/** The loaded packages; throws when called before loadPiRuntime() resolved (a bug of ours). */
export function piRuntime(): PiRuntime {
  if (!loaded) throw new Error('pi-ai is not loaded yet: await loadPiRuntime() first');
  return loaded;
}

/**
 * A tool's parameter schema built with pi-ai's TypeBox the first time it is asked for, then kept:
 * built at start-up, it would load pi-ai there. A tool definition reads it from a
 * `get parameters()` (a spread would call the getter at once).
 */
export function lazySchema(build: (Type: typeof PiAi.Type) => PiAi.TSchema): () => PiAi.TSchema {
  let built: PiAi.TSchema | undefined;
  return () => (built ??= build(piRuntime().piAi.Type));
}
