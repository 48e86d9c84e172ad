// The settings file: defaults, persistence, refusals that keep the old value, run-only `--set`
// overrides that are never written, a damaged file kept aside, and the extra script check.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSettingsStore } from '../../../src/main/node/settings-file';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resolute-settings-'));
  path = join(dir, 'settings.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileSettingsStore', () => {
  it('starts from defaults and persists a change', () => {
    const store = new FileSettingsStore(path);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    store.update({ retry: { enabled: false } });
    expect(new FileSettingsStore(path).get().retry.enabled).toBe(false);
  });

  it('refuses a bad value with a message naming the field and keeps the old value', () => {
    const store = new FileSettingsStore(path);
    store.update({ retry: { maxRetries: 5 } });
    expect(() => store.update({ retry: { maxRetries: 50 } })).toThrow(/retry\.maxRetries: must be at most 9/);
    expect(store.get().retry.maxRetries).toBe(5);
    expect(new FileSettingsStore(path).get().retry.maxRetries).toBe(5);
  });

  it('applies --set for this run only and lets an explicit change win', () => {
    const store = new FileSettingsStore(path, { retry: { baseDelayMs: 20 } });
    expect(store.get().retry.baseDelayMs).toBe(20);
    store.update({ retry: { enabled: false } });
    expect(JSON.parse(readFileSync(path, 'utf8')).retry.baseDelayMs).toBe(2000);
    expect(store.get().retry.baseDelayMs).toBe(20);
    store.update({ retry: { baseDelayMs: 300 } });
    expect(store.get().retry.baseDelayMs).toBe(300);
  });

  it('refuses an invalid --set value', () => {
    expect(() => new FileSettingsStore(path, { retry: { maxRetries: -1 } })).toThrow(
      /Invalid --set value: retry\.maxRetries/,
    );
  });

  it('keeps a damaged file aside and starts from defaults, saying so', () => {
    writeFileSync(path, '{ this is not json');
    const store = new FileSettingsStore(path);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.loadProblems).toEqual([
      expect.objectContaining({ level: 'error', code: 'settings_invalid', message: expect.stringMatching(/kept as/) }),
    ]);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir).some((f) => f.startsWith('settings.json.invalid-'))).toBe(true);
  });

  it("keeps the known keys of a newer version's file, ignores and keeps its unknown ones, and says so", () => {
    writeFileSync(
      path,
      JSON.stringify({
        retry: { enabled: false, maxRetries: 7, newKnob: 1 },
        telemetry: { on: true },
        ui: { theme: 'dark' },
      }),
    );
    const store = new FileSettingsStore(path);
    expect(store.get().retry).toMatchObject({ enabled: false, maxRetries: 7 });
    expect(store.get().ui.theme).toBe('dark');
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(store.loadProblems[0]?.message).toMatch(/retry\.newKnob.*telemetry|telemetry.*retry\.newKnob/);
    store.update({ retry: { maxRetries: 4 } });
    const written = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(written.retry).toMatchObject({ maxRetries: 4, newKnob: 1, enabled: false });
    expect(written.telemetry).toEqual({ on: true });
  });

  it('runs the extra check and notifies subscribers only of accepted changes', () => {
    const seen: boolean[] = [];
    const store = new FileSettingsStore(path, {}, (s) =>
      s.simulator.script === 'bad' ? 'simulator.script: unknown step "bad"' : null,
    );
    store.subscribe((s) => seen.push(s.retry.enabled));
    expect(() => store.update({ simulator: { script: 'bad' } })).toThrow(/simulator\.script/);
    store.update({ retry: { enabled: false } });
    expect(seen).toEqual([false]);
  });
});

describe('MCP servers in the settings file', () => {
  it('a bad server entry is kept in the file and not started; the rest of the file is used', () => {
    const servers = {
      good: { command: 'node', args: ['server.js'] },
      typo: { comand: 'node' },
      'bad name': { command: 'x' },
    };
    writeFileSync(path, JSON.stringify({ retry: { maxRetries: 7 }, mcp: { servers } }));
    const store = new FileSettingsStore(path);
    expect(store.get().retry.maxRetries).toBe(7);
    expect(store.get().mcp.servers).toEqual({ good: { command: 'node', args: ['server.js'] } });
    expect(store.loadProblems).toHaveLength(1);
    expect(store.loadProblems[0]).toMatchObject({ level: 'warning', code: 'settings_mcp_skipped' });
    expect(store.loadProblems[0]?.message).toMatch(/mcp\.servers\.typo: .*command.*; mcp\.servers\.bad name: /);
    store.update({ retry: { maxRetries: 6 } });
    expect(JSON.parse(readFileSync(path, 'utf8')).mcp.servers).toEqual(servers);
  });
});
