// Settings persisted as JSON in the data folder, plus the run-only overrides of `--set`.
// A bad value (from the pane, RPC or `--set`) is refused with a message naming the field and
// the old value is kept; a damaged settings file is kept aside and defaults are used, with a
// notice; keys a newer version added are left alone (kept in the file, not used). Used by the composition root; AgentSession sees it through the SettingsStore port.
import { existsSync, readFileSync } from 'node:fs';
import {
  DEFAULT_SETTINGS,
  applySettingsPatch,
  splitUnknownKeys,
  validateSettings,
  type Settings,
} from '../../shared/settings';
import { mergeSettings } from '../../shared/settings-values';
import { codedNotice } from '../../shared/notices';
import { type NoticeText } from '../../shared/notice-params';
import { takeBadMcpServers } from '../../shared/mcp';
import type { SettingsStore } from '../core/ports';
import type { McpSecretVault } from './mcp/mcp-secret-vault';
import { setAside, writeFileAtomic } from './safe-files';
import { errorText } from '../../shared/text';

export interface LoadProblem extends NoticeText {
  /** `error`: the file was set aside and defaults are in use; `warning`: part of it is not used. */
  level: 'warning' | 'error';
}

class SettingsValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsValidationError';
  }
}

export class FileSettingsStore implements SettingsStore {
  private base: Settings;
  private overlay: Record<string, unknown>;
  private effective: Settings;
  private readonly listeners = new Set<(settings: Settings) => void>();
  /** Why the file on disk could not be used as it is, one notice each; empty when all is well. */
  readonly loadProblems: LoadProblem[];
  /** A newer version's keys found in the file: not used, written back with every change. */
  private readonly extra: Record<string, unknown>;

  /**
   * @param path the settings.json file (created on first change)
   * @param overlay run-only overrides from `--set`, validated here; never written to disk
   * @param check checks the schema cannot express (e.g. the simulator's script grammar): an error message or null
   * @param secrets where MCP servers' env values and headers are kept instead of the file (none: in the file)
   */
  constructor(
    private readonly path: string,
    overlay: Record<string, unknown> = {},
    private readonly check: (settings: Settings) => string | null = () => null,
    private readonly secrets?: McpSecretVault,
  ) {
    const loaded = this.load();
    this.base = loaded.settings;
    this.loadProblems = loaded.problems;
    this.extra = loaded.extra;
    // A file of an older version holds MCP secrets in the clear: they move to the vault now.
    if (loaded.migrate) this.write(this.base);
    const withOverlay = applySettingsPatch(this.base, overlay);
    if (!withOverlay.ok) throw new SettingsValidationError(`Invalid --set value: ${withOverlay.error}`);
    const problem = check(withOverlay.value);
    if (problem) throw new SettingsValidationError(`Invalid --set value: ${problem}`);
    this.overlay = overlay;
    this.effective = withOverlay.value;
  }

  get(): Settings {
    return this.effective;
  }

  /** Whether `group.key` is set for this run only (`--set`) and no change has replaced it since. */
  isRunOnly(group: string, key: string): boolean {
    const section = this.overlay[group];
    return isObject(section) && section[key] !== undefined;
  }

  update(patch: unknown): Settings {
    const nextBase = applySettingsPatch(this.base, patch);
    if (!nextBase.ok) throw new SettingsValidationError(nextBase.error);
    // An explicit change wins over a run-only `--set` of the same key.
    this.overlay = withoutKeys(this.overlay, patch);
    const nextEffective = applySettingsPatch(nextBase.value, this.overlay);
    if (!nextEffective.ok) throw new SettingsValidationError(nextEffective.error);
    const problem = this.check(nextBase.value);
    if (problem) throw new SettingsValidationError(problem);
    this.write(nextBase.value);
    this.base = nextBase.value;
    this.effective = nextEffective.value;
    for (const listener of [...this.listeners]) listener(this.effective);
    return this.effective;
  }

  subscribe(listener: (settings: Settings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private load(): { settings: Settings; problems: LoadProblem[]; extra: Record<string, unknown>; migrate?: boolean } {
    if (!existsSync(this.path)) return { settings: DEFAULT_SETTINGS, problems: [], extra: {} };
    let detail: string;
    try {
      const raw = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      const opened = this.secrets?.open(raw);
      // Fill in keys this file predates; set apart the ones a newer version added, to write them back.
      const { known, unknown, names } = splitUnknownKeys(mergeSettings(DEFAULT_SETTINGS, raw));
      // A bad MCP server entry is kept in the file and not started; the rest of the file is used.
      const mcp = takeBadMcpServers(known);
      const extra = mcp.reasons.length ? mergeSettings(unknown, { mcp: { servers: mcp.bad } }) : unknown;
      const result = validateSettings(known);
      if (result.ok) {
        const checked = this.checked(result.value, names);
        if (mcp.reasons.length) checked.problems.push(mcpSkipped(mcp.reasons));
        if (opened?.missing.length) checked.problems.push(secretsMissing(opened.missing));
        return { ...checked, extra: extra as Record<string, unknown>, migrate: opened?.migrate };
      }
      detail = result.error;
    } catch (error) {
      detail = errorText(error);
    }
    const aside = setAside(this.path, 'invalid');
    const message = `The settings file was invalid (${detail}); it was kept as ${aside} and defaults are in use.`;
    return {
      settings: DEFAULT_SETTINGS,
      extra: {},
      problems: [{ level: 'error', ...codedNotice('settings_invalid', { detail, aside }, message) }],
    };
  }

  /** Settings read from the file, with what the person should hear about them. */
  private checked(settings: Settings, unknownNames: string[]): { settings: Settings; problems: LoadProblem[] } {
    const notes: NoticeText[] = [];
    if (unknownNames.length > 0) {
      const names = unknownNames.join(', ');
      const message = `The settings file has settings this version does not know (${names}); they are kept in the file and not used.`;
      notes.push(codedNotice('settings_unknown_keys', { names }, message));
    }
    const problem = this.check(settings);
    // Only the simulator script has a check of its own: clear it rather than refuse every later change.
    if (problem) notes.push(codedNotice('settings_script_cleared', { detail: problem }, `${problem}; it was cleared.`));
    const used = problem ? { ...settings, simulator: { script: '' } } : settings;
    return { settings: used, problems: notes.map((note) => ({ level: 'warning', ...note })) };
  }

  private write(settings: Settings): void {
    const stored = this.secrets ? this.secrets.seal(settings) : settings;
    writeFileAtomic(this.path, `${JSON.stringify(mergeSettings(this.extra, stored), null, 2)}\n`);
  }
}

function mcpSkipped(reasons: string[]): LoadProblem {
  const detail = reasons.join('; ');
  const message = `MCP servers in the settings file that are not valid were not started (${detail}); they are kept in the file.`;
  return { level: 'warning', ...codedNotice('settings_mcp_skipped', { detail }, message) };
}

function secretsMissing(names: string[]): LoadProblem {
  const detail = names.join(', ');
  const message = `MCP secrets could not be read from the credential store (${detail}); enter them again in Settings → MCP.`;
  return { level: 'warning', ...codedNotice('settings_mcp_secrets_missing', { detail }, message) };
}

function withoutKeys(overlay: Record<string, unknown>, patch: unknown): Record<string, unknown> {
  if (typeof patch !== 'object' || patch === null) return overlay;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overlay)) {
    const patched = (patch as Record<string, unknown>)[key];
    if (patched === undefined) out[key] = value;
    else if (isObject(value) && isObject(patched)) {
      const rest = withoutKeys(value, patched);
      if (Object.keys(rest).length) out[key] = rest;
    }
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
