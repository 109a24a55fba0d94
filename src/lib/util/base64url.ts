/**
 * base64url (RFC 4648 §5) without padding, the one encoding of signed cookies and flash
 * values. Decoding returns null for anything that is not base64url.
 */
import { utf8OrNull } from './bytes';

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

/** A JSON value as base64url of its UTF-8 text (signed cookies, the flash, the sent-to cookie). */
export function jsonToBase64url(value: unknown): string {
  return toBase64url(new TextEncoder().encode(JSON.stringify(value)));
}

/** The value {@link jsonToBase64url} wrote; undefined when the text is not base64url, UTF-8 or JSON. */
export function jsonFromBase64url(text: string): unknown {
  const bytes = fromBase64url(text);
  const json = bytes ? utf8OrNull(bytes) : null;
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}
