// Settings → MCP's next attempt (docs/mcp.md, "Failures"): a time already gone is never shown as
// the next attempt ("Next attempt at 02:12:46" stood at 02:12:50); it reads as under way, in en/ja/ko.
import { describe, expect, it } from 'vitest';
import { nextAttemptText } from '../../../src/renderer/src/components/settings/McpServerLog';
import { appLanguages } from './app-i18n';

const inLanguage = appLanguages();
const AT = new Date(2026, 11, 7, 2, 12, 46).getTime();

describe('nextAttemptText', () => {
  it('names the time while it is ahead, and says the attempt is under way once it has passed', () => {
    expect(nextAttemptText(inLanguage('en'), 'en', AT, AT - 4000)).toBe('Next attempt at 02:12:46');
    expect(nextAttemptText(inLanguage('en'), 'en', AT, AT + 4000)).toBe('Trying again now…');
    expect(nextAttemptText(inLanguage('ja'), 'ja', AT, AT + 4000)).toBe('いま再試行しています…');
    expect(nextAttemptText(inLanguage('ko'), 'ko', AT, AT + 4000)).toBe('지금 다시 시도하는 중…');
    expect(nextAttemptText(inLanguage('en'), 'en', undefined, AT)).toBe('Not tried again by itself.');
  });
});
