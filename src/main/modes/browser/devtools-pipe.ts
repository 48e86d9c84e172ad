// Chromium's DevTools protocol over --remote-debugging-pipe, only as much as app-window.ts needs:
// send a command (to the browser, or to a page's session) and hear its reply and the events.
// Messages are JSON separated by NUL; we write to the browser's fd 3 and read its fd 4. A pipe
// rather than a port, so no other local process can drive the browser or see where it goes.
// Hand-written: the CDP client packages speak WebSocket to a port only.
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

/** A page's answer to a navigation: `Network.responseReceived` for its document (app-window.ts). */
const documentResponseEvent = z.object({
  method: z.literal('Network.responseReceived'),
  sessionId: z.string(),
  params: z.object({ type: z.string(), response: z.object({ url: z.string(), status: z.number() }) }),
});
export type DocumentResponseEvent = z.infer<typeof documentResponseEvent>;

const reply = z.object({
  id: z.number(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ message: z.string() }).optional(),
});

export type PipeEvent = TargetEvent | DocumentResponseEvent;

// Events are a few kilobytes; a longer unterminated message is not one we need.
const MAX_MESSAGE_CHARS = 1024 * 1024;

export class DevtoolsPipe {
  private nextId = 1;
  private pending = '';
  private readonly replies = new Map<number, (result: Record<string, unknown> | Error) => void>();

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
    onEvent: (event: PipeEvent) => void,
  ) {
    // A write can race the browser's exit (EPIPE); the exit itself is reported by the process.
    toBrowser.on('error', () => undefined);
    fromBrowser.on('error', () => undefined);
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => {
      const messages = (this.pending + chunk).split('\0');
      this.pending = messages.pop() ?? '';
      if (this.pending.length > MAX_MESSAGE_CHARS) this.pending = '';
      for (const message of messages) this.hear(message, onEvent);
    });
    fromBrowser.on('close', () => {
      for (const answer of this.replies.values()) answer(new Error('the browser closed its DevTools pipe'));
      this.replies.clear();
    });
  }

  /** Fire and forget (closing the browser, which may not live to answer). */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): number {
    const id = this.nextId++;
    if (this.toBrowser.writable)
      this.toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return id;
  }

  /** A command and its result; rejects with the browser's error, or when the pipe closes first. */
  call(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const id = this.send(method, params, sessionId);
      this.replies.set(id, (result) => (result instanceof Error ? reject(result) : resolve(result)));
    });
  }

  private hear(message: string, onEvent: (event: PipeEvent) => void): void {
    let value: unknown;
    try {
      value = JSON.parse(message);
    } catch {
      return;
    }
    const answer = reply.safeParse(value);
    if (answer.success) {
      const { id, result, error } = answer.data;
      this.replies.get(id)?.(error ? new Error(`${error.message}`) : (result ?? {}));
      this.replies.delete(id);
      return;
    }
    const event = parsePipeEvent(value);
    if (event) onEvent(event);
  }
}

/** A Target event or a page's response, or null for anything else (other domains, garbage). */
export function parsePipeEvent(value: unknown): PipeEvent | null {
  const target = targetEvent.safeParse(value);
  if (target.success) return target.data;
  const response = documentResponseEvent.safeParse(value);
  return response.success ? response.data : null;
}
