// A run left alone on the desktop (docs/hosts.md, "A run left alone"): the keep-awake blocker taken
// while a request or a tool runs and let go for every wait, the window hidden to the tray (or the
// dock on macOS) when closed while work is pending, with the state and Quit, and the OS notification
// for an approval asked in the chat on screen while the window is in the background. Electron's
// powerSaveBlocker, Tray and window are fakes that record what they were asked.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { attentionRouter, createNotifier, type NotificationContent } from '../../../src/main/electron/attention';
import { desktopTranslator } from '../../../src/main/electron/desktop-i18n';
import {
  createCloseToTray,
  createKeepAwake,
  pendingWork,
  workStatus,
  type StatusPlace,
} from '../../../src/main/electron/left-alone';
import type { SessionActivity, SessionActivityState, SessionEvent } from '../../../src/shared/events';
import { FakeWindow } from './electron-fakes';
import { bashApproval } from '../../fixtures/approval-request';

const chat = (id: string, state: SessionActivityState, until?: number): SessionActivity => ({
  sessionId: id,
  title: id,
  state,
  ...(until !== undefined ? { until } : {}),
});
const en = desktopTranslator('en', []);
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const at = (time: string) => Date.parse(`2026-12-07T${time}:00Z`);

function fakeBlocker() {
  const calls: string[] = [];
  let next = 7;
  return {
    calls,
    start: (type: 'prevent-app-suspension') => {
      calls.push(`start ${type}`);
      return next++;
    },
    stop: (id: number) => void calls.push(`stop ${id}`),
  };
}

describe('keep-awake', () => {
  it('is taken once when a request runs, kept while a tool runs, and let go when the run ends', () => {
    const blocker = fakeBlocker();
    const awake = createKeepAwake(blocker);
    awake.update([chat('a', 'idle')]);
    expect(blocker.calls).toEqual([]);
    awake.update([chat('a', 'streaming')]);
    awake.update([chat('a', 'streaming'), chat('b', 'compacting')]);
    expect(blocker.calls).toEqual(['start prevent-app-suspension']);
    expect(awake.held).toBe(true);
    awake.update([chat('a', 'idle')]);
    expect(blocker.calls).toEqual(['start prevent-app-suspension', 'stop 7']);
    expect(awake.held).toBe(false);
  });

  it('is let go for every wait: a countdown, a scheduled retry, an offline pause, pacing, an approval', () => {
    for (const wait of ['retrying', 'scheduled', 'offline', 'pacing', 'approval'] as const) {
      const blocker = fakeBlocker();
      const awake = createKeepAwake(blocker);
      awake.update([chat('a', 'streaming')]);
      awake.update([chat('a', wait, at('14:05'))]);
      expect(blocker.calls).toEqual(['start prevent-app-suspension', 'stop 7']);
      awake.update([chat('a', 'streaming')]);
      expect(blocker.calls.at(-1)).toBe('start prevent-app-suspension');
    }
  });

  it('is let go at quit, once', () => {
    const blocker = fakeBlocker();
    const awake = createKeepAwake(blocker);
    awake.update([chat('a', 'streaming')]);
    awake.release();
    awake.release();
    expect(blocker.calls).toEqual(['start prevent-app-suspension', 'stop 7']);
  });
});

describe('the state in the tray', () => {
  it('counts the chats that work, a wait included, and names the next retry', () => {
    const work = pendingWork([
      chat('a', 'streaming'),
      chat('b', 'scheduled', at('16:00')),
      chat('c', 'retrying', at('14:05')),
      chat('d', 'idle'),
    ]);
    expect(work).toEqual({ working: 3, nextRetryAt: at('14:05') });
    expect(workStatus(work, en, hhmm)).toBe('3 chats working · next retry 14:05');
    expect(workStatus(pendingWork([chat('a', 'streaming')]), en, hhmm)).toBe('1 chat working');
    expect(workStatus(pendingWork([]), en, hhmm)).toBe('Nothing running');
  });

  it('says it in Japanese and Korean', () => {
    const work = { working: 2, nextRetryAt: at('14:05') };
    expect(workStatus(work, desktopTranslator('ja', []), hhmm)).toBe('2 件のチャットが作業中 · 次の再試行 14:05');
    expect(workStatus(work, desktopTranslator('ko', []), hhmm)).toBe('채팅 2개 작업 중 · 다음 재시도 14:05');
  });
});

function fakePlace() {
  const shown: { tooltip: string; menu: MenuItemConstructorOptions[] }[] = [];
  let cleared = 0;
  const place: StatusPlace = {
    show: (tooltip, menu) => void shown.push({ tooltip, menu }),
    clear: () => void cleared++,
  };
  return { place, shown, cleared: () => cleared };
}

function closeSetup(platform: NodeJS.Platform, activity: SessionActivity[]) {
  const tray = fakePlace();
  const dock = fakePlace();
  const actions: string[] = [];
  const live = { activity };
  const guard = createCloseToTray({
    platform,
    liveActivity: () => live.activity,
    tray: tray.place,
    dock: dock.place,
    actions: { showWindow: () => void actions.push('show'), quit: () => void actions.push('quit') },
    translate: () => en,
    formatTime: hhmm,
  });
  const win = new FakeWindow();
  const close = () => {
    let prevented = false;
    const kept = guard.closing({ preventDefault: () => (prevented = true) }, win);
    return { kept, prevented };
  };
  return { guard, tray, dock, actions, live, win, close };
}

const labels = (menu: MenuItemConstructorOptions[]) => menu.map((item) => item.label ?? item.type);

describe('closing the window while work runs', () => {
  it('hides the window to the tray on Linux and Windows, with the state, Show and Quit', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const { tray, dock, actions, win, close } = closeSetup(platform, [
        chat('a', 'streaming'),
        chat('b', 'scheduled', at('14:05')),
      ]);
      expect(close()).toEqual({ kept: true, prevented: true });
      expect(win.calls).toEqual(['hide']);
      expect(dock.shown).toEqual([]);
      const { tooltip, menu } = tray.shown[0];
      expect(tooltip).toBe('2 chats working · next retry 14:05');
      expect(labels(menu)).toEqual([
        '2 chats working · next retry 14:05',
        'separator',
        'Show Resolute',
        'Quit Resolute',
      ]);
      expect(menu[0].enabled).toBe(false);
      menu[2].click?.(undefined as never, undefined, undefined as never);
      menu[3].click?.(undefined as never, undefined, undefined as never);
      expect(actions).toEqual(['show', 'quit']);
    }
  });

  it('uses the dock on macOS', () => {
    const { tray, dock, close } = closeSetup('darwin', [chat('a', 'retrying', at('09:30'))]);
    expect(close().kept).toBe(true);
    expect(tray.shown).toEqual([]);
    expect(dock.shown[0].tooltip).toBe('1 chat working · next retry 09:30');
  });

  it('follows the chats while hidden, and leaves the tray when the window is shown again', () => {
    const { guard, tray, live, close } = closeSetup('linux', [chat('a', 'streaming')]);
    guard.activityChanged();
    expect(tray.shown).toEqual([]);
    close();
    live.activity = [chat('a', 'idle')];
    guard.activityChanged();
    expect(tray.shown.map((s) => s.tooltip)).toEqual(['1 chat working', 'Nothing running']);
    guard.shown();
    guard.shown();
    expect(tray.cleared()).toBe(1);
    expect(guard.isHidden).toBe(false);
  });

  it('lets the window close when nothing works, and when a quit goes ahead', () => {
    const idle = closeSetup('linux', [chat('a', 'idle')]);
    expect(idle.close()).toEqual({ kept: false, prevented: false });
    expect(idle.win.calls).toEqual([]);
    const quitting = closeSetup('linux', [chat('a', 'streaming')]);
    quitting.guard.quitting();
    expect(quitting.close()).toEqual({ kept: false, prevented: false });
    expect(quitting.tray.shown).toEqual([]);
  });
});

describe("an approval asked in the chat on screen (the approval_needed notification's producer)", () => {
  const request = bashApproval({ command: 'make', requestedAt: 0 });
  const events: SessionEvent[] = [
    { type: 'tool_approval_request', request },
    // The shown chat waits: its row carries no news of its own, so no second notification.
    { type: 'sessions_activity', sessions: [chat('shown', 'approval')] },
  ];

  function route(focused: boolean) {
    const shown: NotificationContent[] = [];
    const badges: number[] = [];
    const notify = createNotifier({
      isWindowFocused: () => focused,
      isSupported: () => true,
      show: (content) => void shown.push(content),
      focusWindow: () => undefined,
      translate: () => en,
    });
    const handle = attentionRouter({ notify, setBadge: (n) => void badges.push(n) });
    for (const event of events) handle(event);
    return { shown, badges };
  }

  it('raises one OS notification while the window is not focused, and counts it on the badge', () => {
    expect(route(false)).toEqual({
      shown: [{ title: 'Approval needed', body: 'bash is waiting for your approval.' }],
      badges: [1],
    });
  });

  it('stays quiet while the person looks at the window', () => {
    expect(route(true)).toEqual({ shown: [], badges: [1] });
  });
});
