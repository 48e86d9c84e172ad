// Retrying an MCP server's connect and `tools/list` (docs/mcp.md, "Failures") by the decision
// table's rows: a timeout by `timeout`, anything else that may pass (a refused or dropped
// connection, a server that exited while starting) by `connection`; a program that does not exist
// or cannot run is not retried. When the row's attempts are used up, a server may be retried on in
// the background (one attempt at a time, the row's backoff capped at retry.maxDelayMs). Every
// decision is written to the decision log like a provider's. Used by McpConnection; never for
// `tools/call`, which is not replayed.
import type { RetryDecisionRecord } from '../../../shared/history';
import type { RetrySettings } from '../../../shared/settings';
import type { ErrorCategory } from '../../../shared/error-category';
import { computeBackoffMs, resolveRow } from '../../../shared/retry-policy/decision-table';
import type { DecisionLogSink } from '../../core/ports';

export interface RetryContext {
  settings: () => RetrySettings;
  log: DecisionLogSink;
  newId: () => string;
  /** Waits; resolves early (and the retry stops) when the server is removed. */
  sleep: (ms: number) => Promise<void>;
  /** True once the server was removed or switched off: no attempt follows the wait it is in. Default: never. */
  isStopped?: () => boolean;
  /** Takes the server's secrets (its URL's credentials, headers, env) out of what is logged. Default: as is. */
  redact?: (text: string) => string;
}

/** JSON-RPC's code for a request the SDK gave up waiting for. */
export const REQUEST_TIMEOUT = -32001;
/** What fetch (undici) says of a URL no attempt can reach: credentials in it, not a URL, a scheme it does not speak. */
const PERMANENT_URL = /includes credentials|Invalid URL|ERR_INVALID_URL|unknown scheme|URL scheme must be/i;

/** A failure's words for Settings → MCP: the reason, with how to mend the ones no retry mends. */
export function connectFailureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/includes credentials/i.test(message))
    return 'The URL includes a user name or password, which HTTP clients refuse to send: put them in the entry’s `headers` (e.g. Authorization) instead. Not tried again.';
  if (PERMANENT_URL.test(message)) return `The URL cannot be used (${message}). Not tried again.`;
  // The SDK's bare words ("MCP error -32001: Request timed out"); an `initialize` that timed out
  // already says so in its own words (mcp-connection.ts), kept.
  if ((error as { code?: unknown } | null)?.code === REQUEST_TIMEOUT && /request timed out/i.test(message))
    return 'The server did not answer in time (its request timed out).';
  return message;
}

export interface ConnectRetryOptions {
  /** The number the first attempt of this round gets (background attempts continue the count). */
  firstAttempt?: number;
  /** When the row's attempts are used up, say when to try again instead of giving up. */
  background?: boolean;
  /** An attempt failed and the next comes after `waitMs`: shown at once, not after the whole round. */
  onRetry?: (error: unknown, waitMs: number) => void;
}

/** Connecting failed for now: the last error, how many attempts were made, and when to try again (null: not). */
export class ConnectFailed extends Error {
  constructor(
    readonly error: unknown,
    readonly attempts: number,
    readonly retryInMs: number | null,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = 'ConnectFailed';
  }
}

/** `timeout`, `connection`, or null for a failure no retry can mend. */
export function connectFailureCategory(error: unknown): ErrorCategory | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === REQUEST_TIMEOUT) return 'timeout';
  if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR') return null;
  const message = error instanceof Error ? error.message : String(error);
  if (/bubblewrap|bwrap/.test(message) && /not installed/.test(message)) return null;
  if (PERMANENT_URL.test(message)) return null;
  if (/timed? ?out/i.test(message)) return 'timeout';
  return 'connection';
}

export async function withConnectRetry<T>(
  server: string,
  context: RetryContext,
  run: () => Promise<T>,
  options: ConnectRetryOptions = {},
): Promise<T> {
  for (let attempt = options.firstAttempt ?? 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const category = connectFailureCategory(error);
      const settings = context.settings();
      const row = resolveRow(category ?? 'unexpected', settings);
      const retryable = category !== null && settings.enabled;
      const now = retryable && attempt < row.maxAttempts;
      const later = retryable && !now && options.background === true;
      const waitMs = now || later ? computeBackoffMs(row, attempt, settings, Math.random) : 0;
      const action = now ? 'retry' : later ? 'background' : 'abort';
      context.log.write(decision(server, error, row, attempt, action, waitMs, context));
      if (!now) throw new ConnectFailed(error, attempt, later ? waitMs : null);
      options.onRetry?.(error, waitMs);
      await context.sleep(waitMs);
      // Switched off or removed while it waited: this round ends here, so a new start runs alone.
      if (context.isStopped?.()) throw new ConnectFailed(error, attempt, null);
    }
  }
}

function decision(
  server: string,
  error: unknown,
  row: { category: ErrorCategory; exceptionClass: string },
  attempt: number,
  action: 'retry' | 'background' | 'abort',
  waitMs: number,
  context: RetryContext,
): RetryDecisionRecord {
  const redact = context.redact ?? ((text: string) => text);
  const message = redact(error instanceof Error ? error.message : String(error));
  const head = `MCP server "${server}": connecting failed (${row.category})`;
  const reason =
    action === 'retry'
      ? `${head}; retry ${attempt} after ${Math.round(waitMs)} ms`
      : action === 'background'
        ? `${head}; attempt ${attempt}, next attempt in the background after ${Math.round(waitMs)} ms`
        : `${head}; giving up after attempt ${attempt}`;
  const retry = action !== 'abort';
  return {
    id: context.newId(),
    timestamp: new Date().toISOString(),
    level: retry ? 'WARNING' : 'ERROR',
    errorType: row.exceptionClass,
    category: row.category,
    attempt,
    action: retry ? 'retry' : 'abort',
    waitSeconds: waitMs / 1000,
    reason,
    errorMessage: message,
    context: { taskType: 'mcp_connect', modelId: server, provider: 'mcp', sessionId: '', turnId: null },
    finalDecision: retry ? null : 'abort',
    chainId: null,
  };
}
