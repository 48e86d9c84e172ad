// How long a reply thought (docs/thinking-and-context.md): each thinking block of a streamed reply
// gets `durationMs`, from its thinking_start to the first event of anything else (its answer's
// words, a tool call, its own end), so the chat says "Thought for 12 s" live, in the history and
// after a restart. The block is pi-ai's own object, shared by every later copy of the message and
// by the stored turn, so setting it once is enough. TurnEvents hands it every agent event.
import type { AgentEvent } from '@mariozechner/pi-agent-core';

interface TimedBlock {
  type: string;
  durationMs?: number;
}

export class ThinkingClock {
  /** The thinking blocks of the reply streaming now that have not ended, with when each began. */
  private readonly open = new Map<TimedBlock, number>();

  constructor(private readonly now: () => number) {}

  observe(event: AgentEvent): void {
    if (event.type === 'message_start') this.open.clear();
    if (event.type === 'message_end') return this.closeAll();
    if (event.type !== 'message_update') return;
    const delta = event.assistantMessageEvent;
    if (delta.type === 'thinking_delta') return;
    if (delta.type === 'thinking_start') {
      const block = blockAt(delta.partial.content, delta.contentIndex);
      if (block) this.open.set(block, this.now());
      return;
    }
    // Anything else — the answer's first words, a tool call, the block's own end — ends the thinking.
    this.closeAll();
  }

  private closeAll(): void {
    const now = this.now();
    for (const [block, startedAt] of this.open) block.durationMs ??= Math.max(0, now - startedAt);
    this.open.clear();
  }
}

function blockAt(content: readonly object[], index: number): TimedBlock | undefined {
  const block = content[index] as TimedBlock | undefined;
  return block?.type === 'thinking' ? block : undefined;
}
