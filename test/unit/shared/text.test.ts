// errorText and contentText (src/shared/text.ts): what every layer shows of a thrown value and of
// a content array, the one reading the ~20 inline copies and the four local helpers had.
import { describe, expect, it } from 'vitest';
import { contentText, errorText } from '../../../src/shared/text';

describe('errorText', () => {
  it("is an Error's message, and anything else thrown as a string", () => {
    expect(errorText(new TypeError('bad input'))).toBe('bad input');
    expect(errorText('plain words')).toBe('plain words');
    expect(errorText(42)).toBe('42');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText({ code: 'E' })).toBe('[object Object]');
  });
});

describe('contentText', () => {
  it('keeps a string as it is', () => {
    expect(contentText('hello')).toBe('hello');
  });

  it('joins the parts that carry text by newlines, skipping images, tool calls and what carries none', () => {
    const content = [
      { type: 'text', text: 'one' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'toolCall', id: 'c1', name: 'read', arguments: {} },
      { text: 'two' },
      { type: 'input_text', text: 'three' },
      { type: 'text', text: 7 },
      null,
      'loose string',
    ];
    expect(contentText(content)).toBe('one\ntwo\nthree');
  });

  it('is empty for no content or a value that is not content', () => {
    expect(contentText([])).toBe('');
    expect(contentText(undefined)).toBe('');
    expect(contentText({ text: 'not an array' })).toBe('');
  });
});
