// The built renderer's files compressed for the browser mode's HTTP server (browser-server.ts):
// Brotli or gzip, whichever the browser accepts, made on the first request of each file and kept
// (the bundle is ~0.7 MB of JavaScript; compressed it is a fifth of that). The desktop window reads
// its files from disk through its app protocol and needs none of this.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Brotli's quality 5: most of its gain at a small part of quality 11's time (tens of ms, not seconds). */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
/** Not worth a compression: icons, tiny files. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;

export type Encoding = 'br' | 'gzip';

export interface Encoded {
  body: Buffer;
  encoding: Encoding | null;
}

/** The encoding to answer with for an Accept-Encoding header, or null. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  const offered = (acceptEncoding ?? '').split(',').map((part) => part.trim().split(';')[0]);
  return offered.includes('br') ? 'br' : offered.includes('gzip') ? 'gzip' : null;
}

export class CompressedFiles {
  private readonly cache = new Map<string, { source: Buffer; encoded: Promise<Buffer> }>();

  async encode(key: string, body: Buffer, type: string, encoding: Encoding | null): Promise<Encoded> {
    if (!encoding || body.length < MIN_BYTES || !COMPRESSIBLE.test(type)) return { body, encoding: null };
    const id = `${encoding} ${key}`;
    let entry = this.cache.get(id);
    // The same bytes as when compressed (a rebuild changes them): compare, then reuse.
    if (!entry || !entry.source.equals(body)) {
      entry = { source: body, encoded: encoding === 'br' ? brotli(body, BROTLI_OPTIONS) : gzipAsync(body) };
      this.cache.set(id, entry);
    }
    return { body: await entry.encoded, encoding };
  }
}
