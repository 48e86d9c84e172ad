// The application menu template per platform and build, its two actions, its labels in ja, and
// the About panel's options. Plain data: no Electron needed (Menu.buildFromTemplate runs in the
// app; the Electron e2e project on CI launches it).
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { aboutPanelOptions, menuTemplate } from '../../../src/main/electron/app-menu';
import { desktopTranslator } from '../../../src/main/electron/desktop-i18n';

const en = desktopTranslator('en', []);

function build(platform: NodeJS.Platform, isDev: boolean, t = en) {
  const actions = { openDataFolder: vi.fn(), openLogsFolder: vi.fn(), runCommand: vi.fn() };
  return { template: menuTemplate({ platform, isDev, t, actions }), actions };
}

/** The menu as text: top-level role or label, then each item's role, label or '---'. */
function outline(template: MenuItemConstructorOptions[]): string[] {
  return template.map((menu) => {
    const items = Array.isArray(menu.submenu) ? menu.submenu : [];
    const names = items.map((item) => (item.type === 'separator' ? '---' : (item.role ?? item.label)));
    return [menu.label ?? menu.role, ...names].join(' | ');
  });
}

describe('menuTemplate', () => {
  it('macOS: the app menu (About, Quit), File, Edit, View, Window, Help', () => {
    expect(outline(build('darwin', false).template)).toEqual([
      'appMenu',
      'File | New chat | Open Settings | Attach files… | Export this chat as Markdown | Export this chat as JSON | --- | close',
      'editMenu',
      'View | Go to Chat | Go to History | Search the history | Open the command palette | Next chat | Previous chat | Show or hide the sidebar | Keyboard shortcuts | --- | resetZoom | zoomIn | zoomOut | --- | togglefullscreen',
      'windowMenu',
      'Help | Open Data Folder | Open Logs Folder',
    ]);
  });

  it('Windows and Linux: File, Edit, View, Help with About at its foot', () => {
    for (const platform of ['win32', 'linux'] as const) {
      expect(outline(build(platform, false).template)).toEqual([
        'File | New chat | Open Settings | Attach files… | Export this chat as Markdown | Export this chat as JSON | --- | quit',
        'editMenu',
        'View | Go to Chat | Go to History | Search the history | Open the command palette | Next chat | Previous chat | Show or hide the sidebar | Keyboard shortcuts | --- | resetZoom | zoomIn | zoomOut | --- | togglefullscreen',
        'Help | Open Data Folder | Open Logs Folder | --- | about',
      ]);
    }
  });

  it('adds reload and the developer tools in development only', () => {
    const view = (isDev: boolean) => outline(build('linux', isDev).template)[2];
    expect(view(true)).toBe(
      'View | Go to Chat | Go to History | Search the history | Open the command palette | Next chat | Previous chat | Show or hide the sidebar | Keyboard shortcuts | --- | reload | forceReload | toggleDevTools | --- | resetZoom | zoomIn | zoomOut | --- | togglefullscreen',
    );
    expect(view(false)).not.toMatch(/reload|DevTools/);
  });

  it('Help opens the data folder and the logs folder', () => {
    const { template, actions } = build('linux', false);
    const help = template.find((menu) => menu.role === 'help');
    const items = help?.submenu as MenuItemConstructorOptions[];
    const click = (label: string) => (items.find((item) => item.label === label)?.click as () => void | undefined)?.();
    click('Open Data Folder');
    expect(actions.openDataFolder).toHaveBeenCalledOnce();
    expect(actions.openLogsFolder).not.toHaveBeenCalled();
    click('Open Logs Folder');
    expect(actions.openLogsFolder).toHaveBeenCalledOnce();
  });

  it("lists the app commands declared for File and View, with their shortcuts, and a click sends the command's id", () => {
    const { template, actions } = build('linux', false);
    const items = template.flatMap((menu) => (Array.isArray(menu.submenu) ? menu.submenu : []));
    const item = (label: string) => items.find((entry) => entry.label === label);
    // Shown, not registered: the window's key handler runs the shortcut (no double run).
    expect(item('New chat')).toMatchObject({ accelerator: 'CmdOrCtrl+N', registerAccelerator: false });
    expect(item('Open the command palette')).toMatchObject({ accelerator: 'CmdOrCtrl+Shift+P' });
    // Two keys: the menu shows the first; Ctrl+Tab is Ctrl on macOS too.
    expect(item('New chat')).toMatchObject({ accelerator: 'CmdOrCtrl+N' });
    expect(item('Next chat')).toMatchObject({ accelerator: 'Ctrl+Tab' });
    expect(item('Go to History')?.accelerator).toBeUndefined();
    (item('Search the history')?.click as () => void)();
    (item('Export this chat as JSON')?.click as () => void)();
    expect(actions.runCommand.mock.calls).toEqual([['searchHistory'], ['exportJson']]);
  });

  it('speaks the language setting', () => {
    const ja = build('linux', false, desktopTranslator('ja', [])).template;
    expect(outline(ja)[0]).toMatch(/^ファイル \| 新しいチャット \|/);
    expect(outline(ja)[2]).toMatch(/^表示 \| チャットへ移動 \|/);
    expect(outline(ja)[3]).toBe('ヘルプ | データフォルダーを開く | ログフォルダーを開く | --- | about');
  });
});

describe('aboutPanelOptions', () => {
  it('names the app, its version and its icon', () => {
    expect(aboutPanelOptions({ version: '0.1.0', iconPath: '/app/icon.png' })).toEqual({
      applicationName: 'Resolute',
      applicationVersion: '0.1.0',
      copyright: 'Copyright © the Resolute authors',
      iconPath: '/app/icon.png',
    });
  });
});
