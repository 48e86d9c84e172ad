// Unit tests of the RPC framing (src/main/modes/rpc/jsonl.ts): records split on "\n" only, never
// on U+2028/U+2029 or a lone "\r"; a trailing "\r" dropped; chunks cut anywhere, including inside
// a multi-byte UTF-8 character; the last unterminated line kept; oversized lines dropped whole.
import { Buffer } from 'node:buffer';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonlSplitter, encodeJsonLine, readJsonLines } from '../../../src/main/modes/rpc/jsonl';

const TRICKY = 'line\u2028sep\u2029para\rcr é ✓ 😀 end';

/** Feed `bytes` to a fresh splitter cut at the given offsets; returns every line incl. end(). */
function splitAt(bytes: Buffer, cuts: number[]): string[] {
  const splitter = new JsonlSplitter();
  const lines: string[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    lines.push(...splitter.push(bytes.subarray(start, cut)));
    start = cut;
  }
  return [...lines, ...splitter.end()];
}

describe('encodeJsonLine', () => {
  it('writes one line whose only newline is the terminator, keeping U+2028/U+2029 raw', () => {
    const line = encodeJsonLine({ text: 'a\nb\u2028c\u2029d\r' });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(line).toContain('\u2028');
    expect(JSON.parse(line)).toEqual({ text: 'a\nb\u2028c\u2029d\r' });
  });

  it('refuses values that have no JSON form', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeJsonLine(undefined)).toThrow(TypeError);
    expect(() => encodeJsonLine(cyclic)).toThrow();
  });
});

describe('JsonlSplitter', () => {
  it('splits on \\n only: U+2028, U+2029 and a lone \\r stay inside the record', () => {
    const record = JSON.stringify({ type: 'prompt', message: TRICKY });
    const lines = new JsonlSplitter().push(`${record}\n`);
    expect(lines).toEqual([record]);
    expect((JSON.parse(lines[0]) as { message: string }).message).toBe(TRICKY);
  });

  it('drops one trailing \\r (CRLF writers) and nothing else', () => {
    const splitter = new JsonlSplitter();
    expect(splitter.push('{"a":1}\r\n{"b":"x\\r"}\r\r\n')).toEqual(['{"a":1}', '{"b":"x\\r"}\r']);
  });

  it('reassembles a record cut at every possible byte offset, inside multi-byte characters too', () => {
    const record = JSON.stringify({ id: 'é✓😀', message: TRICKY });
    const bytes = Buffer.from(`${record}\r\n${record}\n`, 'utf8');
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(splitAt(bytes, [cut])).toEqual([record, record]);
    }
  });

  it('survives one byte per chunk', () => {
    const record = JSON.stringify({ message: '😀 ✓ é' });
    const bytes = Buffer.from(`${record}\n`, 'utf8');
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(splitAt(bytes, cuts)).toEqual([record]);
  });

  it('returns several records from one chunk, empty lines included', () => {
    expect(new JsonlSplitter().push('{"a":1}\n\n{"b":2}\n')).toEqual(['{"a":1}', '', '{"b":2}']);
  });

  it('hands out the last record at end() when it had no terminator', () => {
    const splitter = new JsonlSplitter();
    expect(splitter.push('{"a":1}\n{"b":')).toEqual(['{"a":1}']);
    expect(splitter.push('2}')).toEqual([]);
    expect(splitter.end()).toEqual(['{"b":2}']);
    expect(splitter.end()).toEqual([]);
  });

  it('flushes an incomplete UTF-8 sequence at end() as a replacement character, not silently', () => {
    const splitter = new JsonlSplitter();
    splitter.push(Buffer.from([0x7b, 0xe2, 0x9c]));
    expect(splitter.end()).toEqual(['{\ufffd']);
  });

  it('drops an oversized line whole, reports it, and reads the next line normally', () => {
    const oversized: number[] = [];
    const splitter = new JsonlSplitter({ maxLineLength: 10, onOversized: (length) => oversized.push(length) });
    expect(splitter.push('0123456')).toEqual([]);
    expect(splitter.push('789abcdef')).toEqual([]);
    expect(splitter.push('ghij\n{"ok":1}\n')).toEqual(['{"ok":1}']);
    expect(oversized).toEqual([16]);
  });
});

describe('readJsonLines', () => {
  it('delivers lines from a stream, then the unterminated tail, then onEnd once', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    let ends = 0;
    const ended = new Promise<void>((resolve) => {
      readJsonLines(stream, (line) => lines.push(line), {
        onEnd: () => {
          ends += 1;
          resolve();
        },
      });
    });
    const bytes = Buffer.from('{"a":"😀"}\r\n{"b":2}', 'utf8');
    stream.write(bytes.subarray(0, 8)); // inside the emoji
    stream.write(bytes.subarray(8));
    stream.end();
    await ended;
    stream.destroy();
    expect(lines).toEqual(['{"a":"😀"}', '{"b":2}']);
    expect(ends).toBe(1);
  });

  it('stops delivering after the returned stop() is called', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    const stop = readJsonLines(stream, (line) => lines.push(line));
    stream.write('{"a":1}\n');
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    stream.write('{"b":2}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(['{"a":1}']);
  });
});
