// How a turn's message is written to message_json and read back (docs/architecture.md, "Where data
// lives"). The stored form leaves out what the row's own columns already say (role, stop reason,
// the timestamp when it is the row's created_at) and writes pi-ai's usage object, whose keys repeat
// on every assistant turn, as a fixed array of numbers. Reading restores the message exactly; a
// message stored whole by an older version (it still has its `role`) reads as it is.
import type { ChatMessage } from '../../../shared/messages';

/** What the turn's row stores beside message_json and the codec relies on. */
export interface MessageColumns {
  role: string;
  createdAt: number;
  stopReason: string | null;
}

// The usage shape pi-ai reports for every assistant message, in the order of the stored array. A
// usage with any other set of keys, or a value that is not a finite number, is kept as an object.
const TOKEN_KEYS = ['input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens'] as const;
const COST_KEYS = ['input', 'output', 'cacheRead', 'cacheWrite', 'total'] as const;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The values of `keys` in order when `value` has exactly those keys, each a finite number. */
function numbersOf(value: unknown, keys: readonly string[]): number[] | null {
  if (!isRecord(value)) return null;
  const own = Object.keys(value);
  if (own.length !== keys.length || !keys.every((key) => own.includes(key))) return null;
  const numbers = keys.map((key) => value[key]);
  return numbers.every((n): n is number => typeof n === 'number' && Number.isFinite(n)) ? numbers : null;
}

/** usage → [tokens…] or [tokens…, cost…]; anything else unchanged. */
function packUsage(usage: unknown): unknown {
  if (!isRecord(usage)) return usage;
  const { cost, ...tokens } = usage;
  const tokenNumbers = numbersOf(tokens, TOKEN_KEYS);
  if (!tokenNumbers) return usage;
  if (!('cost' in usage)) return tokenNumbers;
  const costNumbers = numbersOf(cost, COST_KEYS);
  return costNumbers ? [...tokenNumbers, ...costNumbers] : usage;
}

function unpackUsage(usage: unknown): unknown {
  if (!Array.isArray(usage)) return usage;
  // Literal objects, not a loop over the keys: this runs once per assistant turn of every read.
  const [input, output, cacheRead, cacheWrite, totalTokens] = usage as number[];
  if (usage.length === TOKEN_KEYS.length) return { input, output, cacheRead, cacheWrite, totalTokens };
  const [, , , , , costInput, costOutput, costCacheRead, costCacheWrite, costTotal] = usage as number[];
  const cost = {
    input: costInput,
    output: costOutput,
    cacheRead: costCacheRead,
    cacheWrite: costCacheWrite,
    total: costTotal,
  };
  return { input, output, cacheRead, cacheWrite, totalTokens, cost };
}

/** The JSON to store for a message whose row holds `columns`. */
export function encodeMessage(message: ChatMessage, columns: MessageColumns): string {
  if (message.role !== columns.role)
    throw new Error(`a ${message.role} message cannot be stored in a ${columns.role} row`);
  const { role, timestamp, ...stored } = message as unknown as Json;
  if (timestamp !== columns.createdAt) stored.timestamp = timestamp;
  if (role === 'assistant') {
    if (stored.stopReason === columns.stopReason) delete stored.stopReason;
    if ('usage' in stored) stored.usage = packUsage(stored.usage);
  }
  return JSON.stringify(stored);
}

/** The message a row's message_json and columns stand for. */
export function decodeMessage(json: string, columns: MessageColumns): ChatMessage {
  const stored = JSON.parse(json) as Json;
  // Stored whole (before this codec): it reads as written.
  if ('role' in stored) return stored as unknown as ChatMessage;
  // Filled in place (the restored keys come last): a copy would cost more than the parse.
  const message = stored;
  message.role = columns.role;
  if (columns.role === 'assistant') {
    if ('usage' in message) message.usage = unpackUsage(message.usage);
    if (!('stopReason' in message)) message.stopReason = columns.stopReason;
  }
  if (!('timestamp' in message)) message.timestamp = columns.createdAt;
  return message as unknown as ChatMessage;
}
