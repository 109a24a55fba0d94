/**
 * What a no-JavaScript form post carries back to the page it came from (303 See Other):
 * the values the visitor typed, the failing field and a notice. It rides in a short-lived
 * cookie, not in the URL, so contacts never land in logs or Referer headers; the page reads
 * it once and clears it. Nothing typed is lost through a failure.
 */
import { z } from 'zod';
import { fromBase64url, toBase64url } from './base64url';

export const FLASH_COOKIE = 'flash';
/** Long enough for a slow 303 round trip on a bad network, short enough to never resurface later. */
export const FLASH_MAX_AGE_S = 120;

const Text = z.string().max(320);

export const Flash = z.object({
  /** the page path the flash belongs to: another page ignores it */
  path: z.string().max(512),
  /** the form's values, by field name */
  values: z.record(z.string().max(64), Text).default({}),
  /** the failing field and its message key (or the server's message text) */
  error: z.object({ field: z.string().max(64), key: z.string().max(64).nullable(), text: Text.nullable() }).nullable().default(null),
  /** a page-level notice: a catalogue key with vars, or the server's message text */
  notice: z
    .object({
      tone: z.enum(['info', 'error']),
      key: z.string().max(64).nullable(),
      vars: z.record(z.string(), z.union([z.string().max(320), z.number()])).default({}),
      text: Text.nullable(),
    })
    .nullable()
    .default(null),
});
export type Flash = z.infer<typeof Flash>;
export type FlashInput = z.input<typeof Flash>;

function toB64url(text: string): string {
  return toBase64url(new TextEncoder().encode(text));
}

function fromB64url(text: string): string | null {
  const bytes = text === '' ? null : fromBase64url(text);
  if (!bytes) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Encodes a flash for the cookie; values longer than the limits are cut, never rejected. */
export function encodeFlash(flash: FlashInput): string {
  const values = Object.fromEntries(Object.entries(flash.values ?? {}).map(([k, v]) => [k.slice(0, 64), v.slice(0, 320)]));
  return toB64url(JSON.stringify(Flash.parse({ ...flash, values })));
}

/** Reads a flash cookie for `path`; null when absent, malformed or for another page. */
export function decodeFlash(value: string | null | undefined, path: string): Flash | null {
  if (!value) return null;
  const text = fromB64url(value);
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = Flash.safeParse(json);
  return parsed.success && parsed.data.path === path ? parsed.data : null;
}
