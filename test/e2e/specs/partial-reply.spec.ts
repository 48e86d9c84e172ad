// Nothing streamed is lost (docs/retry-policy.md), through the real UI against the simulator: a
// reply whose stream fails after some words shows them on its failed card, marked where they were
// cut off, also after a restart; Continue lets the model go on from them, and the chat then shows
// one reply (the cut-off card becomes a quiet note); a recovered chain keeps the failed attempt's
// words in its timeline.
import { test, expect } from '../fixtures/app';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';

const FULL_REPLY_START = 'Simulated reply: I received "tell me a story".';

test.describe('with auto-retry off', () => {
  test.use({ appOptions: { set: ['retry.enabled=false'], script: 'stream_error' } });

  test('the failed card shows what arrived, after a restart too, and Continue joins it to the rest', async ({
    app,
  }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('tell me a story');
    const card = chat.erroredCard();
    await expect(card.partialReply).toContainText('Simulated reply: I');
    await expect(card.partialCut).toHaveText('Cut off here');

    const page = await app.restart();
    const again = new ChatPage(page);
    const shell = new AppShell(page);
    await shell.sessions.first().click();
    const restored = again.erroredCard();
    await expect(restored.partialReply).toContainText('Simulated reply: I');

    await app.setScript('ok');
    await restored.continueButton.click();
    await expect(again.lastAssistant()).toContainText(FULL_REPLY_START);
    await expect(again.lastAssistant()).toContainText('the same prompt always gets the same answer.');
    await expect(again.erroredCards).toHaveCount(0);
    await expect(again.continuedNote).toContainText('Cut off by an error, then continued');
    // One reply: the words are not shown twice.
    await expect(again.assistantMessages).toHaveCount(1);
    const [request] = (await app.requests()).slice(-1);
    expect(request.step).toBe('ok');
  });
});

test.describe('with auto-retry on', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: 'stream_error,ok' } });

  test('a recovered chain keeps the failed attempt’s words in its timeline', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('tell me a story');
    await expect(chat.lastAssistant()).toContainText(FULL_REPLY_START);
    await chat.openRecoveredNote();
    await expect(chat.recoveredPartial).toHaveText('Simulated reply: I');
  });
});
