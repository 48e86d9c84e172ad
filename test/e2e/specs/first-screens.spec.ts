// The first screens a new user meets (issue 30, "The first screens"), in Chromium against the
// simulator: Settings opens on the provider and keys, then the agent and its tools, then retries,
// with the decision table's selects wide enough to read and "—" where a row stops at once; History
// opens on the sessions, its "What failures cost" panel collapsed, and hidden while there is nothing
// to show; a narrow window (760 px) folds the sidebar away and keeps titles and Settings readable;
// the errored list's "in ‹session›" links meet contrast, light and dark; the cards say what happened
// in the app's words, a cancelled retry is quiet, an approval names no setting key, and a sandbox
// refusal offers Continue and Resend only.
import { test, expect } from '../fixtures/app';
import { axeViolations } from '../fixtures/axe';
import { AppShell } from '../pages/app-shell';
import { ChatPage } from '../pages/chat-page';
import { HistoryPage } from '../pages/history-page';
import { RetryBanner } from '../pages/retry-banner';
import { SettingsPage } from '../pages/settings-page';
import { ToolsPage } from '../pages/tools-page';

test('Settings opens on the provider and keys, then the agent and tools, then retries', async ({ app }) => {
  const { page } = app;
  const settings = new SettingsPage(page);
  await settings.open();
  const index = settings.indexLinks;
  await expect(index).toHaveText([
    'Provider and model',
    'API keys',
    'Agent',
    'Agent tools',
    'MCP servers',
    'Retries',
    'Decision table',
    'Fallback models',
    'Simulator',
    'Language and theme',
    'Keyboard shortcuts',
    'About',
  ]);
  await expect(settings.sections.first()).toHaveAttribute('id', 'settings-model');
  // A row that stops at once makes no attempts: "—", not "0".
  await expect(settings.decisionCell('auth', 1)).toHaveText('—');
  // Every select of the table shows its whole chosen text.
  const cut = await settings.decisionTable.evaluate((table) => {
    const g = globalThis as unknown as {
      document: {
        createElement(t: string): {
          textContent: string;
          style: Record<string, string>;
          offsetWidth: number;
          remove(): void;
        };
        body: { append(e: object): void };
      };
      getComputedStyle(e: object): { font: string };
    };
    const found: string[] = [];
    for (const select of (
      table as unknown as {
        querySelectorAll(s: string): Iterable<{ clientWidth: number; selectedOptions: { text: string }[] }>;
      }
    ).querySelectorAll('select')) {
      const probe = g.document.createElement('span');
      probe.textContent = select.selectedOptions[0]?.text ?? '';
      probe.style.font = g.getComputedStyle(select).font;
      probe.style.position = 'absolute';
      probe.style.whiteSpace = 'nowrap';
      g.document.body.append(probe);
      // The arrow and the padding take about 28 px.
      if (probe.offsetWidth + 28 > select.clientWidth) found.push(probe.textContent);
      probe.remove();
    }
    return found;
  });
  expect(cut).toEqual([]);
});

test.describe('History on a fresh install and after a failure', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=50'], script: '503*' } });

  test('opens on the sessions; the cost panel is hidden with nothing to show, then collapsed', async ({ app }) => {
    const { page } = app;
    const history = new HistoryPage(page);
    await history.open();
    await expect(history.costPanel).toHaveCount(0);
    const chat = new ChatPage(page);
    await chat.open();
    await chat.prompt('this fails');
    await chat.erroredCard().expectStatus('failed');
    await history.open();
    const panel = history.costPanel;
    await expect(panel).toBeVisible();
    await expect(panel).not.toHaveAttribute('open');
    // The sessions come first.
    const sessionsBox = await history.sessions.first().boundingBox();
    const panelBox = await panel.boundingBox();
    expect(sessionsBox!.y).toBeLessThan(panelBox!.y);
    await history.openCostPanel();
    await expect(history.costTotal).toBeVisible();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the errored list's session links meet contrast (${scheme})`, async ({ app }) => {
      const { page } = app;
      await page.emulateMedia({ colorScheme: scheme });
      const chat = new ChatPage(page);
      await chat.prompt('this fails');
      await chat.erroredCard().expectStatus('failed');
      const history = new HistoryPage(page);
      await history.open();
      await history.erroredOnly.check();
      await expect(history.erroredTurns).toHaveCount(1);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

test('a 760 px window folds the sidebar away and keeps titles and Settings readable', async ({ app }) => {
  const { page } = app;
  await page.setViewportSize({ width: 760, height: 700 });
  const shell = new AppShell(page);
  const sidebar = shell.sidebar;
  await expect(sidebar).toBeHidden();
  const toggle = shell.sidebarToggle;
  await expect(toggle).toBeVisible();
  const chat = new ChatPage(page);
  await chat.prompt('What is the weather going to be like in Tokyo tomorrow afternoon?');
  await expect(chat.title).toHaveText(/^What is the weather/);
  const title = await chat.title.boundingBox();
  expect(title!.width).toBeGreaterThan(150);
  await page.screenshot({ path: 'test-results/screens/narrow-chat.png' });
  await toggle.click();
  await expect(sidebar).toBeVisible();
  const settings = new SettingsPage(page);
  await settings.open();
  // Choosing a place folds the sidebar again: the pane gets the width.
  await expect(sidebar).toBeHidden();
  const scroll = await settings.scroller.boundingBox();
  expect(scroll!.width).toBeGreaterThan(480);
  const noHorizontalScroll = await page.evaluate(() => {
    const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } })
      .document.documentElement;
    return d.scrollWidth <= d.clientWidth;
  });
  expect(noHorizontalScroll).toBe(true);
  await page.screenshot({ path: 'test-results/screens/narrow-settings.png' });
  expect(await axeViolations(page)).toEqual([]);
});

test.describe('the cards say what happened in words of their own', () => {
  test.use({ appOptions: { set: ['retry.enabled=false'], script: 'reset' } });

  test('a dropped connection is explained, its library text behind a disclosure', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('hello');
    const card = chat.erroredCard();
    await card.expectStatus('failed');
    await expect(card.explain).toHaveText(
      'The connection to the provider broke off before the reply was complete. Check your network, then retry.',
    );
    const raw = card.message;
    await expect(raw).toBeHidden();
    await card.providerDetails.click();
    await expect(raw).toBeVisible();
  });
});

test.describe('a retry the person cancelled', () => {
  test.use({ appOptions: { set: ['retry.baseDelayMs=2000'], script: '503*' } });

  test('is a quiet card, not a red Error', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('cancel me');
    await new RetryBanner(app.page).cancel.click();
    const card = chat.erroredCard();
    await card.expectOutcome('cancelled');
    await expect(card.title).toHaveText('Retry cancelled');
    await expect(card.root).toHaveClass(/errored-card-cancelled/);
    await expect(card.category).not.toHaveClass(/badge-error/);
  });
});

test.describe('an approval card', () => {
  test.use({ appOptions: { script: 'tool:bash:{"command":"ls"},ok' } });

  test('names no setting key', async ({ app }) => {
    await new ChatPage(app.page).prompt('list');
    const tools = new ToolsPage(app.page);
    const card = tools.approval;
    await expect(card).toBeVisible();
    await expect(card).not.toContainText('tools.approval');
  });
});

test.describe('after a sandbox refusal', () => {
  test.use({ appOptions: { script: 'tool:read:{"path":"../../etc/passwd"},ok' } });

  test('the ways on are Continue and Resend, not four', async ({ app }) => {
    const chat = new ChatPage(app.page);
    await chat.prompt('Read the password file');
    const card = chat.erroredCard();
    await expect(card.root).toHaveAttribute('data-category', 'sandbox_security');
    const tools = new ToolsPage(app.page);
    await expect(tools.continueButton).toBeVisible();
    await expect(card.resend).toBeVisible();
    await expect(card.retry).toHaveCount(0);
    await expect(card.continueButton).toHaveCount(0);
  });
});
