// The replies' code highlighting (src/renderer/src/markdown/highlight.ts): nothing registered at
// import, a grammar registered when a block first names it (by name or alias), a language no
// grammar knows left as plain text, and the highlighted text the same as the code.
import type { Element, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { registeredLanguages, rehypeLazyHighlight } from '../../../src/renderer/src/markdown/highlight';

function codeBlock(language: string | null, code: string): { tree: Root; code: Element } {
  const element: Element = {
    type: 'element',
    tagName: 'code',
    properties: { className: language ? [`language-${language}`] : [] },
    children: [{ type: 'text', value: code }],
  };
  const pre: Element = { type: 'element', tagName: 'pre', properties: {}, children: [element] };
  return { tree: { type: 'root', children: [pre] }, code: element };
}

const text = (node: Element | Root): string =>
  node.children.map((c) => (c.type === 'text' ? c.value : c.type === 'element' ? text(c) : '')).join('');

const classesIn = (node: Element): string[] =>
  node.children.flatMap((c) =>
    c.type === 'element' ? [...((c.properties.className as string[]) ?? []), ...classesIn(c)] : [],
  );

describe('rehypeLazyHighlight', () => {
  it('registers no grammar at import, then only the ones the blocks name', () => {
    expect(registeredLanguages()).toEqual([]);
    const { tree, code } = codeBlock('ts', 'export const n: number = 1;');
    rehypeLazyHighlight()(tree);
    expect(classesIn(code)).toContain('hljs-keyword');
    expect(code.properties.className).toEqual(['hljs', 'language-ts']);
    expect(text(code)).toBe('export const n: number = 1;');
    expect(registeredLanguages()).toEqual(['typescript']);
  });

  it('finds an alias missing from its own table by registering the other grammars', () => {
    const { tree, code } = codeBlock('gemspec', 'def x; end');
    rehypeLazyHighlight()(tree);
    expect(classesIn(code)).toContain('hljs-keyword');
    expect(registeredLanguages()).toContain('ruby');
  });

  it('leaves a block of an unknown language, or of none, as it was', () => {
    for (const language of ['no-such-language', null]) {
      const { tree, code } = codeBlock(language, 'plain <text>');
      rehypeLazyHighlight()(tree);
      expect(code.children).toEqual([{ type: 'text', value: 'plain <text>' }]);
    }
  });
});
