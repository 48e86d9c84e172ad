// The attachment builder: what each kind of file becomes (an image block fitted to the provider,
// a text block naming the file, a PDF's text with its empty pages named) and every refusal, each
// with the file it is about. Real sharp, real unpdf, real files made in test/fixtures.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Api } from '@mariozechner/pi-ai';
import { AttachmentError, buildAttachmentContent } from '../../../../src/main/node/attachments/build-content';
import { PDF_LIMITS } from '../../../../src/main/node/attachments/pdf-text';
import type { AttachmentUpload } from '../../../../src/shared/attachments';
import { damagedPdf, encryptedPdf, pdfBomb, pdfWithPages, pngImage, tinyPng } from '../../../fixtures/attachment-files';

const vision = (api: Api = 'anthropic-messages') => ({ api, input: ['text', 'image'] as ('text' | 'image')[] });
const textOnly = { api: 'openai-completions' as Api, input: ['text'] as ('text' | 'image')[] };
const upload = (name: string, mimeType: string, bytes: Buffer | string): AttachmentUpload => ({
  name,
  mimeType,
  data: Buffer.from(bytes).toString('base64'),
});

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AttachmentError);
  return (error as AttachmentError).refusals;
}

describe('buildAttachmentContent', () => {
  it('sends a small PNG as it is, with its file', async () => {
    const png = await tinyPng();
    const [block] = await buildAttachmentContent([upload('dot.png', 'image/png', png)], vision());
    expect(block).toEqual({
      type: 'image',
      data: png.toString('base64'),
      mimeType: 'image/png',
      file: { name: 'dot.png', mimeType: 'image/png', size: png.length },
    });
  });

  it('names a text file and fences its contents, longer than any backtick run inside', async () => {
    const [block] = await buildAttachmentContent(
      [upload('notes.md', 'text/markdown', 'Use ```js\nfences```\n')],
      vision(),
    );
    expect(block.type).toBe('text');
    expect(block.type === 'text' && block.text).toBe(
      'Attached file "notes.md" (text/markdown, 20 bytes):\n````\nUse ```js\nfences```\n````',
    );
  });

  it('takes an untyped source file by its name', async () => {
    const [block] = await buildAttachmentContent([upload('main.rs', '', 'fn main() {}')], textOnly);
    expect(block.type === 'text' && block.text).toContain('fn main() {}');
  });

  it("sends a PDF's text page by page and names the pages with none", async () => {
    const pdf = pdfWithPages(['Quarterly report', '', 'Totals']);
    const [block] = await buildAttachmentContent([upload('q3.pdf', 'application/pdf', pdf)], textOnly);
    const text = block.type === 'text' ? block.text : '';
    expect(text).toMatch(
      /^Attached PDF "q3\.pdf" \(3 pages, .*\), its text: Pages with no text \(scanned or images only\): 2\./,
    );
    expect(text).toContain('--- Page 1 ---\nQuarterly report');
    expect(text).toContain('--- Page 2 ---\n(no text on this page)');
    expect(text).toContain('--- Page 3 ---\nTotals');
  });

  it('refuses an image to a text-only model, naming the file', async () => {
    const refusals = await refusalOf(
      buildAttachmentContent([upload('shot.png', 'image/png', await tinyPng())], textOnly),
    );
    expect(refusals).toEqual([
      expect.objectContaining({
        code: 'image_to_text_model',
        name: 'shot.png',
        message: expect.stringContaining('text only'),
      }),
    ]);
  });

  it('refuses a type it cannot use and a binary file that claims to be text', async () => {
    const refusals = await refusalOf(
      buildAttachmentContent(
        [upload('song.mp3', 'audio/mpeg', 'ID3'), upload('blob.txt', 'text/plain', Buffer.from([0, 1, 2, 0xff]))],
        vision(),
      ),
    );
    expect(refusals.map((r) => [r.code, r.name])).toEqual([['unsupported_type', 'song.mp3']]);
    const binary = await refusalOf(
      buildAttachmentContent([upload('blob.txt', 'text/plain', Buffer.from([0, 1, 2, 0xff]))], vision()),
    );
    expect(binary.map((r) => [r.code, r.name])).toEqual([['unsupported_type', 'blob.txt']]);
  });

  it('refuses more than ten files, and more than 20 MB in all, before reading any', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => upload(`f${i}.txt`, 'text/plain', 'x'));
    expect((await refusalOf(buildAttachmentContent(eleven, vision()))).map((r) => r.code)).toEqual(['too_many']);
    const big = { name: 'big.txt', mimeType: 'text/plain', data: 'A'.repeat(28 * 1024 * 1024) };
    const [refusal] = await refusalOf(buildAttachmentContent([big], vision()));
    expect(refusal.code).toBe('too_large');
    expect(refusal.message).toContain('at most 20.0 MB');
  });

  it('refuses an image that cannot be read, and data that is not base64', async () => {
    const broken = await refusalOf(buildAttachmentContent([upload('x.png', 'image/png', 'not a png')], vision()));
    expect(broken).toEqual([expect.objectContaining({ code: 'unreadable', name: 'x.png' })]);
    const bad = await refusalOf(
      buildAttachmentContent([{ name: 'y.txt', mimeType: 'text/plain', data: '!!!not base64' }], vision()),
    );
    expect(bad).toEqual([expect.objectContaining({ code: 'unreadable', name: 'y.txt' })]);
  });

  it('tells an encrypted PDF from a damaged one', async () => {
    const refusals = await refusalOf(
      buildAttachmentContent(
        [upload('locked.pdf', 'application/pdf', encryptedPdf()), upload('torn.pdf', 'application/pdf', damagedPdf())],
        textOnly,
      ),
    );
    expect(refusals.map((r) => [r.code, r.name])).toEqual([
      ['pdf_encrypted', 'locked.pdf'],
      ['pdf_damaged', 'torn.pdf'],
    ]);
    expect(refusals[0].message).toContain('encrypted');
  });

  it('refuses a compression bomb and a PDF with too much text, each saying why', async () => {
    const denseText = Array(20).fill('x'.repeat(49)).join('\n');
    // At the app's 512 MB, PDF.js inflates 128 MB of the bomb before its refusal: 8 s at a load of
    // 10, and the 30 s time limit could answer first on a busier machine. A quarter of the memory
    // and no time limit to race: the refusal is the memory's, whatever the load (pdf-text.test.ts
    // has the time limit's own).
    const limits = { ...PDF_LIMITS, memoryLimitMb: 128, timeLimitMs: 3_600_000 };
    const refusals = await refusalOf(
      buildAttachmentContent(
        [
          upload('bomb.pdf', 'application/pdf', pdfBomb(1024 ** 3)),
          upload('long.pdf', 'application/pdf', pdfWithPages(Array.from({ length: 450 }, () => denseText))),
        ],
        textOnly,
        limits,
      ),
    );
    expect(refusals).toEqual([
      {
        code: 'pdf_too_complex',
        name: 'bomb.pdf',
        message: '"bomb.pdf" cannot be used: reading it needed more than 128 MB of memory.',
      },
      {
        code: 'text_too_long',
        name: 'long.pdf',
        message: expect.stringMatching(
          /^"long\.pdf" cannot be used: its text is longer than 400,000 characters \(stopped at page 394 of 450\)\.$/,
        ),
      },
    ]);
  });

  it('refuses a text longer than the cap rather than cutting it', async () => {
    const [refusal] = await refusalOf(
      buildAttachmentContent([upload('long.log', 'text/plain', 'a'.repeat(400_001))], vision()),
    );
    expect(refusal.code).toBe('text_too_long');
  });
});

describe('downscaling to each provider', () => {
  it('scales a 9000×3000 PNG to 8000 px for Anthropic, 2048 for OpenAI, 3072 for Google, keeping the ratio', async () => {
    const png = await pngImage(9000, 3000);
    for (const [api, edge] of [
      ['anthropic-messages', 8000],
      ['openai-responses', 2048],
      ['openai-completions', 2048],
      ['google-generative-ai', 3072],
    ] as const) {
      const [block] = await buildAttachmentContent([upload('wide.png', 'image/png', png)], vision(api));
      const meta = await sharp(Buffer.from(block.type === 'image' ? block.data : '', 'base64')).metadata();
      expect([api, meta.width, meta.height]).toEqual([api, edge, Math.round((edge * 3000) / 9000)]);
      expect(block.file?.size).toBe(png.length);
    }
  });

  it('brings an image over 5 MB under it for Anthropic', async () => {
    const heavy = await pngImage(2000, 1500, true);
    expect(heavy.length * (4 / 3)).toBeGreaterThan(5 * 1024 * 1024);
    const [block] = await buildAttachmentContent([upload('noise.png', 'image/png', heavy)], vision());
    expect(block.type === 'image' && block.data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(block.type === 'image' && block.mimeType).toBe('image/png');
  });

  it('turns a TIFF into PNG, which every API takes', async () => {
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .tiff()
      .toBuffer();
    const [block] = await buildAttachmentContent(
      [upload('scan.tiff', 'image/tiff', tiff)],
      vision('google-generative-ai'),
    );
    expect(block.type === 'image' && block.mimeType).toBe('image/png');
  });
});
