// The command names as the sandboxed preload sees them, without bundling zod or the contract: the
// list is the command table's own (contract.ts's COMMAND_NAMES), put into the preload's build as
// __RESOLUTE_COMMAND_NAMES__ by electron.vite.config.ts. Also the one wording of an unknown
// command, shared by the preload and the main process.
import type { CommandName } from './contract';

export type { CommandName };

/** The error for a name that is not a command: the preload and the main process word it alike. */
export function unknownCommandError(method: string): { code: 'unknown_command'; message: string } {
  return { code: 'unknown_command', message: `unknown command "${method}"` };
}
