// Which model is served by a local server, and how its liveness is asked (docs/retry-policy.md,
// "Two clocks"): the OpenAI-compatible provider at a loopback or private address is one; a named
// cloud provider given a proxy URL stays a cloud provider, and so does the built-in simulator,
// which stands in for the cloud providers (point the OpenAI-compatible provider at its /v1 to make
// it a local server). AppServices passes localServerLiveness to the guarded stream.
import type { Api, Model } from '@mariozechner/pi-ai';
import type { LocalServerLiveness, ProbeAnswer } from '../core/llm/liveness';
import { type Settings } from '../../shared/settings';
import { DEFAULT_FIRST_TOKEN_WAIT_MINUTES } from '../../shared/settings-values';
import { isLocalHost } from './reachability';

/** Between two probes of a local server working on a prompt, ms. */
export const PROBE_EVERY_MS = 3000;
/** A probe that has no answer after this long is silent, ms. */
const PROBE_ANSWER_MS = 2500;
/** Connection errors that mean nothing listens there any more. */
const GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** The model is served by a local server: the OpenAI-compatible provider at a local address. */
export function isLocalServer(model: Pick<Model<Api>, 'provider' | 'baseUrl'>): boolean {
  if (model.provider !== 'openai-compatible') return false;
  try {
    return isLocalHost(new URL(model.baseUrl).hostname);
  } catch {
    return false;
  }
}

/** One GET of the server's models endpoint: any HTTP answer means it lives. */
export async function probeServer(
  baseUrl: string,
  signal: AbortSignal,
  answerMs = PROBE_ANSWER_MS,
): Promise<ProbeAnswer> {
  try {
    const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(answerMs)]),
      redirect: 'manual',
    });
    await response.body?.cancel();
    return 'alive';
  } catch (error) {
    const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
    return typeof code === 'string' && GONE.has(code) ? 'refused' : 'silent';
  }
}

export interface LivenessParts {
  settings: () => Settings;
  /** Between two probes, ms (tests make it short). */
  probeEveryMs?: number;
}

/** The guarded stream's `localServer`: a local server's first-token wait and probe, or undefined. */
export function localServerLiveness(parts: LivenessParts): (model: Model<Api>) => LocalServerLiveness | undefined {
  return (model) => {
    if (!isLocalServer(model)) return undefined;
    const own = parts.settings().provider.localServers[model.baseUrl];
    const minutes = own?.firstTokenWaitMinutes ?? DEFAULT_FIRST_TOKEN_WAIT_MINUTES;
    return {
      baseUrl: model.baseUrl,
      firstTokenWaitMs: minutes * 60_000,
      probeEveryMs: parts.probeEveryMs ?? PROBE_EVERY_MS,
      probe: (signal) => probeServer(model.baseUrl, signal),
    };
  };
}
