// The settings domain: reading and changing the settings (validated by the store; every client
// hears settings_changed from the composition root) and the simulator's fault script, which a
// change of its text re-arms — and entering the same text again too. Built by app-services.ts.
import type { CommandHandlers } from '../../../shared/contract';
import { errorNotice } from '../../../shared/notices';
import { type NoticeText } from '../../../shared/notice-params';
import type { Settings } from '../../../shared/settings';
import { loadPiRuntime } from '../../core/llm/pi-runtime';
import { settingsNeedCatalogue, withDefaultModel, withRememberedModel } from '../app-options';
import type { FileSettingsStore } from '../settings-file';
import type { SimulatorServer } from '../simulator/simulator-server';
import { asInvalid } from './command-helpers';
import { unmaskMcpPatch, withMaskedMcpSecrets } from '../../../shared/mcp-secrets';
import { CommandError } from '../../../shared/wire';

export interface SettingsDomainParts {
  settings: FileSettingsStore;
  simulator: SimulatorServer | null;
  report: (notice: NoticeText) => void;
}

export class SettingsDomain {
  /** The script the simulator runs, so that only a change of it re-arms the simulator. */
  private appliedScript: string;
  /** Changes still loading pi-ai before they apply; a connection test waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly parts: SettingsDomainParts) {
    this.appliedScript = parts.settings.get().simulator.script;
  }

  readonly commands = {
    // A client sees MCP secrets masked; a masked one it sends back stands for the stored value.
    'settings.get': () => withMaskedMcpSecrets(this.parts.settings.get()),
    'settings.update': ({ patch }) =>
      asInvalid(() => this.tracked(this.update(this.unmasked(patch)))).then(withMaskedMcpSecrets),
    'simulator.setScript': ({ script }) => asInvalid(() => withMaskedMcpSecrets(this.setSimulatorScript(script))),
  } satisfies Pick<CommandHandlers, 'settings.get' | 'settings.update' | 'simulator.setScript'>;

  /**
   * A change of settings (the settings pane, through the router). One that names a real provider's
   * model loads pi-ai first: the fallback list is checked against its catalogue. A new provider
   * without a model returns to the one last chosen there, else starts on its default one.
   */
  /**
   * Settles once every change asked for so far has applied (or failed). Test connection, clicked
   * right after a provider switch, would otherwise test the provider being left: the switch waits
   * for pi-ai's catalogue while the test's command is already being handled.
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private tracked<T>(change: Promise<T>): Promise<T> {
    this.inFlight.add(change);
    const done = (): void => void this.inFlight.delete(change);
    change.then(done, done);
    return change;
  }

  private unmasked(patch: unknown): unknown {
    const result = unmaskMcpPatch(patch, this.parts.settings.get().mcp.servers);
    if (!result.ok) throw new CommandError('invalid_params', result.error);
    return result.patch;
  }

  async update(patch: unknown): Promise<Settings> {
    const { settings } = this.parts;
    if (settingsNeedCatalogue(null, patch)) await loadPiRuntime();
    const current = settings.get().provider;
    return settings.update(withDefaultModel(withRememberedModel(patch, current), current.id));
  }

  /**
   * Set the simulator's fault script; entering the same script again re-arms it from its first
   * step (a settings change alone re-arms only when the text differs).
   */
  setSimulatorScript(script: string): Settings {
    const { settings, simulator } = this.parts;
    const unchanged = script === settings.get().simulator.script;
    const next = settings.update({ simulator: { script } });
    if (unchanged) simulator?.setScript(script);
    return next;
  }

  /** Every change of the settings: only a change of the script itself re-arms the simulator. */
  settingsChanged(settings: Settings): void {
    const { simulator } = this.parts;
    if (!simulator || settings.simulator.script === this.appliedScript) return;
    this.appliedScript = settings.simulator.script;
    try {
      simulator.setScript(settings.simulator.script);
    } catch (error) {
      this.parts.report(errorNotice('simulator_script_not_applied', 'Simulator script not applied', error));
    }
  }
}
