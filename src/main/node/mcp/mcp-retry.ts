// Retrying an MCP server's connect and `tools/list` (docs/mcp.md, "Failures") by the decision
// table's rows: a timeout by `timeout`, anything else that may pass (a refused or dropped
// connection, a server that exited while starting) by `connection`; a program that does not exist
// or cannot run is not retried. Every decision is written to the decision log like a provider's.
// Used by McpConnection; never for `tools/call`, which is not replayed.
import type { RetryDecisionRecord } from '../../../shared/history';
import type { RetrySettings } from '../../../shared/settings';
import type { ErrorCategory } from '../../../shared/error-category';
import { computeBackoffMs } from '../../../shared/retry-policy/backoff';
import { resolveRow } from '../../../shared/retry-policy/decision-table';
import type { DecisionLogSink } from '../../core/ports';

export interface RetryContext {
  settings: () => RetrySettings;
  log: DecisionLogSink;
  newId: () => string;
  /** Waits; resolves early (and the retry stops) when the server is removed. */
  sleep: (ms: number) => Promise<void>;
}

const REQUEST_TIMEOUT = -32001;

/** `timeout`, `connection`, or null for a failure no retry can mend. */
export function connectFailureCategory(error: unknown): ErrorCategory | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === REQUEST_TIMEOUT) return 'timeout';
  if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR') return null;
  const message = error instanceof Error ? error.message : String(error);
  if (/bubblewrap|bwrap/.test(message) && /not installed/.test(message)) return null;
  if (/timed? ?out/i.test(message)) return 'timeout';
  return 'connection';
}

export async function withConnectRetry<T>(server: string, context: RetryContext, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const category = connectFailureCategory(error);
      const settings = context.settings();
      const row = resolveRow(category ?? 'unexpected', settings);
      const retry = category !== null && settings.enabled && attempt < row.maxAttempts;
      const waitMs = retry ? computeBackoffMs(row, attempt, settings, Math.random) : 0;
      context.log.write(decision(server, error, row.category, row.exceptionClass, attempt, retry, waitMs, context));
      if (!retry) throw error;
      await context.sleep(waitMs);
    }
  }
}

function decision(
  server: string,
  error: unknown,
  category: ErrorCategory,
  errorType: string,
  attempt: number,
  retry: boolean,
  waitMs: number,
  context: RetryContext,
): RetryDecisionRecord {
  const message = error instanceof Error ? error.message : String(error);
  return {
    id: context.newId(),
    timestamp: new Date().toISOString(),
    level: retry ? 'WARNING' : 'ERROR',
    errorType,
    category,
    attempt,
    action: retry ? 'retry' : 'abort',
    waitSeconds: waitMs / 1000,
    reason: retry
      ? `MCP server "${server}": connecting failed (${category}); retry ${attempt} after ${Math.round(waitMs)} ms`
      : `MCP server "${server}": connecting failed (${category}); giving up after attempt ${attempt}`,
    errorMessage: message,
    context: { taskType: 'mcp_connect', modelId: server, provider: 'mcp', sessionId: '', turnId: null },
    finalDecision: retry ? null : 'abort',
    chainId: null,
  };
}
