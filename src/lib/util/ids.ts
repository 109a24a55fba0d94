/**
 * The one encoding of ids in URLs (urlId, euCode, expoId, eid): DESIGN.md "Ids in URLs".
 * base64url of the UTF-8 text without padding (`1308` → `MTMwOA`). Decoding also accepts
 * standard base64 with padding and, for older links, a plain decimal.
 */

import { utf8OrNull } from './bytes';

const encoder = new TextEncoder();

/**
 * Encodes an id for a URL path segment.
 * @example encodeId(1308) // 'MTMwOA'
 */
export function encodeId(id: string | number): string {
  const bytes = encoder.encode(String(id));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes an id from a URL path segment; `null` when it is not a valid encoding.
 * A plain decimal is taken as is (older links); anything else must be base64(url).
 * @example decodeId('MTMwOA') // '1308'
 */
export function decodeId(segment: string | undefined | null): string | null {
  if (segment == null) return null;
  const s = segment.trim();
  if (s === '') return null;
  // The base64 of a decimal id always contains letters, so an all-digit segment is an
  // older link's plain decimal.
  if (/^\d{1,12}$/.test(s)) return s;
  const std = s.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(std)) return null;
  const padded = std.replace(/=+$/, '') + '='.repeat((4 - (std.replace(/=+$/, '').length % 4)) % 4);
  if (padded.length % 4 === 1) return null;
  try {
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const text = utf8OrNull(bytes);
    if (text === null || text === '' || /[\u0000-\u001f]/.test(text)) return null;
    return text;
  } catch {
    return null;
  }
}

/** Decodes an id that must be a positive decimal number (expo ids, url ids). */
export function decodeNumericId(segment: string | undefined | null): number | null {
  const text = decodeId(segment);
  if (text == null || !/^\d{1,12}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
