// pi-ai and pi-agent-core, loaded on first use. Importing them is most of a cold start (pi-ai's
// index pulls in typebox: hundreds of modules) and nothing needs them before the first prompt, a
// model-catalogue lookup or an API-key lookup in the environment. The composition root, the
// DeferredAgent's factory and the classifier reach them through here.
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

export function isPiRuntimeLoaded(): boolean {
  return loaded !== undefined;
}

/** The loaded packages; throws when called before loadPiRuntime() resolved (a bug of ours). */
export function piRuntime(): PiRuntime {
  if (!loaded) throw new Error('pi-ai is not loaded yet: await loadPiRuntime() first');
  return loaded;
}
