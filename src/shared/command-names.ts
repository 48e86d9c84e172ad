// The one wording of an unknown command, shared by the sandboxed preload and the main process
// without bundling zod or the contract into the preload. The preload's list of command names is
// the command table's own (contract.ts's COMMAND_NAMES), put into its build as
// __RESOLUTE_COMMAND_NAMES__ by electron.vite.config.ts; their type, CommandName, is the contract's.
// This file imports nothing: wire.ts and the preload import it, not the other way.

/** The error for a name that is not a command: the preload and the main process word it alike. */
export function unknownCommandError(method: string): { code: 'unknown_command'; message: string } {
  return { code: 'unknown_command', message: `unknown command "${method}"` };
}
