/**
 * Registration codes (`euCode`): random and unguessable (docs/upstream.md "What the reference
 * upstream adds"). 16 characters of RFC 4648 base32 = 80 bits from the CSPRNG; 32 divides
 * 256, so masking each byte to 5 bits keeps every character equally likely.
 */

export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Length of a generated euCode. */
export const EU_CODE_LENGTH = 16;

/** A new random euCode, e.g. `K7Q2M4XTA9...` (16 base32 characters). */
export function newEuCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(EU_CODE_LENGTH));
  return Array.from(bytes, (b) => ALPHABET[b & 31] ?? 'A').join('');
}
