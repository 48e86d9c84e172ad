// The simulator's `provider.shape` fault steps: one provider's exact error, as its documentation
// or a public issue shows it, sent whichever API the request came to (the way a gateway passes
// an upstream error through). Also the proxy steps, whose HTML or plain-text pages come from the
// proxy in front of any provider. The conformance suite (test/conformance/) cites each source.
import type { FaultStep, ProviderFault } from './fault-script';
import { anthropicError } from './wire-anthropic';
import { googleError } from './wire-gemini';
import { openAiError, responsesErrorEvent } from './wire-openai';
import { htmlPage, type ErrorReply, type ReplyContext } from './wire';

/** How OpenAI writes a wait in its messages and reset headers: "40ms", "1.5s", "7m12s". */
export function openAiDuration(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)}ms`;
  if (seconds < 60) return `${Math.round(seconds * 1000) / 1000}s`;
  return `${Math.floor(seconds / 60)}m${Math.round((seconds % 60) * 1000) / 1000}s`;
}

const hint = (step: FaultStep): number => step.retryAfterSeconds ?? 0;

function openAiRateLimit(context: ReplyContext, step: FaultStep, limit: 'TPM' | 'RPM' | 'RPD'): ErrorReply {
  const wait = openAiDuration(hint(step));
  const what = {
    TPM: 'tokens per min (TPM): Limit 30000, Used 29512, Requested 1200',
    RPM: 'requests per min (RPM): Limit 3, Used 3, Requested 1',
    RPD: 'requests per day (RPD): Limit 200, Used 200, Requested 1',
  }[limit];
  const billing =
    limit === 'TPM'
      ? ''
      : ' You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.';
  const message = `Rate limit reached for ${context.model} in organization org-sim on ${what}. Please try again in ${wait}. Visit https://platform.openai.com/account/rate-limits to learn more.${billing}`;
  // The reset headers say when a bucket is full again, not when the next request may go.
  const headers: Record<string, string> =
    limit === 'TPM'
      ? {
          'x-ratelimit-remaining-tokens': '0',
          'x-ratelimit-reset-tokens': '6m0s',
          'x-ratelimit-reset-requests': '120ms',
        }
      : {
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': wait,
          'x-ratelimit-reset-tokens': '6m0s',
        };
  return {
    status: 429,
    headers,
    body: openAiError(message, limit === 'TPM' ? 'tokens' : 'requests', 'rate_limit_exceeded'),
  };
}

/** The first day of next month, as Anthropic names the end of a usage cap. */
function nextMonth(now: number): string {
  const date = new Date(now);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

function anthropicShape(kind: ProviderFault, step: FaultStep, now: number): ErrorReply | undefined {
  switch (kind) {
    case 'anthropic.spend_limit':
      return {
        status: 429,
        body: anthropicError(
          'rate_limit_error',
          "This request would exceed your account's monthly spend limit. Please try again later.",
          {
            details: { error_code: 'enforced_spend_limit_reached' },
          },
        ),
      };
    case 'anthropic.credit_low':
      return {
        status: 400,
        body: anthropicError(
          'invalid_request_error',
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
        ),
      };
    case 'anthropic.usage_cap':
      return {
        status: 400,
        body: anthropicError(
          'invalid_request_error',
          `You have reached your specified API usage limits. You will regain access on ${nextMonth(now)} at 00:00 UTC.`,
        ),
      };
    case 'anthropic.rate_limit_reset': {
      const at = (seconds: number): string => new Date(now + seconds * 1000).toISOString();
      return {
        status: 429,
        headers: {
          'anthropic-ratelimit-requests-remaining': '49',
          'anthropic-ratelimit-requests-reset': at(60),
          'anthropic-ratelimit-input-tokens-remaining': '0',
          'anthropic-ratelimit-input-tokens-reset': at(hint(step)),
          'anthropic-ratelimit-output-tokens-reset': at(30),
        },
        body: anthropicError(
          'rate_limit_error',
          'This request would exceed the rate limit for your organization (sim-org) of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.',
        ),
      };
    }
    default:
      return undefined;
  }
}

/** A `provider.shape` or proxy step answered with a status. */
export function shapeReply(
  kind: ProviderFault | 'proxy_502' | 'proxy_503',
  step: FaultStep,
  context: ReplyContext,
  now: number,
): ErrorReply {
  switch (kind) {
    case 'proxy_502':
      return htmlPage(502, 'Bad Gateway');
    case 'proxy_503':
      // Envoy's own answer when the upstream cannot be reached (text/plain).
      return {
        status: 503,
        body: 'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
        contentType: 'text/plain',
      };
    case 'openai.insufficient_quota':
      return {
        status: 429,
        body: openAiError(
          'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
          'insufficient_quota',
          'insufficient_quota',
        ),
      };
    case 'openai.rate_limit_tpm':
      return openAiRateLimit(context, step, 'TPM');
    case 'openai.rate_limit_rpm':
      return openAiRateLimit(context, step, 'RPM');
    case 'openai.rate_limit_rpd':
      return openAiRateLimit(context, step, 'RPD');
    case 'google.quota_plain':
      return {
        status: 429,
        body: googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'),
      };
    case 'google.high_demand':
      return {
        status: 503,
        body: googleError(
          503,
          'UNAVAILABLE',
          'This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.',
        ),
      };
    default: {
      const reply = anthropicShape(kind, step, now);
      if (!reply) throw new Error(`${kind} is not answered with a status`);
      return reply;
    }
  }
}

/** A `provider.shape` step that fails a stream after it has begun: the frame to send. */
export function shapeStreamError(kind: ProviderFault, context: ReplyContext): string {
  if (kind === 'openai.error_event')
    return responsesErrorEvent(
      context,
      'server_error',
      'The server had an error while processing your request. Sorry about that!',
    );
  throw new Error(`${kind} is not a stream error`);
}
