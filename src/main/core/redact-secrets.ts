// Takes secrets out of error text before the text enters the app: the guarded stream applies it to
// every provider error (a provider may echo the key it was sent), so nothing stored — history,
// decision log, exports — or sent — events to the window, RPC, extensions — can carry one. Pure:
// the known secrets (every stored key, the environment's, the run's) come in as an argument.

export const REDACTED = '[redacted]';

/** Shorter "secrets" (a test key like "abc") would blank out ordinary words. */
const MIN_KNOWN_SECRET_LENGTH = 8;

/** Shapes of secrets we may not know: bearer tokens, provider key prefixes, `api_key=…` pairs. */
const SHAPES: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // OpenAI and OpenRouter (sk-, sk-proj-, sk-or-), Anthropic (sk-ant-), Groq (gsk_), xAI (xai-).
  [/\b(?:sk|gsk|xai)[-_][A-Za-z0-9_-]{16,}/g, REDACTED],
  // Google API keys.
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  [
    /\b(x-api-key|x-goog-api-key|api[_-]?key|access[_-]?token|secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;}]{8,}/gi,
    `$1$2${REDACTED}`,
  ],
];

/** `text` with every known secret and every key-shaped string replaced by "[redacted]". */
export function redactSecrets(text: string, knownSecrets: Iterable<string>): string {
  // Longest first, so that a key containing another is replaced whole.
  const secrets = [...new Set(knownSecrets)]
    .filter((secret) => secret.length >= MIN_KNOWN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  return out;
}
