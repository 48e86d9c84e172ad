// Code highlighting for the Markdown of replies (Markdown.tsx's rehype plugin), on lowlight
// (highlight.js): a grammar is registered the first time a code block names its language, not
// at import — building highlight.js's 37 common grammars was most of the Markdown chunk's load.
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { common, createLowlight } from 'lowlight';

const lowlight = createLowlight();
const unknown = new Set<string>();

/**
 * The usual short names of the common grammars. A grammar declares its aliases only once
 * registered, so a name not here is looked for by registering the rest in turn (once).
 */
const ALIASES: Record<string, string> = {
  ...Object.fromEntries(['ts', 'tsx', 'mts', 'cts'].map((a) => [a, 'typescript'])),
  ...Object.fromEntries(['js', 'jsx', 'mjs', 'cjs'].map((a) => [a, 'javascript'])),
  ...Object.fromEntries(['sh', 'zsh'].map((a) => [a, 'bash'])),
  ...Object.fromEntries(['html', 'xhtml', 'svg', 'plist'].map((a) => [a, 'xml'])),
  ...Object.fromEntries(['cc', 'c++', 'hpp', 'cxx'].map((a) => [a, 'cpp'])),
  ...Object.fromEntries(['text', 'txt'].map((a) => [a, 'plaintext'])),
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  yml: 'yaml',
  md: 'markdown',
  golang: 'go',
  kt: 'kotlin',
  cs: 'csharp',
  h: 'c',
  console: 'shell',
  toml: 'ini',
  patch: 'diff',
  jsonc: 'json',
};

/** Registers the grammar `name` calls for; false when no common grammar has that name or alias. */
function ensureLanguage(name: string): boolean {
  if (lowlight.registered(name)) return true;
  if (unknown.has(name)) return false;
  const canonical = ALIASES[name] ?? name;
  const grammar = common[canonical];
  if (grammar) lowlight.register(canonical, grammar);
  else
    for (const [language, other] of Object.entries(common)) {
      if (lowlight.registered(name)) break;
      if (!lowlight.registered(language)) lowlight.register(language, other);
    }
  if (!lowlight.registered(name)) unknown.add(name);
  return lowlight.registered(name);
}

function languageOf(code: Element): string | null {
  const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
  const found = classes.find((c) => c.startsWith('language-'));
  return found ? found.slice('language-'.length).toLowerCase() : null;
}

const textOf = (node: ElementContent): string =>
  node.type === 'text' ? node.value : node.type === 'element' ? node.children.map(textOf).join('') : '';

function highlightCode(code: Element): void {
  const language = languageOf(code);
  if (!language || !ensureLanguage(language)) return;
  const result = lowlight.highlight(language, code.children.map(textOf).join(''), { prefix: 'hljs-' });
  code.properties.className = ['hljs', ...(code.properties.className as string[])];
  code.children = result.children as ElementContent[];
}

function visit(node: Root | RootContent): void {
  if (node.type !== 'root' && node.type !== 'element') return;
  for (const child of node.children) {
    if (node.type === 'element' && node.tagName === 'pre' && child.type === 'element' && child.tagName === 'code')
      highlightCode(child);
    else visit(child);
  }
}

/** The rehype plugin: every fenced block that names a language highlighted as it; others left as they are. */
export function rehypeLazyHighlight() {
  return (tree: Root) => visit(tree);
}

/** The grammars registered so far (the tests check that only those used are). */
export const registeredLanguages = (): string[] => lowlight.listLanguages();
