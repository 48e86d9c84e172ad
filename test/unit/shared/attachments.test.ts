// The attachment pre-checks both the composer and the main process run (src/shared/attachments.ts):
// how a file is used by its type and name, the count and size caps, an image to a text-only model.
import { describe, expect, it } from 'vitest';
import { attachmentKind, base64Bytes, describeBytes, precheckUploads } from '../../../src/shared/attachments';
import { attachmentBlocks, messageText, type UserChatMessage } from '../../../src/shared/messages';

describe('attachmentKind', () => {
  it.each([
    ['a.png', 'image/png', 'image'],
    ['a.jpg', 'image/jpeg', 'image'],
    ['r.pdf', 'application/pdf', 'pdf'],
    ['r.pdf', '', 'pdf'],
    ['main.rs', '', 'text'],
    ['Makefile', 'application/octet-stream', 'text'],
    ['data.json', 'application/json', 'text'],
    ['notes.md', 'text/markdown; charset=utf-8', 'text'],
    ['song.mp3', 'audio/mpeg', null],
    ['a.zip', 'application/zip', null],
  ] as const)('%s (%s) is %s', (name, type, kind) => {
    expect(attachmentKind(name, type)).toBe(kind);
  });
});

describe('precheckUploads', () => {
  const file = (name: string, mimeType: string, size = 10) => ({ name, mimeType, size });

  it('passes what can go', () => {
    expect(precheckUploads([file('a.png', 'image/png'), file('b.txt', 'text/plain')], true)).toEqual([]);
  });

  it('refuses an image only for a model known to read text only', () => {
    expect(precheckUploads([file('a.png', 'image/png')], undefined)).toEqual([]);
    expect(precheckUploads([file('a.png', 'image/png')], false).map((r) => r.code)).toEqual(['image_to_text_model']);
  });

  it('refuses eleven files and more than 20 MB in all, saying the caps', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => file(`${i}.txt`, 'text/plain'));
    expect(precheckUploads(eleven, true)[0].message).toBe('At most 10 files can go with one message.');
    const big = [file('a.txt', 'text/plain', 15 * 1024 * 1024), file('b.txt', 'text/plain', 6 * 1024 * 1024)];
    expect(precheckUploads(big, true)[0].message).toBe(
      'The attachments are 21.0 MB in all; one message can carry at most 20.0 MB.',
    );
  });
});

describe('sizes and message text', () => {
  it('counts base64 bytes without decoding and says sizes', () => {
    expect(base64Bytes(Buffer.from('hello!!').toString('base64'))).toBe(7);
    expect([describeBytes(67), describeBytes(2048), describeBytes(3 * 1024 * 1024)]).toEqual([
      '67 bytes',
      '2 KB',
      '3.0 MB',
    ]);
  });

  it("a message's text leaves an attached file's text out; its attachment blocks are listed in order", () => {
    const message: UserChatMessage = {
      role: 'user',
      timestamp: 1,
      content: [
        { type: 'text', text: 'Look' },
        { type: 'text', text: 'Attached file "a.md"', file: { name: 'a.md', mimeType: 'text/markdown', size: 3 } },
        { type: 'image', data: 'AA==', mimeType: 'image/png' },
      ],
    };
    expect(messageText(message)).toBe('Look');
    expect(attachmentBlocks(message).map((b) => b.type)).toEqual(['text', 'image']);
  });
});
