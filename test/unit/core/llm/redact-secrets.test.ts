// The pure redaction of secrets from error text: known secrets wherever they stand, bearer tokens,
// provider-shaped keys and `api_key=` pairs we were never told about (in a query string, as
// `access_token: …`), a known key without its prefix or base64-encoded; ordinary text untouched.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../../../src/main/core/llm/redact-secrets';

describe('redactSecrets', () => {
  it('replaces every known secret, the longest first, and ignores ones too short to be keys', () => {
    expect(
      redactSecrets('key abc12345XYZ and abc12345XYZ-extended; word abc', [
        'abc12345XYZ',
        'abc12345XYZ-extended',
        'abc',
      ]),
    ).toBe(`key ${REDACTED} and ${REDACTED}; word abc`);
  });

  it.each([
    ['401: Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig rejected', `Bearer ${REDACTED} rejected`],
    ['Incorrect API key provided: sk-proj-AbCdEfGhIjKlMnOpQrSt1234.', `provided: ${REDACTED}.`],
    ['invalid x-api-key sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2', `x-api-key ${REDACTED}`],
    ['GET /v1beta/models?key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7 failed', `key=${REDACTED} failed`],
    ['{"api_key": "local-server-secret-42"}', `{"api_key": "${REDACTED}"}`],
  ])('finds key-shaped strings nobody named: %s', (text, expected) => {
    expect(redactSecrets(text, [])).toContain(expected);
  });

  it.each([
    ['GET /v1/models?api_key=abcdefgh12345678&page=2 failed', `GET /v1/models?api_key=${REDACTED}&page=2 failed`],
    [
      'token refused, access_token: ya29.a0AfH6SMBx-12345678 expired',
      `token refused, access_token: ${REDACTED} expired`,
    ],
    ['{"secret":"hunter2hunter2"}, "id": 7', `{"secret":"${REDACTED}"}, "id": 7`],
    ['Access-Token=AbCdEfGh9876; path=/', `Access-Token=${REDACTED}; path=/`],
    ['accesstoken = abcdefgh12345678,next', `accesstoken = ${REDACTED},next`],
    ['X-Goog-Api-Key: AbCdEfGh9876 apikey=ZyXwVuTs5432', `X-Goog-Api-Key: ${REDACTED} apikey=${REDACTED}`],
  ])('cuts a key=value pair exactly at its end: %s', (text, expected) => {
    expect(redactSecrets(text, [])).toBe(expected);
  });

  it('leaves a short value of a key-like name alone (not a secret, too short)', () => {
    expect(redactSecrets('api_key=short1 rejected', [])).toBe('api_key=short1 rejected');
  });

  const KEY = 'sk-proj-Q7wE9rT2yU4iO6pA8sD0fG1h';
  const BARE = 'Q7wE9rT2yU4iO6pA8sD0fG1h';

  it('writes "[redacted]" where a secret stood', () => {
    expect(REDACTED).toBe('[redacted]');
    expect(redactSecrets('Authorization: Bearer  eyJhbGciOiJIUzI1NiJ9 (two spaces)', [])).toBe(
      'Authorization: Bearer [redacted] (two spaces)',
    );
  });

  it('a known secret of exactly 8 characters is long enough to be one', () => {
    expect(redactSecrets('key abcd1234 refused', ['abcd1234'])).toBe(`key ${REDACTED} refused`);
  });

  it('finds a known key without its vendor prefix', () => {
    expect(redactSecrets(`the key ${BARE} is not valid`, [KEY])).toBe(`the key ${REDACTED} is not valid`);
    expect(redactSecrets(`key proj-${BARE} unknown`, [KEY])).toBe(`key ${REDACTED} unknown`);
  });

  it('a tail after "_" counts as a prefix-less key too', () => {
    const groq = 'gsk_W8eR4tY6uI2oP0aS3dF5gH7j';
    expect(redactSecrets('key W8eR4tY6uI2oP0aS3dF5gH7j rejected', [groq])).toBe(`key ${REDACTED} rejected`);
  });

  it('looks for tails only after a prefix near the start, and only long ones', () => {
    // A dash at index 19 ends a prefix; one at index 20 is inside the key's random part.
    const dashAt19 = 'abcdefghijklmnopqrs-ABCDEFGHIJKLMNOP';
    const dashAt20 = 'abcdefghijklmnopqrst-ABCDEFGHIJKLMNOP';
    expect(redactSecrets('got ABCDEFGHIJKLMNOP', [dashAt19])).toBe(`got ${REDACTED}`);
    expect(redactSecrets('got ABCDEFGHIJKLMNOP', [dashAt20])).toBe('got ABCDEFGHIJKLMNOP');
    // Tails of 16 characters count; of 15 they could be ordinary text.
    expect(redactSecrets('got ABCDEFGHIJKLMNOP', ['xai-ABCDEFGHIJKLMNOP'])).toBe(`got ${REDACTED}`);
    expect(redactSecrets('got ABCDEFGHIJKLMNO', ['xai-ABCDEFGHIJKLMNO'])).toBe('got ABCDEFGHIJKLMNO');
    // A piece of the key that no prefix ends before is not a spelling of it.
    expect(redactSecrets('got wE9rT2yU4iO6pA8sD0fG1h', [KEY])).toBe('got wE9rT2yU4iO6pA8sD0fG1h');
  });

  it('finds a known key base64-encoded, alone or inside a longer encoded text, at every alignment', () => {
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    expect(redactSecrets(`echo ${b64(KEY)}`, [KEY])).not.toContain(b64(KEY).slice(0, 40));
    for (const before of ['', 'u', 'us', 'use', 'user:']) {
      const encoded = b64(`${before}${KEY}"}`);
      const out = redactSecrets(`got ${encoded} back`, [KEY]);
      expect(out, before).toContain(REDACTED);
      // What stays is at most the characters that also encode the text around the key (and two of its bytes).
      const around = Math.ceil((before.length + 2) / 3) * 4 + 8;
      expect(out.length, before).toBeLessThanOrEqual(`got  back`.length + REDACTED.length + around);
    }
    const url = Buffer.from(`\xff\xfe${KEY}`, 'latin1').toString('base64url');
    expect(redactSecrets(url, [KEY])).toContain(REDACTED);
  });

  it('leaves ordinary error text alone', () => {
    const text = '503 Service Unavailable: the server is overloaded, retry after 20 s (request id req_011CSHxyz)';
    expect(redactSecrets(text, ['resolute-simulator-key'])).toBe(text);
  });

  it.each([
    ['connect http://alice:hunter2@host:8080/mcp failed', `connect http://${REDACTED}@host:8080/mcp failed`],
    ['https://ghp_abcdef@github.example/x', `https://${REDACTED}@github.example/x`],
    ['GET https://h/mcp?token=abc&page=2', `GET https://h/mcp?token=${REDACTED}&page=2`],
    [
      'wss://h/s?client_secret=x1&X-Amz-Signature=ff#top',
      `wss://h/s?client_secret=${REDACTED}&X-Amz-Signature=${REDACTED}#top`,
    ],
  ])('takes a URL’s credentials and key-named parameters of any length out: %s', (text, expected) => {
    expect(redactSecrets(text, [])).toBe(expected);
  });

  it('leaves URLs without secrets alone', () => {
    const text = 'see https://example.com/docs?page=2&lang=en and user@example.com';
    expect(redactSecrets(text, [])).toBe(text);
  });
});
