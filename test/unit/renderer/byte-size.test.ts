// Attachment sizes in the person's language (src/renderer/src/attachments/byte-size.ts): the number
// by Intl.NumberFormat in the UI language, the unit from the en/ja/ko resources — on the chips and
// in the composer's refusals alike.
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../src/renderer/src/attachments/byte-size';
import { refusalsFor } from '../../../src/renderer/src/attachments/pending-files';
import { appLanguages } from './app-i18n';

const tIn = appLanguages();

describe('attachment sizes', () => {
  it.each([
    ['en', ['67 bytes', '1,000 KB', '2.5 MB']],
    ['ja', ['67 バイト', '1,000 KB', '2.5 MB']],
    ['ko', ['67바이트', '1,000KB', '2.5MB']],
  ])('in %s: bytes, KB and MB with the language’s digits and units', (lng, expected) => {
    const sizes = [67, 1000 * 1024, 2.5 * 1024 * 1024].map((n) => formatBytes(n, tIn(lng), lng));
    expect(sizes).toEqual(expected);
  });

  it('the number follows the language’s own separators', () => {
    expect(formatBytes(1000 * 1024, tIn('en'), 'de')).toBe('1.000 KB');
    expect(formatBytes(2.5 * 1024 * 1024, tIn('en'), 'de')).toBe('2,5 MB');
  });

  it('the composer’s refusal of too large a message says its sizes so too', () => {
    const big = { id: 'f1', name: 'big.png', mimeType: 'image/png', data: '', size: 25 * 1024 * 1024, preview: null };
    const [refusal] = refusalsFor([big], true, tIn('ja'), 'ja');
    expect(refusal.text).toBe('添付ファイルは合計 25.0 MB です。1 つのメッセージで送れるのは 20.0 MB までです。');
  });
});
