// The chats the sidebar lists, in its order: a chat that works but is not stored yet (a first
// prompt held for a rate limit) first, under that prompt's first line, then the stored ones, the
// most recent first. Shared by the sidebar's list and the commands that go to a chat by its place
// (Ctrl+1…9, next and previous chat), so that "chat 3" is the third row the person sees.
import type { SessionActivity } from '../../../shared/events';
import type { SessionSummary } from '../../../shared/history';
import type { AppState } from './state';

export const RECENT_SESSIONS = 30;

/** Chats that work but are not stored yet: a row each, under their first line. */
export function unstoredSessions(stored: SessionSummary[], activity: SessionActivity[]): SessionSummary[] {
  return activity
    .filter((a) => a.state !== 'idle' && a.title && !stored.some((s) => s.id === a.sessionId))
    .map((a) => ({
      id: a.sessionId,
      title: a.title.split('\n')[0],
      createdAt: 0,
      updatedAt: 0,
      model: '',
      provider: '',
      turnCount: 0,
      erroredTurnCount: 0,
      workspace: '',
    }));
}

export function sidebarSessions(state: AppState): SessionSummary[] {
  const { sessions, activity } = state.history;
  return [...unstoredSessions(sessions, activity), ...sessions].slice(0, RECENT_SESSIONS);
}
