// Getting the person's attention while Resolute is in the background: an OS notification when a
// retry chain gives up, when a scheduled retry goes out or fails, when a tool call waits for
// approval, or when a chat left working wants the person; and the dock/taskbar badge for them. Decisions only; main.ts passes in the few Electron calls they need,
// so test/unit/electron/attention.test.ts drives them with a fake.
import type { SessionActivity, SessionEvent } from '../../shared/events';
import type { Translate } from './desktop-i18n';

/** Something worth a notification. */
export type Attention =
  | { kind: 'retry_failed'; attempts: number; finalError: string }
  | { kind: 'approval_needed'; subject: string }
  | { kind: 'scheduled_retry_running' }
  | { kind: 'scheduled_retry_failed'; finalError: string }
  /** A chat the person left (docs/architecture.md, "Chats side by side") got a reply, failed or waits for approval. */
  | { kind: 'chat_needs_you'; title: string; attention: NonNullable<SessionActivity['attention']> };

/**
 * The shown chat's events that deserve a notification (the other chats' news comes from
 * chatAttention): a chain that gave up, a tool call that waits for approval. A cancelled chain is
 * left out: the person cancelled it, so they are looking.
 */
export function attentionForEvent(event: SessionEvent): Attention | null {
  if (event.type === 'auto_retry_end' && !event.success && event.outcome !== 'cancelled') {
    return { kind: 'retry_failed', attempts: event.attempt, finalError: event.finalError ?? '' };
  }
  if (event.type === 'tool_approval_request') return { kind: 'approval_needed', subject: event.request.toolName };
  return null;
}

/**
 * The events of a scheduled retry (docs/retry-policy.md, "Scheduled retries") that deserve a
 * notification, hours after the person scheduled it: its retry going out (the run that starts after
 * the scheduled auto_retry_start) and its chain failing. Stateful, one per window: returns the
 * mapper of each event, to try before attentionForEvent. A cancel or a quit says nothing.
 */
export function scheduledRetryAttention(): (event: SessionEvent) => Attention | null {
  let chainId: string | null = null;
  let waiting = false;
  return (event) => {
    if (event.type === 'auto_retry_start') {
      chainId = event.scheduled ? event.chainId : null;
      waiting = Boolean(event.scheduled);
      return null;
    }
    if (event.type === 'agent_start' && waiting) {
      waiting = false;
      return { kind: 'scheduled_retry_running' };
    }
    if (event.type !== 'auto_retry_end' || event.chainId !== chainId) return null;
    chainId = null;
    waiting = false;
    if (event.success || event.outcome === 'cancelled' || event.outcome === 'interrupted') return null;
    return { kind: 'scheduled_retry_failed', finalError: event.finalError ?? '' };
  };
}

/**
 * The chats that newly want the person, from each sessions_activity list: a chat left working that
 * got its reply, failed, or asks for an approval (docs/architecture.md, "Chats side by side").
 * Stateful, one per window: each chat's news is told once.
 */
export function chatAttention(): (event: SessionEvent) => Attention[] {
  const told = new Map<string, string>();
  return (event) => {
    if (event.type !== 'sessions_activity') return [];
    const news: Attention[] = [];
    const now = new Map<string, string>();
    for (const { sessionId, title, attention } of event.sessions) {
      if (!attention) continue;
      now.set(sessionId, attention);
      if (told.get(sessionId) !== attention) news.push({ kind: 'chat_needs_you', title, attention });
    }
    told.clear();
    for (const [id, attention] of now) told.set(id, attention);
    return news;
  };
}

/** The badge's count: chats that want the person — news in a chat not shown, or an approval waiting anywhere. */
export function attentionCount(sessions: readonly SessionActivity[]): number {
  return sessions.filter((a) => a.attention !== undefined || a.state === 'approval').length;
}

export interface NotificationContent {
  title: string;
  body: string;
}

export function notificationContent(attention: Attention, t: Translate): NotificationContent {
  switch (attention.kind) {
    case 'retry_failed':
      return {
        title: t('notification.retryFailedTitle'),
        body: t('notification.retryFailedBody', { count: attention.attempts, error: attention.finalError }),
      };
    case 'scheduled_retry_running':
      return { title: t('notification.scheduledRunningTitle'), body: t('notification.scheduledRunningBody') };
    case 'scheduled_retry_failed':
      return {
        title: t('notification.scheduledFailedTitle'),
        body: t('notification.scheduledFailedBody', { error: attention.finalError }),
      };
    case 'chat_needs_you': {
      const titles = {
        reply: t('notification.chatReplyTitle'),
        failed: t('notification.chatFailedTitle'),
        approval: t('notification.chatApprovalTitle'),
      };
      return { title: titles[attention.attention], body: t('notification.chatBody', { title: attention.title }) };
    }
    case 'approval_needed':
      return {
        title: t('notification.approvalTitle'),
        body: t('notification.approvalBody', { subject: attention.subject }),
      };
  }
}

/** What the quit dialog says when chains wait (Electron's MessageBoxOptions' fields; Quit is button 0). */
export function quitQuestion(waiting: number, t: Translate) {
  return {
    type: 'question' as const,
    message: t('quit.title', { count: waiting }),
    detail: t('quit.body', { count: waiting }),
    buttons: [t('quit.quit'), t('quit.cancel')],
    defaultId: 0,
    cancelId: 1,
  };
}

export interface NotifierDeps {
  /** Electron's BrowserWindow#isFocused for the main window (false when there is none). */
  isWindowFocused(): boolean;
  /** Electron's Notification.isSupported(). */
  isSupported(): boolean;
  /** Show an OS notification; onClick runs when the person clicks it. */
  show(content: NotificationContent, onClick: () => void): void;
  /** Bring the main window forward (single-instance.ts focusWindow). */
  focusWindow(): void;
  /** Read on every call, so a language change applies to the next notification. */
  translate(): Translate;
}

/** Returns notify(attention): shows a notification only when the window is not focused; true if shown. */
export function createNotifier(deps: NotifierDeps): (attention: Attention) => boolean {
  return (attention) => {
    if (deps.isWindowFocused() || !deps.isSupported()) return false;
    deps.show(notificationContent(attention, deps.translate()), deps.focusWindow);
    return true;
  };
}

export interface BadgeDeps {
  platform: NodeJS.Platform;
  /** app.setBadgeCount: the dock on macOS, launchers with the Unity LauncherEntry API on Linux. */
  setBadgeCount(count: number): boolean;
  /** BrowserWindow#setOverlayIcon on Windows, whose taskbar has no count badge; false clears it. */
  setOverlayIcon(show: boolean, description: string): void;
  translate(): Translate;
}

/** The badge for chats waiting on the person (attentionCount): a count on macOS/Linux, an overlay icon on Windows. */
export function createApprovalBadge(deps: BadgeDeps): { set(pendingCount: number): void } {
  return {
    set(pendingCount) {
      const count = Number.isInteger(pendingCount) && pendingCount > 0 ? pendingCount : 0;
      if (deps.platform === 'win32') deps.setOverlayIcon(count > 0, deps.translate()('badge.approvalWaiting'));
      else deps.setBadgeCount(count);
    },
  };
}

/**
 * What the desktop does with each event the windows get: the notifications (a scheduled retry's
 * news first, then the shown chat's — a chain that gave up, an approval asked in the chat on
 * screen —, then the other chats' news) and the badge. One per window; desktop-shell.ts subscribes it.
 */
export function attentionRouter(deps: {
  notify(attention: Attention): boolean;
  setBadge(count: number): void;
}): (event: SessionEvent) => void {
  const scheduled = scheduledRetryAttention();
  const chats = chatAttention();
  return (event) => {
    const attention = scheduled(event) ?? attentionForEvent(event);
    if (attention) deps.notify(attention);
    for (const news of chats(event)) deps.notify(news);
    if (event.type === 'sessions_activity') deps.setBadge(attentionCount(event.sessions));
  };
}
