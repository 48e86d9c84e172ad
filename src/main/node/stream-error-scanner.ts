// Watches the text of a 2xx response body as the SDK reads it and picks out an error event:
// Anthropic's `event: error`, OpenAI Responses' `error` / `response.failed`, a Chat Completions
// `data: {"error": …}` chunk, or the bare JSON error object Gemini writes into its SSE stream.
// Used by http-facts.ts; the codes it finds let the classifier place errors that arrive after a 200.
import { errorFactsFromBody, type BodyFacts } from '../core/retry';

/** A block this long without a blank line is model output, not an error event (chars). */
const MAX_BLOCK_CHARS = 256 * 1024;
const BLOCK_END = /\r\n\r\n|\n\n|\r\r/;

export class StreamErrorScanner {
  private buffer = '';
  private found: BodyFacts | undefined;

  /** Feed the next piece of decoded body text. */
  push(text: string): void {
    if (this.found) return;
    this.buffer += text;
    for (let end = BLOCK_END.exec(this.buffer); end; end = BLOCK_END.exec(this.buffer)) {
      this.scanBlock(this.buffer.slice(0, end.index));
      this.buffer = this.buffer.slice(end.index + end[0].length);
      if (this.found) return;
    }
    if (this.buffer.length > MAX_BLOCK_CHARS) this.buffer = '';
  }

  /** The error found so far, reading what is left unterminated (Gemini's error has no blank line after it). */
  result(): BodyFacts | undefined {
    if (!this.found && this.buffer.trim() !== '') this.scanBlock(this.buffer);
    this.buffer = '';
    return this.found;
  }

  private scanBlock(block: string): void {
    // Cheap test first: almost every event is model output.
    if (!/error|failed/.test(block)) return;
    const lines = block.split(/\r?\n|\r/);
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''));
    const payload = data.length > 0 ? data.join('\n') : block.trim();
    if (!payload.startsWith('{') && !payload.startsWith('[')) return;
    try {
      this.found = errorFactsFromBody(JSON.parse(payload) as unknown);
    } catch {
      // Not JSON: a malformed chunk is the SDK's to report, not an error event.
    }
  }
}
