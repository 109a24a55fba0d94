/**
 * base64url (RFC 4648 §5) without padding, the one encoding of signed cookies and flash
 * values. Decoding returns null for anything that is not base64url.
 */

/** Bytes → base64url text. */
export function toBase64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url text → bytes, or null when it is not base64url. */
export function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Uint8Array.from(atob(std + '='.repeat((4 - (std.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
