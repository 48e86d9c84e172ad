// Why Enter sends nothing while the chat's own retry waits (docs/retry-policy.md, "Scheduled
// retries"): the composer says so, with the scheduled clock time, and how to send now — in en/ja/ko.
import { describe, expect, it } from 'vitest';
import { sendHeldText } from '../../../src/renderer/src/retry/send-held';
import { appLanguages } from './app-i18n';

const inLanguage = appLanguages();
const NOW = new Date(2026, 11, 1, 11, 52, 0).getTime();
const AT = new Date(2026, 11, 1, 14, 5, 0).getTime();

describe('sendHeldText', () => {
  it('names the scheduled time and the way to send now, in each language', () => {
    const wait = { scheduled: true, offline: false, retryAt: AT };
    expect(sendHeldText(inLanguage('en'), 'en', wait, NOW)).toBe(
      'Not sent: this chat retries its last message at 14:05 (in 2 h 13 min). Cancel that retry above to send this one.',
    );
    expect(sendHeldText(inLanguage('ja'), 'ja', wait, NOW)).toContain('14:05');
    expect(sendHeldText(inLanguage('ko'), 'ko', wait, NOW)).toContain('14:05');
  });

  it('says the retry is about to go, or waits for the network', () => {
    const t = inLanguage('en');
    expect(sendHeldText(t, 'en', { scheduled: false, offline: false, retryAt: NOW + 4000 }, NOW)).toBe(
      'Not sent: this chat retries its last message in 4 s. Cancel that retry above to send this one.',
    );
    expect(sendHeldText(t, 'en', { scheduled: false, offline: true, retryAt: NOW }, NOW)).toBe(
      'Not sent: this chat retries its last message when the network is back. Cancel that retry above to send this one.',
    );
  });
});
