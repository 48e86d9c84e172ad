// Strict JSON-lines framing for the RPC mode (server side) and RpcClient (client side): records
// end with "\n" and nothing else. Node's readline is deliberately not used: it also breaks lines
// on U+2028/U+2029 and lone "\r", which are legal inside JSON strings. A trailing "\r" is dropped
// so that CRLF writers work; bytes are decoded with a StringDecoder so a chunk may end anywhere.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** One record as a line. Throws only on values JSON cannot hold (cycles, BigInt, undefined). */
export function encodeJsonLine(value: unknown): string {
  const text = JSON.stringify(value);
  if (typeof text !== 'string') throw new TypeError('value has no JSON representation');
  // JSON.stringify never leaves a raw "\n" inside a string, so the only newline is the terminator.
  return `${text}\n`;
}

export interface JsonlSplitterOptions {
  /**
   * Longest accepted line, in UTF-16 code units; default 64 MiB. A longer line is dropped whole
   * (reported through onOversized) so one runaway writer cannot exhaust memory.
   */
  maxLineLength?: number;
  /** Told about each dropped line with the length it had reached. */
  onOversized?: (length: number) => void;
}

const DEFAULT_MAX_LINE_LENGTH = 64 * 1024 * 1024;

/** Turns a byte (or text) stream cut at arbitrary points into complete lines. */
export class JsonlSplitter {
  private readonly decoder = new StringDecoder('utf8');
  // The unterminated tail, kept as pieces: joining once per line keeps a long line
  // that arrives in many small chunks linear instead of quadratic.
  private pieces: string[] = [];
  private pendingLength = 0;
  private dropping = false;
  private readonly maxLineLength: number;

  constructor(private readonly options: JsonlSplitterOptions = {}) {
    this.maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  }

  /** Feed one chunk; returns the lines it completed (without "\n" or a trailing "\r"). */
  push(chunk: Uint8Array | string): string[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    return this.split(text);
  }

  /** The input ended: returns the last line if it had no terminator. */
  end(): string[] {
    const lines = this.split(this.decoder.end());
    if (this.pendingLength > 0 && !this.dropping) lines.push(stripCr(this.pieces.join('')));
    this.resetLine();
    return lines;
  }

  private split(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      const line = this.take(text.slice(start, newline));
      if (line !== null) lines.push(line);
      start = newline + 1;
    }
    if (start < text.length) this.append(text.slice(start));
    return lines;
  }

  /** Completes the current line with its last piece; null when the line was dropped. */
  private take(lastPiece: string): string | null {
    this.append(lastPiece);
    const line = this.dropping ? null : stripCr(this.pieces.join(''));
    this.resetLine();
    return line;
  }

  private append(piece: string): void {
    this.pendingLength += piece.length;
    if (this.dropping) return;
    if (this.pendingLength > this.maxLineLength) {
      this.dropping = true;
      this.pieces = [];
      this.options.onOversized?.(this.pendingLength);
      return;
    }
    if (piece) this.pieces.push(piece);
  }

  private resetLine(): void {
    this.pieces = [];
    this.pendingLength = 0;
    this.dropping = false;
  }
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

export interface JsonlReadOptions extends JsonlSplitterOptions {
  /** Called once after the stream ended (or errored) and every line was delivered. */
  onEnd?: () => void;
}

/**
 * Read lines from a stream until it ends. Returns a function that stops reading (without calling
 * onEnd). A stream error counts as the end of input: the RPC peer went away.
 */
export function readJsonLines(
  stream: Readable,
  onLine: (line: string) => void,
  options: JsonlReadOptions = {},
): () => void {
  const splitter = new JsonlSplitter(options);
  let finished = false;
  const onData = (chunk: Uint8Array | string) => {
    for (const line of splitter.push(chunk)) onLine(line);
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    detach();
    for (const line of splitter.end()) onLine(line);
    options.onEnd?.();
  };
  const detach = () => {
    stream.off('data', onData);
    stream.off('end', finish);
    stream.off('error', finish);
    stream.off('close', finish);
  };
  stream.on('data', onData);
  stream.on('end', finish);
  stream.on('error', finish);
  // 'close' without 'end' happens when the peer's pipe is destroyed.
  stream.on('close', finish);
  return () => {
    finished = true;
    detach();
  };
}
