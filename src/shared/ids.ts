// Ids the app mints for sessions, turns, retry chains and decisions: 96 random bits written as 16
// URL-safe characters. A UUID's 36 characters are stored in every turn row and again in its indexes
// (docs/performance.md, "The history at a million turns"); ids made before are UUIDs and stay
// valid: an id is any non-empty string to every reader.

const ID_BYTES = 12;

export function newId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(ID_BYTES));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}
