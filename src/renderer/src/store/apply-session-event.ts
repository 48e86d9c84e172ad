// The one pure reducer every SessionEvent goes through: (state, event) → new state. The event
// pump calls it for live events and for the snapshot fetched on (re)connect (as session_changed);
// nothing here touches the bridge, the DOM or the clock, so the unit tests drive it directly.
import type {
  AutoRetryEndEvent,
  HistoryChangedEvent,
  LiveToolCall,
  SessionEvent,
  SessionSnapshot,
} from '../../../shared/events';
import type {
  RetryChainRecord,
  RetryDecisionRecord,
  SessionSummary,
  TurnPage,
  TurnRecord,
} from '../../../shared/history';
import { messageText, type ChatMessage } from '../../../shared/messages';
import type { Settings } from '../../../shared/settings';
import { applyToolEvent } from './apply-tool-event';
import {
  SESSION_LIST_LIMIT,
  addNotice,
  type AppState,
  type ChainView,
  type CompactionView,
  type SessionSlice,
} from './state';

export function applySessionEvent(state: AppState, event: SessionEvent): AppState {
  switch (event.type) {
    case 'agent_start':
      return patchSession(state, { isStreaming: true });
    case 'agent_end':
      return patchSession(state, {
        isStreaming: false,
        streamingMessage: null,
        activeToolName: null,
        promptWait: null,
      });
    case 'turn_start':
    case 'turn_end':
      // Turns reach the transcript through turn_persisted, which carries the stored record.
      return state;
    case 'message_start':
    case 'message_update':
      return event.message.role === 'assistant'
        ? patchSession(state, { streamingMessage: event.message, isStreaming: true })
        : patchSession(state, { pendingMessages: addPending(state.session, event.message) });
    case 'message_end':
      return patchSession(state, {
        streamingMessage: event.message.role === 'assistant' ? null : state.session.streamingMessage,
        pendingMessages: addPending(state.session, event.message),
      });
    case 'tool_execution_start':
    case 'tool_execution_update':
    case 'tool_execution_end':
    case 'tool_approval_request':
    case 'tool_approval_end':
      return applyToolEvent(state, event);
    case 'auto_retry_start': {
      const { type: _type, ...pending } = event;
      const switchedModel = event.switchedModel
        ? { ...event.switchedModel, category: event.category }
        : state.retry.switchedModel;
      return { ...retrying(state, event), retry: { banner: { kind: 'pending', ...pending }, switchedModel } };
    }
    case 'auto_retry_paused': {
      const { type: _type, reason: _reason, ...fields } = event;
      const banner = { kind: 'pending' as const, ...fields, delayMs: 0, retryAt: 0, offline: true };
      return { ...retrying(state, event), retry: { ...state.retry, banner } };
    }
    case 'auto_retry_end':
      return applyRetryEnd(state, event);
    case 'rate_limit_wait': {
      const { type: _type, ...pacing } = event;
      return patchSession(state, { pacing });
    }
    case 'rate_limit_wait_end': {
      const held = state.session.pacing;
      const next = patchSession(state, { pacing: null });
      // Stopped before it was sent: the composer gets the text and the files back.
      if (event.outcome !== 'cancelled' || !held) return next;
      const files = held.attachments?.length ? { attachments: held.attachments } : {};
      const returnedDraft = { text: held.text, ...files, n: (state.ui.returnedDraft?.n ?? 0) + 1 };
      return { ...next, ui: { ...next.ui, returnedDraft } };
    }
    case 'prompt_processing_start':
      return patchSession(state, { promptWait: { startedAt: event.startedAt } });
    case 'prompt_processing_progress': {
      const wait = state.session.promptWait;
      return wait
        ? patchSession(state, { promptWait: { ...wait, processed: event.processed, total: event.total } })
        : state;
    }
    case 'prompt_processing_end':
      return patchSession(state, { promptWait: null });
    case 'auto_compaction_start': {
      const afterSeq = state.session.turns[state.session.turns.length - 1]?.seq ?? 0;
      const compaction: CompactionView = { afterSeq, status: 'running', summary: null, error: null };
      return patchSession(state, { isCompacting: true, compactions: [...state.session.compactions, compaction] });
    }
    case 'auto_compaction_end': {
      const compactions = state.session.compactions.map((c, i, all) =>
        i === all.length - 1 && c.status === 'running' ? endCompaction(c, event) : c,
      );
      const next = patchSession(state, { isCompacting: false, compactions });
      return event.errorMessage ? addNotice(next, 'error', event.errorMessage) : next;
    }
    case 'turn_persisted':
      return applyPersistedTurn(state, event.turn);
    case 'retry_chain_closed': {
      if (event.sessionId !== state.session.sessionId) return state;
      const chain: ChainView = { outcome: event.outcome, attempts: event.attempts, finalError: event.finalError };
      return patchSession(state, { chains: { ...state.session.chains, [event.chainId]: chain } });
    }
    case 'retry_decision':
      return applyDecision(state, event.decision);
    case 'session_changed':
      return applySnapshot(state, event.snapshot);
    case 'settings_changed':
      return applySettings(state, event.settings);
    case 'history_changed':
      return applyHistoryChange(state, event);
    case 'sessions_activity':
      return { ...state, history: { ...state.history, activity: event.sessions } };
    case 'mcp_status':
      return { ...state, settings: { ...state.settings, mcpServers: event.servers } };
    case 'update_status':
      return { ...state, settings: { ...state.settings, updates: event.status } };
    case 'simulator_script':
      return { ...state, settings: { ...state.settings, simulatorScriptUsedUp: event.usedUp } };
    case 'model_changed':
      return patchSession(state, { model: event.model });
    case 'spending_cap_request':
      return patchSession(state, { spendingCap: event.request });
    case 'spending_cap_end':
      return state.session.spendingCap?.id === event.id ? patchSession(state, { spendingCap: null }) : state;
    case 'chat_budget_changed':
      return event.sessionId === state.session.sessionId ? patchSession(state, { budget: event.budget }) : state;
    case 'notice': {
      const { type: _type, level, id: _id, ...text } = event;
      return addNotice(state, level, text);
    }
    default:
      return ignoreUnknown(state, event);
  }
}

function applyRetryEnd(state: AppState, event: AutoRetryEndEvent): AppState {
  const chain: ChainView = { outcome: event.outcome, attempts: event.attempt, finalError: event.finalError ?? null };
  const next = patchSession(state, {
    isRetrying: false,
    retryAttempt: 0,
    chains: { ...state.session.chains, [event.chainId]: chain },
  });
  // Recovered on a fallback model: the switch is said until the next prompt (or a dismiss).
  const switched = state.retry.switchedModel;
  if (event.success)
    return { ...next, retry: { banner: switched && { kind: 'switched', ...switched }, switchedModel: null } };
  // Counted from the chain's failed turns, as its card counts them, so the two always agree.
  const failed = state.session.turns.filter((t) => t.chainId === event.chainId && t.stopReason === 'error').length;
  const banner = {
    kind: 'failed' as const,
    retries: failed > 0 ? failed - 1 : event.attempt,
    outcome: event.outcome,
    finalError: event.finalError ?? '',
    chainId: event.chainId,
  };
  return { ...next, retry: { banner, switchedModel: null } };
}

/**
 * A new first choice in the settings is what the session talks to from its next request on: show
 * it. Any other change keeps the model shown, which may be a fallback a usage limit switched to
 * (model_changed tells of those).
 */
function applySettings(state: AppState, settings: Settings): AppState {
  const next = { ...state, settings: { ...state.settings, values: settings } };
  const { model } = state.session;
  const before = state.settings.values?.provider;
  const { id: provider, model: id } = settings.provider;
  if (before && before.id === provider && before.model === id) return next;
  if (!model || (model.provider === provider && model.id === id)) return next;
  const isSimulator = provider === 'simulator';
  return patchSession(next, { model: { provider, id, label: isSimulator ? 'Simulator' : id, isSimulator } });
}

function endCompaction(
  compaction: CompactionView,
  event: Extract<SessionEvent, { type: 'auto_compaction_end' }>,
): CompactionView {
  if (event.result && !event.aborted && !event.errorMessage)
    return { ...compaction, status: 'done', summary: event.result.summary };
  return { ...compaction, status: 'failed', error: event.errorMessage ?? (event.aborted ? 'Stopped' : null) };
}

/**
 * Replace the session slice with a snapshot, stored chains and decisions included. Within the same
 * session (a reconnect) live chain and decision details are kept where the snapshot has nothing newer.
 */
export function applySnapshot(state: AppState, snapshot: SessionSnapshot): AppState {
  const isSameSession = state.session.sessionId === snapshot.sessionId;
  const pendingMessages = isSameSession
    ? state.session.pendingMessages.filter((m) => !snapshot.turns.some((t) => isSameMessage(t, m)))
    : [];
  const session: SessionSlice = {
    sessionId: snapshot.sessionId,
    title: snapshot.title,
    turns: sortTurns(snapshot.turns),
    hasOlderTurns: snapshot.hasOlderTurns,
    pendingMessages,
    streamingMessage: snapshot.streamingMessage,
    isStreaming: snapshot.isStreaming,
    isRetrying: snapshot.isRetrying,
    retryAttempt: snapshot.retryAttempt,
    isCompacting: isSameSession ? state.session.isCompacting : false,
    activeToolName: isSameSession ? state.session.activeToolName : null,
    model: snapshot.model,
    interruptedRetry: snapshot.interruptedRetry ?? null,
    pacing: snapshot.pacing ?? null,
    // Back in a chat whose local server still works on the prompt, the notice is there again.
    promptWait: snapshot.promptWait ?? null,
    spendingCap: snapshot.spendingCap ?? null,
    budget: snapshot.budget ?? null,
    chains: mergeChains(isSameSession ? state.session.chains : {}, snapshot.chains),
    decisions: mergeDecisions(isSameSession ? state.session.decisions : [], snapshot.decisions),
    workspace: snapshot.workspace,
    pendingApprovals: snapshot.pendingApprovals,
    toolRuns: isSameSession ? state.session.toolRuns : {},
    compactions: isSameSession ? state.session.compactions : [],
  };
  // A pending retry in the snapshot wins; a failure or switch banner stays until dismissed, in its session.
  const kept = state.retry.banner;
  const keptBanner = isSameSession && (kept?.kind === 'failed' || kept?.kind === 'switched') ? kept : null;
  const banner = snapshot.pendingRetry ? { kind: 'pending' as const, ...snapshot.pendingRetry } : keptBanner;
  const retry = { banner, switchedModel: isSameSession ? state.retry.switchedModel : null };
  // An older main process sends no activity: the sidebar then shows none.
  const next = { ...state, session, retry, history: { ...state.history, activity: snapshot.activity ?? [] } };
  return withLiveTools(next, snapshot.liveTools ?? []);
}

/**
 * The tool calls running as the snapshot was taken, replayed as the events a listening window got:
 * its start, then its newest output. A card of a chat brought forward, or after a reload, shows
 * what its call has printed so far, and the events that follow carry on from there.
 */
function withLiveTools(state: AppState, calls: LiveToolCall[]): AppState {
  return calls.reduce((acc, { toolCallId, toolName, args, summary, partialResult }) => {
    const started = applyToolEvent(acc, {
      type: 'tool_execution_start',
      toolCallId,
      toolName,
      args,
      ...(summary === undefined ? {} : { summary }),
    });
    if (partialResult === null) return started;
    return applyToolEvent(started, { type: 'tool_execution_update', toolCallId, toolName, args, partialResult });
  }, state);
}

/** A chain is waiting (counting down or paused offline): no longer an interrupted one on offer. */
function retrying(state: AppState, event: { attempt: number; chainId: string }): AppState {
  const chain: ChainView = { outcome: 'pending', attempts: event.attempt, finalError: null };
  const offered = state.session.interruptedRetry;
  return patchSession(state, {
    isRetrying: true,
    retryAttempt: event.attempt,
    chains: { ...state.session.chains, [event.chainId]: chain },
    interruptedRetry: offered?.chainId === event.chainId ? null : offered,
  });
}

/** An older page of the current session (history.turns) joins the front of the transcript. */
export function applyOlderTurns(state: AppState, page: TurnPage): AppState {
  if (page.sessionId !== state.session.sessionId) return state;
  const known = new Set(state.session.turns.map((t) => t.id));
  return patchSession(state, {
    turns: sortTurns([...page.turns.filter((t) => !known.has(t.id)), ...state.session.turns]),
    hasOlderTurns: page.hasOlderTurns,
    chains: mergeChains(state.session.chains, page.chains, false),
    decisions: mergeDecisions(state.session.decisions, page.decisions),
  });
}

function mergeChains(
  live: Record<string, ChainView>,
  stored: RetryChainRecord[],
  storedWins = true,
): Record<string, ChainView> {
  const chains = { ...live };
  for (const chain of stored) {
    // A live event is newer than the stored row only while the chain is still pending there; an
    // older page never overrides what the session already shows.
    if (!chains[chain.id] || (storedWins && chain.outcome !== 'pending')) {
      chains[chain.id] = { outcome: chain.outcome, attempts: chain.attempts, finalError: chain.finalError };
    }
  }
  return chains;
}

function mergeDecisions(live: RetryDecisionRecord[], stored: RetryDecisionRecord[]): RetryDecisionRecord[] {
  const known = new Set(stored.map((d) => d.id));
  return sortDecisions([...stored, ...live.filter((d) => !known.has(d.id))]);
}

/** Update one session's row in the lists (or drop it), newest first as history.list orders them. */
function applyHistoryChange(state: AppState, event: HistoryChangedEvent): AppState {
  const others = state.history.sessions.filter((s) => s.id !== event.sessionId);
  const sessions = event.session ? sortSessions([event.session, ...others]).slice(0, SESSION_LIST_LIMIT) : others;
  // A rename of the open conversation retitles the chat too.
  const renamed = event.session && event.sessionId === state.session.sessionId && event.session.title;
  const session = renamed ? { ...state.session, title: renamed } : state.session;
  return { ...state, session, history: { ...state.history, sessions, revision: state.history.revision + 1 } };
}

function sortSessions(sessions: SessionSummary[]): SessionSummary[] {
  return [...sessions].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function applyPersistedTurn(state: AppState, turn: TurnRecord): AppState {
  if (turn.sessionId !== state.session.sessionId) return state;
  const turns = sortTurns([...state.session.turns.filter((t) => t.id !== turn.id), turn]);
  const index = state.session.pendingMessages.findIndex((m) => isSameMessage(turn, m));
  const pendingMessages =
    index < 0 ? state.session.pendingMessages : state.session.pendingMessages.filter((_, i) => i !== index);
  // A stored tool result tells its card from now on: the live run is done with.
  const toolRuns = { ...state.session.toolRuns };
  if (turn.message.role === 'toolResult') delete toolRuns[turn.message.toolCallId];
  return patchSession(state, { turns, pendingMessages, toolRuns });
}

function applyDecision(state: AppState, decision: RetryDecisionRecord): AppState {
  if (decision.context.sessionId !== state.session.sessionId) return state;
  if (state.session.decisions.some((d) => d.id === decision.id)) return state;
  return patchSession(state, {
    decisions: sortDecisions([...state.session.decisions, decision]),
    turns: linkTurnToChain(state.session.turns, decision.context.turnId, decision.chainId),
  });
}

/**
 * An errored turn is stored before the decision about it opens its retry chain, so it arrives
 * with chainId null; the decision names both, which lets the chat group it with its chain live.
 */
function linkTurnToChain(turns: TurnRecord[], turnId: string | null, chainId: string | null): TurnRecord[] {
  if (!turnId || !chainId || !turns.some((t) => t.id === turnId && t.chainId === null)) return turns;
  return turns.map((t) => (t.id === turnId && t.chainId === null ? { ...t, chainId } : t));
}

/** Add a message to the pending list unless it is already persisted or pending (events can repeat). */
function addPending(session: SessionSlice, message: ChatMessage): ChatMessage[] {
  if (session.turns.some((t) => isSameMessage(t, message))) return session.pendingMessages;
  const index = session.pendingMessages.findIndex((m) => m.role === message.role && m.timestamp === message.timestamp);
  if (index < 0) return [...session.pendingMessages, message];
  return session.pendingMessages.map((m, i) => (i === index ? message : m));
}

/**
 * Does a stored turn hold this live message? Timestamps match when the store keeps the message
 * as sent; the text fallback covers a store that re-stamps it, but only for a turn stored after
 * the message began, so an older turn with the same words does not swallow a new message.
 */
function isSameMessage(turn: TurnRecord, message: ChatMessage): boolean {
  if (turn.role !== message.role) return false;
  if (turn.message.timestamp === message.timestamp) return true;
  return turn.createdAt >= message.timestamp && turn.text === messageText(message);
}

function patchSession(state: AppState, patch: Partial<SessionSlice>): AppState {
  return { ...state, session: { ...state.session, ...patch } };
}

function sortTurns(turns: TurnRecord[]): TurnRecord[] {
  return [...turns].sort((a, b) => a.seq - b.seq);
}

function sortDecisions(decisions: RetryDecisionRecord[]): RetryDecisionRecord[] {
  // ISO 8601 timestamps order as plain strings; localeCompare would build an ICU collator (15 ms
  // the first time, in the task that opens a chat) to compare them by the person's language.
  return [...decisions].sort((a, b) =>
    a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.attempt - b.attempt,
  );
}

/** Compile-time exhaustiveness; at run time a newer main process's unknown event is ignored. */
function ignoreUnknown(state: AppState, _event: never): AppState {
  return state;
}
