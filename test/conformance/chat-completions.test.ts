// Conformance: the Chat Completions shapes an OpenAI-compatible server or gateway (LiteLLM, vLLM,
// a company proxy) sends, over real HTTP through the openai SDK on pi-ai's openai-completions path,
// the app started as `--base-url <simulator> --api-key K`. Every row cites where its shape comes from.
import { describeTable, type Row } from './harness';

const PERSON_KEY = 'sk-person-7777';

const ROWS: ReadonlyArray<readonly [string, Row]> = [
  // huggingface/huggingface_hub#2558 (an HTTP 200 whose stream carries the error) and the openai SDK's
  // Stream, which throws on a `data: {"error": …}` chunk — server_error after a 200 is retried.
  [
    'data: {"error": server_error} mid-stream',
    { script: 'stream_error*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // router-for-me/CLIProxyAPI#1666, james-6-23/codex2api#9 — 429 usage_limit_reached passed through a
  // gateway, with resets_in_seconds; the only key is the person's, so it is retried with it (never
  // with the built-in placeholder key).
  [
    '429 usage_limit_reached through a gateway',
    { script: 'usage_limit:0.05*', category: 'usage_limit', hint: 50, decision: 'retry', requests: 4 },
  ],
  // n3d1117/chatgpt-telegram-bot#637 — an HTML 502 page from the proxy
  [
    '502 HTML page from a proxy',
    { script: 'proxy_502*', category: 'server_error', hint: null, decision: 'retry', requests: 4 },
  ],
  // https://platform.openai.com/docs/guides/error-codes — 429 rate_limit_exceeded, then an answer
  ['429 then an answer', { script: '429:0.05,ok', category: 'rate_limit', hint: 50, decision: 'retry', requests: 2 }],
];

describeTable(
  'Chat Completions through an OpenAI-compatible base URL — real error shapes',
  'openai-compatible',
  'openai-chat',
  ROWS,
  PERSON_KEY,
);
