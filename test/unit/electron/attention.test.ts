// Notifications and the approval badge: which session events need the person, when a notification
// is shown (only with the window in the background), what it says in en/ja, what a click does, and
// the badge per platform. The Electron calls are recorded by plain functions (no Electron here).
import { describe, expect, it } from 'vitest';
import {
  attentionCount,
  attentionForEvent,
  chatAttention,
  createApprovalBadge,
  createNotifier,
  notificationContent,
  quitQuestion,
  scheduledRetryAttention,
  type NotificationContent,
} from '../../../src/main/electron/attention';
import { desktopTranslator } from '../../../src/main/electron/desktop-i18n';
import type { ChainOutcome } from '../../../src/shared/error-category';
import type { SessionActivity, SessionEvent } from '../../../src/shared/events';
import { bashApproval } from '../../fixtures/approval-request';

const retryEnd = (success: boolean, outcome: ChainOutcome, finalError?: string): SessionEvent => ({
  type: 'auto_retry_end',
  success,
  attempt: 3,
  outcome,
  chainId: 'c1',
  ...(finalError ? { finalError } : {}),
});

describe('attentionForEvent', () => {
  it('asks for attention when a retry chain gives up', () => {
    expect(attentionForEvent(retryEnd(false, 'exhausted', '503 Service Unavailable'))).toEqual({
      kind: 'retry_failed',
      attempts: 3,
      finalError: '503 Service Unavailable',
    });
    expect(attentionForEvent(retryEnd(false, 'not_retryable', 'auth'))?.kind).toBe('retry_failed');
  });

  it('asks for attention when a tool call of the shown chat waits for approval', () => {
    const request = bashApproval({ requestedAt: 0 });
    expect(attentionForEvent({ type: 'tool_approval_request', request })).toEqual({
      kind: 'approval_needed',
      subject: 'bash',
    });
    expect(attentionForEvent({ type: 'tool_approval_end', id: 'a1', choice: 'deny' })).toBeNull();
  });

  it('stays quiet for a recovery, a cancel (the person did it) and every other event', () => {
    expect(attentionForEvent(retryEnd(true, 'recovered'))).toBeNull();
    expect(attentionForEvent(retryEnd(false, 'cancelled', 'Retry cancelled'))).toBeNull();
    expect(attentionForEvent({ type: 'agent_start' })).toBeNull();
    expect(attentionForEvent({ type: 'notice', level: 'error', message: 'x' })).toBeNull();
  });
});

function notifier(options: { focused: boolean; supported?: boolean; language?: 'en' | 'ja' }) {
  const shown: { content: NotificationContent; click: () => void }[] = [];
  let focusCalls = 0;
  const notify = createNotifier({
    isWindowFocused: () => options.focused,
    isSupported: () => options.supported ?? true,
    show: (content, click) => shown.push({ content, click }),
    focusWindow: () => (focusCalls += 1),
    translate: () => desktopTranslator(options.language ?? 'en', []),
  });
  return { notify, shown, focusCalls: () => focusCalls };
}

describe('createNotifier', () => {
  const failed = { kind: 'retry_failed', attempts: 3, finalError: 'Overloaded' } as const;

  it('notifies while the window is in the background, and a click brings it forward', () => {
    const { notify, shown, focusCalls } = notifier({ focused: false });
    expect(notify(failed)).toBe(true);
    expect(shown.map((s) => s.content)).toEqual([
      { title: 'Retry failed', body: 'Gave up after 3 retries: Overloaded' },
    ]);
    shown[0].click();
    expect(focusCalls()).toBe(1);
  });

  it('says nothing while the person is looking at the window, or where the OS has no notifications', () => {
    for (const setup of [{ focused: true }, { focused: false, supported: false }]) {
      const { notify, shown } = notifier(setup);
      expect(notify(failed)).toBe(false);
      expect(shown).toEqual([]);
    }
  });

  it('speaks the language setting, one retry and several', () => {
    const { notify, shown } = notifier({ focused: false, language: 'ja' });
    notify({ kind: 'retry_failed', attempts: 1, finalError: '429' });
    expect(shown[0].content).toEqual({ title: '再試行に失敗しました', body: '1 回再試行しましたが失敗しました: 429' });
    const english = notifier({ focused: false });
    english.notify({ kind: 'retry_failed', attempts: 1, finalError: '429' });
    expect(english.shown[0].content.body).toBe('Gave up after 1 retry: 429');
  });

  it('takes the approval kind through the same path', () => {
    const { notify, shown } = notifier({ focused: false });
    notify({ kind: 'approval_needed', subject: 'write_file' });
    expect(shown[0].content).toEqual({ title: 'Approval needed', body: 'write_file is waiting for your approval.' });
  });
});

describe('createApprovalBadge', () => {
  function badge(platform: NodeJS.Platform) {
    const counts: number[] = [];
    const overlays: [boolean, string][] = [];
    const set = createApprovalBadge({
      platform,
      setBadgeCount: (count) => counts.push(count) > 0,
      setOverlayIcon: (show, description) => overlays.push([show, description]),
      translate: () => desktopTranslator('en', []),
    }).set;
    return { set, counts, overlays };
  }

  it('shows the count on the macOS dock and Linux launchers, and clears it at zero', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      const { set, counts, overlays } = badge(platform);
      set(2);
      set(0);
      expect(counts).toEqual([2, 0]);
      expect(overlays).toEqual([]);
    }
  });

  it('shows an overlay icon with a description on the Windows taskbar, and removes it at zero', () => {
    const { set, counts, overlays } = badge('win32');
    set(1);
    set(0);
    expect(overlays).toEqual([
      [true, 'Waiting for your approval'],
      [false, 'Waiting for your approval'],
    ]);
    expect(counts).toEqual([]);
  });

  it('treats a negative or broken count as none', () => {
    const { set, counts } = badge('darwin');
    set(-1);
    set(Number.NaN);
    set(1.5);
    expect(counts).toEqual([0, 0, 0]);
  });
});

describe('scheduledRetryAttention (docs/retry-policy.md, "Scheduled retries")', () => {
  const start = (scheduled: boolean): SessionEvent => ({
    type: 'auto_retry_start',
    attempt: 1,
    maxAttempts: 4,
    delayMs: 7_200_000,
    errorMessage: '429',
    category: 'rate_limit',
    retryAt: 0,
    chainId: 'c1',
    ...(scheduled ? { scheduled } : {}),
  });

  it('notifies when the scheduled retry goes out and when its chain fails, in the background only', () => {
    const attention = scheduledRetryAttention();
    const { notify, shown } = notifier({ focused: false, language: 'ja' });
    for (const event of [start(true), { type: 'agent_start' } as const, retryEnd(false, 'exhausted', '429 again')]) {
      const found = attention(event);
      if (found) notify(found);
    }
    expect(shown.map((s) => s.content)).toEqual([
      { title: '予約した再試行', body: '予約した再試行を今実行しています。' },
      { title: '予約した再試行に失敗しました', body: '予約した再試行で応答を得られませんでした: 429 again' },
    ]);
    const focused = notifier({ focused: true });
    expect(focused.notify({ kind: 'scheduled_retry_running' })).toBe(false);
  });

  it('stays quiet for an ordinary retry, a recovery, a cancel and a quit', () => {
    const ordinary = scheduledRetryAttention();
    expect([start(false), { type: 'agent_start' } as const].map(ordinary)).toEqual([null, null]);
    for (const outcome of ['recovered', 'cancelled', 'interrupted'] as const) {
      const attention = scheduledRetryAttention();
      attention(start(true));
      expect(attention(retryEnd(outcome === 'recovered', outcome))).toBeNull();
    }
  });
});

describe('chats side by side (docs/architecture.md, "Chats side by side")', () => {
  const activity = (sessions: SessionActivity[]): SessionEvent => ({ type: 'sessions_activity', sessions });
  const left = (attention?: SessionActivity['attention'], state: SessionActivity['state'] = 'idle') => ({
    sessionId: 'a',
    title: 'Plan the trip',
    state,
    ...(attention ? { attention } : {}),
  });

  it("tells each chat's news once: a reply, then a failure after it, and nothing for the same news again", () => {
    const news = chatAttention();
    expect(news(activity([left(undefined, 'retrying')]))).toEqual([]);
    expect(news(activity([left('reply')]))).toEqual([
      { kind: 'chat_needs_you', title: 'Plan the trip', attention: 'reply' },
    ]);
    expect(news(activity([left('reply')]))).toEqual([]);
    expect(news(activity([]))).toEqual([]);
    expect(news(activity([left('failed')]))).toEqual([
      { kind: 'chat_needs_you', title: 'Plan the trip', attention: 'failed' },
    ]);
    expect(news(retryEnd(false, 'exhausted'))).toEqual([]);
  });

  it('counts for the badge the chats with news and every approval waiting, shown or not', () => {
    const shownApproval: SessionActivity = { sessionId: 'b', title: 'b', state: 'approval' };
    const busy: SessionActivity = { sessionId: 'c', title: 'c', state: 'streaming' };
    expect(attentionCount([left('reply'), shownApproval, busy])).toBe(2);
    expect(attentionCount([busy])).toBe(0);
  });

  it("says it in the language of the app, with the chat's title", () => {
    const ja = desktopTranslator('ja', []);
    expect(notificationContent({ kind: 'chat_needs_you', title: '旅行', attention: 'failed' }, ja)).toEqual({
      title: 'チャットが失敗しました',
      body: '「旅行」',
    });
  });

  it('asks before a quit how many waiting retries are kept', () => {
    const en = desktopTranslator('en', []);
    expect(quitQuestion(2, en)).toMatchObject({
      message: '2 retries are waiting',
      buttons: ['Quit', 'Cancel'],
      defaultId: 0,
      cancelId: 1,
    });
    expect(quitQuestion(1, desktopTranslator('ko', [])).message).toBe('재시도 1개가 대기 중입니다');
  });
});
