// What the chat header says a session spent against its cap (src/renderer/src/chat/session-cost-text.ts;
// docs/tools.md, "The spending cap"): "$1.20 of $5" for a dollar cap on a priced model, "of 50k
// tokens" for a token cap, no dollar cap where nothing is priced; in en/ja/ko.
import { describe, expect, it } from 'vitest';
import { sessionCostText } from '../../../src/renderer/src/chat/session-cost-text';
import { appLanguages } from './app-i18n';

const inLanguage = appLanguages();
const priced = { tokens: 12_300, costUsd: 1.2, unpriced: 0 };
const unpriced = { tokens: 12_300, costUsd: null, unpriced: 3 };

describe('sessionCostText', () => {
  it('says the dollars against a dollar cap', () => {
    expect(sessionCostText(priced, { usd: 5 }, inLanguage('en'), 'en')).toBe('Session: 12.3k tokens · $1.20 of $5.00');
    expect(sessionCostText(priced, { usd: 5 }, inLanguage('ja'), 'ja')).toBe(
      'セッション: 12.3k トークン · $1.20 / $5.00',
    );
    expect(sessionCostText(priced, { usd: 5 }, inLanguage('ko'), 'ko')).toBe('세션: 12.3k 토큰 · US$1.20 / US$5.00');
  });

  it('says the tokens against a token cap; a model without a price is held by tokens only', () => {
    expect(sessionCostText(unpriced, { tokens: 50_000 }, inLanguage('en'), 'en')).toBe(
      'Session: 12.3k of 50k tokens · cost unknown',
    );
    expect(sessionCostText(unpriced, { usd: 5 }, inLanguage('en'), 'en')).toBe('Session: 12.3k tokens · cost unknown');
    expect(sessionCostText(priced, { usd: 5, tokens: 50_000 }, inLanguage('en'), 'en')).toBe(
      'Session: 12.3k of 50k tokens · $1.20 of $5.00',
    );
    expect(sessionCostText(unpriced, { tokens: 50_000 }, inLanguage('ko'), 'ko')).toBe(
      '세션: 12.3k / 50k 토큰 · 비용 알 수 없음',
    );
  });

  it('says no cap when none is set', () => {
    expect(sessionCostText(priced, undefined, inLanguage('en'), 'en')).toBe('Session: 12.3k tokens · $1.20');
    expect(sessionCostText(priced, {}, inLanguage('en'), 'en')).toBe('Session: 12.3k tokens · $1.20');
  });
});
