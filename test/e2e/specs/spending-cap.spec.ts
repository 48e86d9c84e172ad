// The spending cap (docs/tools.md, "The spending cap"): a request that would pass the chat's cap is
// not sent; the run asks, Stop ends the turn with nothing sent, Raise sends it. The simulator has no
// price, so a token cap stands in for a dollar one. Screenshots of the question in en/ja/ko, light
// and dark, go to test-results/screens.
import { test, expect } from '../fixtures/app';
import { inEachLanguage } from '../fixtures/in-each-language';
import { SCREENS } from '../fixtures/screens';
import { ChatPage } from '../pages/chat-page';

// About 1,250 tokens at four characters a token: past a cap of 1,000 on its own.
const LONG = `Summarise this: ${'word '.repeat(1000)}`;

test.use({ appOptions: { set: ['agent.budget={"tokens":1000}'] } });

test('a request past the cap is not sent: the run asks, and Stop ends the turn', async ({ app }) => {
  test.slow();
  const chat = new ChatPage(app.page);
  await chat.prompt(LONG);
  await expect(chat.spendingCap).toBeVisible();
  await expect(chat.spendingCap).toContainText('cap of 1k tokens');
  // Only the cap's own terms: no "$0" for a model without a price.
  await expect(chat.spendingCap).not.toContainText('$');
  expect(await app.requests()).toEqual([]);
  await inEachLanguage(
    app.page,
    { en: 'Spending cap reached', ja: '支出上限に達しました', ko: '지출 한도에 도달했습니다' },
    (name) => app.page.screenshot({ path: `${SCREENS}/spending-cap-${name}.png` }),
  );
  await chat.spendingCapStop.click();
  await expect(chat.spendingCap).toBeHidden();
  await expect(chat.stop).toBeHidden();
  expect(await app.requests()).toEqual([]);
});

test('Raise sends the request and the turn goes on', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await chat.prompt(LONG);
  await expect(chat.spendingCapRaise).toBeVisible();
  await chat.spendingCapRaise.click();
  await chat.waitForTurnEnd();
  await expect(chat.spendingCap).toBeHidden();
  expect(await app.requests()).toHaveLength(1);
});
