// Approvals in RPC mode (docs/rpc-protocol.md, "Approvals"): a tool call waiting for the person
// becomes pi's `extension_ui_request` with method `confirm`, and the client's
// `extension_ui_response` (confirmed, or cancelled) answers it — Allow once or Deny; "allow for
// this session" has no pi equivalent. Used by rpc-mode.ts.
import { z } from 'zod';
import type { ApprovalChoice, ApprovalRequest } from '../../../shared/tools';
import { describeZodError } from '../../../shared/settings';
import type { RpcExtensionUIRequest } from './rpc-types';

/** How much of a command or diff the confirm message carries. */
const MESSAGE_CHARS = 4000;

export function confirmRequest(request: ApprovalRequest): RpcExtensionUIRequest {
  const { preview } = request;
  const message =
    preview.kind === 'command'
      ? preview.command
      : `${preview.isNewFile ? 'New file' : 'Change to'} ${preview.path}\n\n${preview.diff}`;
  return {
    type: 'extension_ui_request',
    id: request.id,
    method: 'confirm',
    title: `Allow ${request.toolName}?`,
    message: message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS)}…` : message,
  };
}

const responseSchema = z.object({
  type: z.literal('extension_ui_response'),
  id: z.string().min(1).max(200),
  confirmed: z.boolean().optional(),
  cancelled: z.boolean().optional(),
  value: z.unknown().optional(),
});

/** The approval an extension_ui_response gives, or the reason it cannot be read. */
export function readUiResponse(
  record: Record<string, unknown>,
): { ok: true; id: string; choice: ApprovalChoice } | { ok: false; error: string } {
  const parsed = responseSchema.safeParse(record);
  if (!parsed.success) return { ok: false, error: `Invalid extension_ui_response: ${describeZodError(parsed.error)}` };
  const { id, confirmed, cancelled } = parsed.data;
  return { ok: true, id, choice: confirmed === true && cancelled !== true ? 'once' : 'deny' };
}
