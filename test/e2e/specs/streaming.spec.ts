// A reply streamed the way real providers stream it — one token per event, 2,000 tokens at 2,000
// tokens/s (the simulator's `tokens` step) — through the browser mode's socket: the whole text ends
// on screen, and the window got the stream coalesced to about one frame per display frame
// (src/main/router/event-hub.ts windowStream), not one frame per token. No timing assertion.
import type { WebSocket } from '@playwright/test';
import { test, expect } from '../fixtures/app';
import { ChatPage } from '../pages/chat-page';

const TOKENS = 2000;
// The stream takes about 1 s: at one frame per 16 ms that is ~63 updates, plus a few other events.
// 500 leaves room for a loaded machine that stretches the stream to 7 s; one frame a token is > 2,000.
const MAX_FRAMES = 500;

test('a one-token-per-event stream of 2,000 tokens ends whole on screen in far fewer frames than tokens', async ({
  app,
}) => {
  test.skip(app.host === 'electron', 'counts the browser mode’s WebSocket frames');
  const frames: string[] = [];
  app.page.on('websocket', (ws: WebSocket) => {
    ws.on('framereceived', (frame) => frames.push(String(frame.payload)));
  });
  // The socket opened before the listener: reload so that the counted one carries the stream.
  await app.page.reload();
  await app.setScript('tokens');
  const chat = new ChatPage(app.page);
  await chat.prompt('stream one token per event');
  const text = Array.from({ length: TOKENS }, (_, i) => `t${i + 1}`).join(' ');
  await expect(chat.lastAssistant()).toContainText(text, { timeout: 30_000 });
  await chat.waitForTurnEnd();
  const updates = frames.filter((f) => /"type":"message_(update|patch)"/.test(f)).length;
  expect(updates).toBeGreaterThan(0);
  expect(frames.length).toBeLessThan(MAX_FRAMES);
});
