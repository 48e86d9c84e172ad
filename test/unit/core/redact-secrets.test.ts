// The pure redaction of secrets from error text: known secrets wherever they stand, bearer tokens,
// provider-shaped keys and `api_key=` pairs we were never told about; ordinary text untouched.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../../src/main/core/redact-secrets';

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

  it('leaves ordinary error text alone', () => {
    const text = '503 Service Unavailable: the server is overloaded, retry after 20 s (request id req_011CSHxyz)';
    expect(redactSecrets(text, ['resolute-simulator-key'])).toBe(text);
  });
});
