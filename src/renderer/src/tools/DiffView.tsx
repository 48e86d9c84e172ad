// A unified diff, line by line, added and removed lines marked (for edit and write cards and the
// approval card). Plain text in, no HTML: lines are rendered as text nodes.
export function DiffView({ diff, testId }: { diff: string; testId?: string }) {
  const lines = diff.split('\n');
  return (
    // Focusable: it scrolls, and a keyboard must be able to scroll it (axe: scrollable-region-focusable).
    <pre className="tool-diff" data-testid={testId} tabIndex={0}>
      {lines.map((line, i) => {
        const kind = line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+')
            ? 'add'
            : line.startsWith('-')
              ? 'del'
              : 'ctx';
        return (
          <span key={i} className={`diff-line diff-${kind}`}>
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
