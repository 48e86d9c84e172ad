// The chat message shapes the renderer, the history store and the RPC clients see. They are a
// structural subset of pi-ai's Message types (so a pi-ai message is assignable to them) written
// out here so that the renderer never imports the LLM layer.

export interface TextBlock {
  type: 'text';
  text: string;
}
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  /** The provider withheld the thinking (Anthropic's redacted thinking): only that it happened is known. */
  redacted?: boolean;
  /** How long the model thought, ms (set by the app as the reply streams; absent on older turns). */
  durationMs?: number;
}
export interface ImageBlock {
  type: 'image';
  data: string;
  mimeType: string;
}
export interface ToolCallBlock {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost?: { total: number };
}

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export interface UserChatMessage {
  role: 'user';
  content: string | (TextBlock | ImageBlock)[];
  timestamp: number;
  /** Continue's instruction after a cut-off reply: in the runtime context only, never stored. */
  isContinuation?: boolean;
}

/** On a reply that continues one an error cut off: that reply's start time and the words it had sent. */
export interface ContinuesFrom {
  timestamp: number;
  text: string;
}
export interface AssistantChatMessage {
  role: 'assistant';
  content: (TextBlock | ThinkingBlock | ToolCallBlock)[];
  provider: string;
  model: string;
  usage: ChatUsage;
  stopReason: StopReason;
  errorMessage?: string;
  timestamp: number;
  /** Set when this reply continues a cut-off one (docs/retry-policy.md, "Nothing streamed is lost"). */
  continues?: ContinuesFrom;
}
export interface ToolResultChatMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: (TextBlock | ImageBlock)[];
  /** What the tool reported besides its text (exit code, duration, diff): ToolResultDetails in tools.ts. */
  details?: unknown;
  isError: boolean;
  timestamp: number;
}
export type ChatMessage = UserChatMessage | AssistantChatMessage | ToolResultChatMessage;

/** The plain text of a message, for search, titles and exports. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((block) => (block.type === 'text' ? block.text : block.type === 'toolCall' ? `[tool ${block.name}]` : ''))
    .filter(Boolean)
    .join('\n');
}

/**
 * A continued reply as one message: the cut-off words joined to its own first text block. The
 * history stores the two turns apart; the runtime context after a restart and the chat join them.
 */
export function joinedContinuation(message: AssistantChatMessage): AssistantChatMessage {
  const from = message.continues;
  if (!from) return message;
  const first = message.content.findIndex((block) => block.type === 'text');
  const content = [...message.content];
  if (first === -1) content.unshift({ type: 'text', text: from.text });
  else content[first] = { type: 'text', text: from.text + (content[first] as TextBlock).text };
  return { ...message, content };
}
