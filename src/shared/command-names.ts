// What the sandboxed preload checks a method name against, without bundling zod or the contract:
// the list is the command table's own (contract.ts's COMMAND_NAMES), put in at build time as
// __RESOLUTE_COMMAND_NAMES__ by electron.vite.config.ts (the preload's test stubs it alike). Also
// the one wording of an unknown command, shared by the preload and the main process.
import type { CommandName } from './contract';

export type { CommandName };

declare const __RESOLUTE_COMMAND_NAMES__: readonly string[];

let listed: ReadonlySet<string> | undefined;

/** A name of the command table, as the build put it into this bundle (only the preload's build has it). */
export function isListedCommand(value: unknown): value is CommandName {
  listed ??= new Set(__RESOLUTE_COMMAND_NAMES__);
  return typeof value === 'string' && listed.has(value);
}

/** The error for a name that is not a command: the preload and the main process word it alike. */
export function unknownCommandError(method: string): { code: 'unknown_command'; message: string } {
  return { code: 'unknown_command', message: `unknown command "${method}"` };
}
