// The command router: one method → its one handler. Every transport (Electron IPC, the browser
// WebSocket, tests) hands it raw frames; it validates them against the shared contract and always
// answers with a serialisable reply — a bad frame is an error reply naming what was wrong, never a
// throw. The handlers are the domains' (src/main/node/domains/), one per command of the table in
// src/shared/contract.ts; the composition root (app-services.ts) gathers them.
import type { CommandHandlers, CommandName, CommandParams, CommandResult } from '../../shared/contract';
import { parseRequest, toWireError, type ResponseFrame } from '../../shared/wire';

export class CommandRouter {
  /** `onCommand` hears of each request as it comes (launch.ts waits for the window's first ones to pass). */
  constructor(
    private readonly handlers: CommandHandlers,
    private readonly onCommand: () => void = () => undefined,
  ) {}

  /** Validate and run one raw request frame (object or JSON text). Never throws. */
  async dispatch(raw: unknown): Promise<ResponseFrame> {
    this.onCommand();
    const parsed = parseRequest(raw);
    if (!parsed.ok) return { kind: 'response', id: parsed.id, ok: false, error: parsed.error };
    try {
      const result = await this.call(parsed.method, parsed.params as never);
      return { kind: 'response', id: parsed.id, ok: true, result };
    } catch (error) {
      return { kind: 'response', id: parsed.id, ok: false, error: toWireError(error) };
    }
  }

  /** Run a command whose params were already validated. */
  call<N extends CommandName>(method: N, params: CommandParams<N>): Promise<CommandResult<N>> {
    const handler = this.handlers[method] as (p: CommandParams<N>) => CommandResult<N> | Promise<CommandResult<N>>;
    return Promise.resolve().then(() => handler(params));
  }
}
