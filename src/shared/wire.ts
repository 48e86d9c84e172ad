// Framing shared by every transport (Electron IPC, WebSocket, tests): a request names a command
// and carries an id; the reply is ok/result or an error with a code and a message naming what
// was wrong. Parsing never throws: a malformed frame becomes an error reply.
import { z } from 'zod';
import { unknownCommandError } from './command-names';
import { commands, isCommandName, type CommandName } from './contract';
import { describeZodError } from './settings';
import type { SessionEvent } from './events';
import type { WireOnlyEvent } from './message-patch';
import { errorText } from './text';

export type ErrorCode = 'bad_request' | 'unknown_command' | 'invalid_params' | 'failed' | 'not_found' | 'unauthorized';

export interface WireError {
  code: ErrorCode;
  message: string;
}

export interface RequestFrame {
  kind: 'request';
  id: number | string;
  method: CommandName;
  params: unknown;
}

export type ResponseFrame =
  | { kind: 'response'; id: number | string | null; ok: true; result: unknown }
  | { kind: 'response'; id: number | string | null; ok: false; error: WireError };

export interface EventFrame {
  kind: 'event';
  /** A streaming message may come as patches and its stored turn as a reference (message-patch.ts): the socket's decoder turns them back. */
  event: SessionEvent | WireOnlyEvent;
}

export type ServerFrame = ResponseFrame | EventFrame;

export { SOCKET_PROTOCOL, SOCKET_TOKEN_PREFIX, SOCKET_UNAUTHORIZED } from './socket';

const requestShape = z.object({
  kind: z.literal('request'),
  id: z.union([z.number().int(), z.string().max(100)]),
  method: z.string().max(100),
  params: z.unknown().optional(),
});

export type ParsedRequest =
  | { ok: true; id: number | string; method: CommandName; params: unknown }
  | { ok: false; id: number | string | null; error: WireError };

/** Validate the frame and its params against the contract; returns an error naming the problem. */
export function parseRequest(raw: unknown): ParsedRequest {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { ok: false, id: null, error: { code: 'bad_request', message: 'message is not valid JSON' } };
    }
  }
  const frame = requestShape.safeParse(value);
  if (!frame.success) {
    const maybeId = (value as { id?: unknown } | null)?.id;
    const id = typeof maybeId === 'number' || typeof maybeId === 'string' ? maybeId : null;
    return {
      ok: false,
      id,
      error: { code: 'bad_request', message: `malformed request: ${describeZodError(frame.error)}` },
    };
  }
  const { id, method } = frame.data;
  if (!isCommandName(method)) {
    return { ok: false, id, error: unknownCommandError(method) };
  }
  const params = commands[method].params.safeParse(frame.data.params ?? {});
  if (!params.success) {
    return {
      ok: false,
      id,
      error: { code: 'invalid_params', message: `${method}: ${describeZodError(params.error)}` },
    };
  }
  return { ok: true, id, method, params: params.data };
}

/** An error raised by a command handler with a code the client can act on. */
export class CommandError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

export function toWireError(error: unknown): WireError {
  if (error instanceof CommandError) return { code: error.code, message: error.message };
  return { code: 'failed', message: errorText(error) };
}
