// The spending cap (docs/tools.md, "The spending cap"): a request that would pass the chat's cap is
// not sent; the run asks, Stop ends the turn with nothing sent, Raise sends it. The simulator has no
// price, so a token cap stands in for a dollar one there; the meter beside the context meter counts
// against it ("of 2k tokens"), and against a dollar cap ("$… of $5") on Anthropic's price through a
// simulator of the spec's own. Screenshots of the question and of the meter in en/ja/ko, light and
// dark, go to test-results/screens.
import { test, expect } from '../fixtures/app';
import { inEachLanguage } from '../fixtures/in-each-language';
import { SCREENS } from '../fixtures/screens';
import { ChatPage } from '../pages/chat-page';
import { SettingsPage } from '../pages/settings-page';
import { anthropicThroughSimulator } from '../fixtures/anthropic-simulator';
import { SimulatorServer } from '../../../src/main/node/simulator/simulator-server';

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
    async (name) => {
      // The card under the transcript leaves the message's Copy button in view (ko's header wraps).
      const copy = (await app.page.locator('.bubble-actions button').last().boundingBox())!;
      const card = (await chat.spendingCap.boundingBox())!;
      expect(copy.y + copy.height).toBeLessThanOrEqual(card.y);
      await app.page.screenshot({ path: `${SCREENS}/spending-cap-${name}.png` });
    },
  );
  await chat.spendingCapStop.click();
  await expect(chat.spendingCap).toBeHidden();
  await expect(chat.stop).toBeHidden();
  expect(await app.requests()).toEqual([]);
});

test('Raise sends the request and the turn goes on; the meter counts against the raised cap', async ({ app }) => {
  const chat = new ChatPage(app.page);
  await expect(chat.sessionCost).toHaveText('Session: 0 of 1k tokens · cost unknown');
  await chat.prompt(LONG);
  await expect(chat.spendingCapRaise).toBeVisible();
  await chat.spendingCapRaise.click();
  await chat.waitForTurnEnd();
  await expect(chat.spendingCap).toBeHidden();
  expect(await app.requests()).toHaveLength(1);
  // The simulator has no price: its chat is held, and shown, by tokens.
  await expect(chat.sessionCost).toHaveText(/^Session: [\d.]+k of \d+k tokens · cost unknown$/);
});

test.describe('the day cap for all chats', () => {
  test.use({ appOptions: {} });

  test('set in Settings → Agent beside the per-chat caps, its question says it is the day’s', async ({ app }) => {
    const settings = new SettingsPage(app.page);
    await settings.open();
    await expect(app.page.getByTestId('settings-budget-usd')).toBeVisible();
    const day = app.page.getByTestId('settings-budget-day-tokens');
    await day.fill('1000');
    await day.press('Enter');
    await expect(settings.saved).toContainText('Saved');
    await app.page.getByTestId('nav-chat').click();
    const chat = new ChatPage(app.page);
    await chat.prompt(LONG);
    await expect(chat.spendingCap).toHaveAttribute('data-scope', 'day');
    await expect(chat.spendingCap).toContainText('Daily spending cap reached');
    await expect(chat.spendingCap).toContainText('All chats have used 0 tokens today');
    expect(await app.requests()).toEqual([]);
    await chat.spendingCapRaise.click();
    await chat.waitForTurnEnd();
    expect(await app.requests()).toHaveLength(1);
  });
});

test.describe('a dollar cap on a priced model', () => {
  // Anthropic's list price, through a simulator of our own: its replies cost something.
  const sim = new SimulatorServer({ chunkDelayMs: 1 });
  anthropicThroughSimulator(sim, ['agent.budget={"usd":5}']);

  test('the meter says "$… of $5"; screenshots in en/ja/ko, light and dark', async ({ app }) => {
    test.slow();
    const chat = new ChatPage(app.page);
    await chat.prompt('hello');
    await chat.waitForTurnEnd();
    expect(sim.requests).toHaveLength(1);
    await expect(chat.sessionCost).toHaveText(/^Session: [\d.]+k? tokens · \$0\.\d+ of \$5\.00$/);
    const header = app.page.locator('.pane-header');
    await inEachLanguage(app.page, { en: 'of $5.00', ja: '/ $5.00', ko: '/ US$5.00' }, (name) =>
      header.screenshot({ path: `${SCREENS}/spending-cap-meter-${name}.png` }),
    );
  });
});
