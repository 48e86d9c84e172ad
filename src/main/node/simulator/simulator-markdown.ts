// The simulator's Markdown-rich replies, so a new user sees rendering on the first run and the
// tests have something to render: a prompt that mentions "markdown" gets MARKDOWN_REPLY; one that
// mentions "raw html" gets RAW_HTML_REPLY, whose HTML and javascript: links must show as text and
// never run (README, "Scripting the simulator"). Used by replyText in simulator-replies.ts.

export const MARKDOWN_REPLY = `# Markdown from the simulator

Replies render as **Markdown**: *emphasis*, \`inline code\`, ~~strikethrough~~ and [links](https://example.com/resolute) that open in your browser.

## Lists

- Headings, paragraphs and quotes
- Ordered and unordered lists
  - nested items
- Tables, code blocks and task lists

1. Send a message
2. Watch it stream
3. Copy a code block

- [x] render Markdown as it streams
- [ ] guess the next prompt

## A table

| Category | Retried | Backoff |
| :-- | :-: | --: |
| rate_limit | yes | exponential + jitter |
| server_error | yes | exponential |
| auth | no | — |

## A code block

\`\`\`ts
// Each wait doubles, capped at the maximum delay.
export function backoffMs(attempt: number, baseMs = 2000, maxMs = 60_000): number {
  return Math.min(baseMs * 2 ** (attempt - 1), maxMs);
}
\`\`\`

> The same prompt always gets the same answer: the simulator is deterministic.
`;

export const RAW_HTML_REPLY = `Raw HTML in a reply shows as text and never runs:

<img src="x" onerror="document.title = 'xss-img'">

<script>document.title = 'xss-script'</script>

Inline <b onclick="document.title = 'xss-b'">bold tag</b> and a [javascript: link](javascript:document.title='xss-link').
`;

/** The Markdown reply a prompt asks for, or null for the usual one. */
export function markdownReplyFor(userText: string): string | null {
  if (/raw html/i.test(userText)) return RAW_HTML_REPLY;
  if (/markdown/i.test(userText)) return MARKDOWN_REPLY;
  return null;
}
