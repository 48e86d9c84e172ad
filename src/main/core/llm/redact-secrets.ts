// Takes secrets out of error text before the text enters the app: the guarded stream applies it to
// every provider error (a provider may echo the key it was sent), so nothing stored — history,
// decision log, exports — or sent — events to the window, RPC, extensions — can carry one. Pure:
// the known secrets (every stored key, the environment's, the run's) come in as an argument, and
// each is also looked for as a server may echo it: without its vendor prefix, and base64-encoded.

export const REDACTED = '[redacted]';

/** Shorter "secrets" (a test key like "abc") would blank out ordinary words. */
const MIN_KNOWN_SECRET_LENGTH = 8;
/** A key's tail after a prefix (`sk-proj-…` → `…`) is looked for on its own from this length: long enough to be random. */
const MIN_BARE_LENGTH = 16;
/** Prefixes end early in a key (`sk-ant-api03-` is the longest known): later dashes are inside the random part. */
const PREFIX_END_WITHIN = 20;

/** Shapes of secrets we may not know: bearer tokens, provider key prefixes, `api_key=…` pairs, a URL's credentials. */
const SHAPES: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // OpenAI and OpenRouter (sk-, sk-proj-, sk-or-), Anthropic (sk-ant-), Groq (gsk_), xAI (xai-).
  [/\b(?:sk|gsk|xai)[-_][A-Za-z0-9_-]{16,}/g, REDACTED],
  // Google API keys.
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  [
    /\b(x-api-key|x-goog-api-key|api[_-]?key|access[_-]?token|secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;}]{8,}/gi,
    `$1$2${REDACTED}`,
  ], // A URL's user and password (`https://user:pass@host`, `https://TOKEN@host`).
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`],
  // A URL's query parameter whose name says it is one (`?token=`, `&key=`, `client_secret=`, `X-Amz-Signature=`), of any length.
  [
    /([?&;][\w.-]*?(?:token|key|secret|password|passwd|pwd|auth|sig|signature|credential)s?[\w.-]*=)[^&#\s"'<>]+/gi,
    `$1${REDACTED}`,
  ],
];

/** The key without its prefix: every tail after a `-` or `_` near the start that is long enough to be random. */
function bareForms(secret: string): string[] {
  const tails: string[] = [];
  for (let i = 0; i < Math.min(secret.length, PREFIX_END_WITHIN); i += 1)
    if ((secret[i] === '-' || secret[i] === '_') && secret.length - i - 1 >= MIN_BARE_LENGTH)
      tails.push(secret.slice(i + 1));
  return tails;
}

/**
 * The key base64-encoded (standard and URL alphabets), also inside a longer encoded text
 * (`user:key` in a Basic header, a JSON body): at each of the three byte alignments, the run of
 * characters that only the key's own bytes determine. At most two bytes of the key stay beside it.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  // A known secret has 8 bytes or more, so each run covers 6 or more: 8 characters, never ordinary text.
  return [0, 1, 2].flatMap((offset) => {
    const part = bytes.subarray(offset);
    const whole = part.subarray(0, part.length - (part.length % 3));
    return [whole.toString('base64'), whole.toString('base64url')];
  });
}

const spellings = (secret: string): string[] => {
  const plain = [secret, ...bareForms(secret)];
  return [...plain, ...plain.flatMap(base64Forms)];
};

/** `text` with every known secret (as typed, without its prefix, base64-encoded) and every key-shaped string replaced by "[redacted]". */
export function redactSecrets(text: string, knownSecrets: Iterable<string>): string {
  // Longest first, so that a key containing another is replaced whole.
  const secrets = [
    ...new Set([...knownSecrets].filter((secret) => secret.length >= MIN_KNOWN_SECRET_LENGTH).flatMap(spellings)),
  ].sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of secrets) out = out.split(secret).join(REDACTED);
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  return out;
}
