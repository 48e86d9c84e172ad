// Approvals in RPC mode (docs/rpc-protocol.md, "Approvals"): a tool call waiting for the person
// becomes pi's `extension_ui_request` with method `confirm`, and the client's
// `extension_ui_response` (confirmed, or cancelled) answers it — Allow once or Deny; "allow for
// this session" has no pi equivalent. The spending cap's question is a confirm the same way:
// confirmed raises the cap, cancelled stops the turn. Used by rpc-mode.ts.
import { z } from 'zod';
import type { ApprovalChoice, ApprovalPreview, ApprovalRequest } from '../../../shared/tools';
import type { ChatBudget, SpendingCapRequest } from '../../../shared/spending-cap';
import { formatUsd } from '../../../shared/failure-cost';
import { formatSize } from '../../node/tools/output-caps';
import { describeZodError } from '../../../shared/settings';
import type { RpcExtensionUIRequest } from './rpc-types';

/** How much of a command or diff the confirm message carries; past it the message says what it leaves out. */
export const MESSAGE_CHARS = 4000;

export function confirmRequest(request: ApprovalRequest): RpcExtensionUIRequest {
  const full = fullMessage(request.preview);
  const base = {
    type: 'extension_ui_request' as const,
    id: request.id,
    method: 'confirm' as const,
    title: `Allow ${request.toolName}?`,
  };
  if (full.length <= MESSAGE_CHARS) return { ...base, message: full };
  return { ...base, message: cutMessage(full), fullMessage: full };
}

/** The spending cap's question as a confirm: confirmed = Raise, cancelled = Stop (docs/rpc-protocol.md, "The spending cap"). */
export function spendingCapRequest(request: SpendingCapRequest): RpcExtensionUIRequest {
  const spent = budgetWords({ usd: request.spent.costUsd, tokens: request.spent.tokens }, request.cap);
  const estimate =
    request.estimate.costUsd === null
      ? `${request.estimate.tokens} tokens`
      : `${request.estimate.tokens} tokens, about ${formatUsd(request.estimate.costUsd)}`;
  const cap = budgetWords(request.cap);
  const [title, used] =
    request.scope === 'day'
      ? [
          'Daily spending cap reached',
          `All chats have used ${spent} today. The next request (${estimate} of input) would pass the day's cap of ${cap}.`,
        ]
      : [
          'Spending cap reached',
          `This chat has used ${spent}. The next request (${estimate} of input) would pass its cap of ${cap}.`,
        ];
  return {
    type: 'extension_ui_request',
    id: request.id,
    method: 'confirm',
    title,
    message: `${used} Confirm to raise the cap to ${budgetWords(request.raiseTo)} and go on; cancel to stop the turn.`,
  };
}

/** "$5 and 200000 tokens"; with `only`, the fields that one has. */
function budgetWords(budget: ChatBudget, only: ChatBudget = budget): string {
  const parts: string[] = [];
  if (only.usd !== undefined && budget.usd !== undefined) parts.push(formatUsd(budget.usd));
  if (only.tokens !== undefined && budget.tokens !== undefined) parts.push(`${budget.tokens} tokens`);
  return parts.join(' and ');
}

function fullMessage(preview: ApprovalPreview): string {
  if (preview.kind === 'command') return preview.command;
  if (preview.kind === 'arguments') return `Arguments:\n${preview.arguments}`;
  const real = preview.realPath ? ` (a link: the file really changed is ${preview.realPath})` : '';
  const heading = `${preview.isNewFile ? 'New file' : 'Change to'} ${preview.path}${real}`;
  const whole = preview.whole
    ? `\n(shown as a whole replacement — too many changes to compare line by line: ${preview.whole.beforeLines} lines → ${preview.whole.afterLines} lines)`
    : '';
  return `${heading}${whole}\n\n${preview.diff}`;
}

/**
 * The head of a long message, cut at a line break, and a last line saying how much is not shown
 * and where it is — a line at the end (a `curl … | sh`) must never be cut silently (docs/rpc-protocol.md).
 */
function cutMessage(full: string): string {
  const lastBreak = full.lastIndexOf('\n', MESSAGE_CHARS);
  const head = full.slice(0, lastBreak > 0 ? lastBreak : MESSAGE_CHARS);
  const rest = full.slice(head.length);
  const hiddenLines = rest.split('\n').length - (rest.startsWith('\n') ? 1 : 0);
  const totalLines = full.split('\n').length;
  const size = formatSize(Buffer.byteLength(rest));
  return (
    `${head}\n\n[Cut here: ${hiddenLines} more line${hiddenLines === 1 ? '' : 's'} (${size}) of ${totalLines} not shown. ` +
    "The whole text is in this request's fullMessage field; read it before you confirm.]"
  );
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
