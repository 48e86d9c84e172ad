// The chat's seam to the Markdown renderer (Markdown.tsx: react-markdown, GFM, highlight.js),
// which is a chunk of its own: the first window does not load it before the composer is ready.
// main.tsx preloads it once the page is idle; a reply that comes first shows as plain text for
// the moment the chunk takes. Used by MessageBubble and PartialReplyView.
import { Suspense, lazy, type ComponentProps } from 'react';

type MarkdownProps = { text: string } & Omit<ComponentProps<'div'>, 'children'>;

type MarkdownComponent = (props: MarkdownProps) => React.JSX.Element;

function PlainText({ text, ...rest }: MarkdownProps) {
  return (
    <div {...rest}>
      <p className="md-plain">{text}</p>
    </div>
  );
}

let loading: Promise<{ default: MarkdownComponent }> | null = null;

/** Starts loading the chunk (once); the component below waits for the same load. */
export function preloadMarkdown(): Promise<{ default: MarkdownComponent }> {
  // A chunk that cannot load (the browser mode's server gone) leaves replies as plain text, not a broken chat.
  loading ??= import('./Markdown').then(
    (m) => ({ default: m.Markdown }),
    () => ({ default: PlainText }),
  );
  return loading;
}

const LoadedMarkdown = lazy(preloadMarkdown);

export function Markdown(props: MarkdownProps) {
  return (
    <Suspense fallback={<PlainText {...props} />}>
      <LoadedMarkdown {...props} />
    </Suspense>
  );
}
