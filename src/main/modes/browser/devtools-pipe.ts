// Chromium's DevTools protocol over --remote-debugging-pipe, only as much as app-window.ts needs:
// send a command and hear the Target events. Messages are JSON separated by NUL; we write to the
// browser's fd 3 and read its fd 4. A pipe rather than a port, so no other local process can
// drive the browser. Hand-written: the CDP client packages speak WebSocket to a port only.
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';

const targetInfoEvent = z.object({
  method: z.enum(['Target.targetCreated', 'Target.targetInfoChanged']),
  params: z.object({ targetInfo: z.object({ targetId: z.string(), type: z.string(), url: z.string() }) }),
});
const targetDestroyedEvent = z.object({
  method: z.literal('Target.targetDestroyed'),
  params: z.object({ targetId: z.string() }),
});
const targetEvent = z.union([targetInfoEvent, targetDestroyedEvent]);
export type TargetEvent = z.infer<typeof targetEvent>;

// Target events are a few hundred bytes; a longer unterminated message is not one of them.
const MAX_MESSAGE_CHARS = 1024 * 1024;

export class DevtoolsPipe {
  private nextId = 1;
  private pending = '';

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
    onTargetEvent: (event: TargetEvent) => void,
  ) {
    // A write can race the browser's exit (EPIPE); the exit itself is reported by the process.
    toBrowser.on('error', () => undefined);
    fromBrowser.on('error', () => undefined);
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => {
      const messages = (this.pending + chunk).split('\0');
      this.pending = messages.pop() ?? '';
      if (this.pending.length > MAX_MESSAGE_CHARS) this.pending = '';
      for (const message of messages) {
        const event = parseTargetEvent(message);
        if (event) onTargetEvent(event);
      }
    });
  }

  send(method: string, params: Record<string, unknown> = {}): void {
    if (!this.toBrowser.writable) return;
    this.toBrowser.write(`${JSON.stringify({ id: this.nextId++, method, params })}\0`);
  }
}

/** A Target event, or null for anything else (command replies, other domains, garbage). */
export function parseTargetEvent(message: string): TargetEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return null;
  }
  const parsed = targetEvent.safeParse(value);
  return parsed.success ? parsed.data : null;
}
