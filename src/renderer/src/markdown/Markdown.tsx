// Renders an assistant reply as Markdown (react-markdown + GFM + highlight.js through lowlight,
// highlight.ts), one memoised component per top-level block (split-blocks.ts): while a reply
// streams only its last block is parsed again. Raw HTML from the model is shown as text and never
// reaches the DOM (no rehype-raw); links open outside the app (a new tab in the browser mode, the
// system browser in the desktop app, whose main process opens target=_blank links externally).
import { memo, useMemo, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Element, ElementContent } from 'hast';
import type { Root, RootContent } from 'mdast';
import { CopyButton } from './CopyButton';
import { rehypeLazyHighlight } from './highlight';
import { splitBlocks } from './split-blocks';

/** Markdown's raw HTML, block or inline, becomes literal text: visible, never parsed. */
function remarkHtmlAsText() {
  const visit = (node: Root | RootContent): void => {
    if (!('children' in node)) return;
    node.children = node.children.map((child) =>
      child.type === 'html' ? { type: 'text', value: child.value, position: child.position } : child,
    ) as typeof node.children;
    node.children.forEach(visit);
  };
  return (tree: Root) => visit(tree);
}

const REMARK_PLUGINS = [remarkGfm, remarkHtmlAsText];
const REHYPE_PLUGINS = [rehypeLazyHighlight];

function textOf(node: ElementContent | Element): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

const SAFE_LINK = /^(https?:|mailto:)/i;

const COMPONENTS: Components = {
  a: ({ href, children }) =>
    href && SAFE_LINK.test(href) ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span className="md-link-inert">{children}</span>
    ),
  // Remote images are not loaded (the CSP allows none, and a reply should not track its reader): a link instead.
  img: ({ src, alt }) =>
    typeof src === 'string' && SAFE_LINK.test(src) ? (
      <a href={src} target="_blank" rel="noopener noreferrer">
        {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
  pre: ({ node, children }) => <CodeBlock node={node}>{children}</CodeBlock>,
  // GFM task lists: a mark and its words for screen readers, not an unlabelled disabled checkbox.
  input: ({ type, checked }) => (type === 'checkbox' ? <TaskMark checked={Boolean(checked)} /> : null),
  table: ({ children }) => (
    <div className="md-table-scroll">
      <table>{children}</table>
    </div>
  ),
};

function TaskMark({ checked }: { checked: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="md-task">
      <span aria-hidden="true">{checked ? '☑' : '☐'}</span>
      <span className="visually-hidden">{checked ? t('chat.taskDone') : t('chat.taskOpen')}</span>{' '}
    </span>
  );
}

/** A fenced code block: its language, a Copy button (the code as written), the highlighted code. */
function CodeBlock({ node, children }: { node: Element | undefined; children: ReactNode }) {
  const { t } = useTranslation();
  const code = node?.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const language = (code?.properties.className as string[] | undefined)
    ?.find((c) => c.startsWith('language-'))
    ?.slice('language-'.length);
  return (
    <div className="md-code" data-testid="code-block">
      <div className="md-code-bar">
        <span className="md-code-lang">{language ?? ''}</span>
        <CopyButton
          text={code ? textOf(code).replace(/\n$/, '') : ''}
          testId="copy-code"
          ariaLabel={t('actions.copyCode')}
        />
      </div>
      <pre>{children}</pre>
    </div>
  );
}

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={REMARK_PLUGINS} rehypePlugins={REHYPE_PLUGINS} components={COMPONENTS}>
      {text}
    </ReactMarkdown>
  );
});

/** A reply's Markdown; `text` may grow between renders (a stream): only blocks whose text changed are parsed. */
export function Markdown({ text, ...rest }: { text: string } & Omit<ComponentProps<'div'>, 'children'>) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  return (
    <div className="markdown" {...rest}>
      {blocks.map((block) => (
        <MarkdownBlock key={block.start} text={block.text} />
      ))}
    </div>
  );
}
