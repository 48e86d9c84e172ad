// The Electron host's own strings: ja and ko have every key of en with the same placeholders, and
// 'system' follows the OS's preferred languages like the renderer follows the browser's.
import { describe, expect, it } from 'vitest';
import { desktopEn, desktopJa, desktopKo, desktopTranslator } from '../../../src/main/electron/desktop-i18n';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : flatten(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('desktop strings', () => {
  it.each([
    ['ja', desktopJa],
    ['ko', desktopKo],
  ])('%s has the keys and placeholders of en, none empty', (_, resource) => {
    const theirs = new Map(flatten(resource));
    for (const [key, text] of flatten(desktopEn)) {
      expect(theirs.get(key)?.trim(), key).toBeTruthy();
      expect(placeholders(theirs.get(key) ?? ''), key).toEqual(placeholders(text));
    }
    expect(theirs.size).toBe(flatten(desktopEn).length);
  });

  it('takes only the keys desktopEn holds: a misspelt one fails the type check', () => {
    const t = desktopTranslator('en', []);
    // @ts-expect-error — misspelt on purpose: 'hlep' is no key of desktopEn.
    expect(t('menu.hlep')).toBe('menu.hlep');
    // @ts-expect-error — a plural key is asked for by its name, not with its _one/_other suffix.
    expect(t('notification.retryFailedBody_one', { count: 1, error: 'x' })).toBe('Gave up after 1 retry: x');
  });

  it("'system' takes the first OS language we ship, else English", () => {
    expect(desktopTranslator('system', ['fr-FR', 'ko-KR', 'ja-JP'])('menu.help')).toBe('도움말');
    expect(desktopTranslator('system', ['de-DE'])('menu.help')).toBe('Help');
    expect(desktopTranslator('system', [])('menu.help')).toBe('Help');
    expect(desktopTranslator('ja', ['ko-KR'])('menu.help')).toBe('ヘルプ');
  });

  it('interpolates without HTML escaping (menus and notifications are plain text)', () => {
    const t = desktopTranslator('en', []);
    expect(t('notification.retryFailedBody', { count: 2, error: '<500> & "bad"' })).toBe(
      'Gave up after 2 retries: <500> & "bad"',
    );
  });
});
