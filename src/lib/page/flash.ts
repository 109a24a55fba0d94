/**
 * What a no-JavaScript form post carries back to the page it came from (303 See Other):
 * the values the visitor typed, the failing field and a notice. It rides in a short-lived
 * cookie, not in the URL, so contacts never land in logs or Referer headers; the page reads
 * it once and clears it. Nothing typed is lost through a failure.
 */
import { z } from 'zod';
import { jsonFromBase64url, jsonToBase64url } from '../util/base64url';

export const FLASH_COOKIE = 'flash';
/** Long enough for a slow 303 round trip on a bad network, short enough to never resurface later. */
export const FLASH_MAX_AGE_S = 120;

/** Longest text a flash keeps (a value, a message); longer ones are cut with an ellipsis. */
export const FLASH_MAX_TEXT = 320;
/** Longest page path a flash belongs to; the API never sends a visitor back to a longer one. */
export const FLASH_MAX_PATH = 1024;
/**
 * Largest encoded flash. Browsers keep a cookie of up to 4096 bytes (name, value and
 * attributes) and many proxies refuse replies whose headers pass 8 to 16 KB: a post with
 * hundreds of fields must not make a reply without headers.
 */
export const FLASH_MAX_BYTES = 3000;

const Text = z.string().max(FLASH_MAX_TEXT);

/** Most field errors a flash carries (a form's every failing field; forms have far fewer). */
export const FLASH_MAX_ERRORS = 40;

/**
 * A no-JS registration form's values kept while the visitor gets a new code: the
 * flash encoding in a cookie of its own, scoped to the form page's path and living as long as
 * a form window (src/lib/lookup/contact-cookie.ts FORM_WINDOW_S), removed by a successful registration.
 */
export const DRAFT_COOKIE = 'draft';
export const DRAFT_MAX_AGE_S = 30 * 60;

const FieldError = z.object({ field: z.string().max(64), key: z.string().max(64).nullable(), text: Text.nullable() });

export const Flash = z.object({
  /** the page path the flash belongs to: another page ignores it */
  path: z.string().max(FLASH_MAX_PATH),
  /** the form's values, by field name */
  values: z.record(z.string().max(64), Text).default({}),
  /** the failing field and its message key (or the server's message text) */
  error: FieldError.nullable().default(null),
  /** every failing field of a form post, in form order (the first is also `error`) */
  errors: z.array(FieldError).max(FLASH_MAX_ERRORS).optional(),
  /** a page-level notice: a catalogue key with vars, or the server's message text */
  notice: z
    .object({
      tone: z.enum(['info', 'error']),
      key: z.string().max(64).nullable(),
      vars: z.record(z.string().max(64), z.union([Text, z.number()])).default({}),
      text: Text.nullable(),
    })
    .nullable()
    .default(null),
  /**
   * the typed data of the action's outcome (src/lib/actions/outcome.ts), the same value an island
   * gets as the envelope's `data`; the page that reads it checks its shape (e.g. the gate's answer)
   */
  data: z.unknown().optional(),
});
export type Flash = z.infer<typeof Flash>;
export type FlashInput = z.input<typeof Flash>;

/**
 * A text cut to `max` characters for display, with an ellipsis when cut (an upstream message
 * of any length, spec §8's toast: a reply's headers stay small). Whitespace runs are collapsed.
 * @example displayText('a'.repeat(400), 10) // 'aaaaaaaaa…'
 */
export function displayText(text: string, max = FLASH_MAX_TEXT): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  // Cut in UTF-16 units (what the limits count), never between the halves of a surrogate pair.
  const head = t.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

/**
 * Encodes a flash for the cookie. It never throws: over-long texts are cut, and when the
 * whole would pass {@link FLASH_MAX_BYTES} the outcome's `data` is dropped first (a page that
 * reads it has no values to keep), then the field messages of `errors` from the last, then the
 * longest values (the page shows the rest; a form has far fewer and shorter
 * fields than that).
 */
export function encodeFlash(flash: FlashInput): string {
  const cut = (t: string | null | undefined) => (typeof t === 'string' ? displayText(t) : (t ?? null));
  const values = new Map(
    Object.entries(flash.values ?? {}).map(([k, v]) => [k.slice(0, 64), v.slice(0, FLASH_MAX_TEXT)] as const),
  );
  const fieldError = (e: NonNullable<FlashInput['error']>) => ({ field: e.field.slice(0, 64), key: e.key?.slice(0, 64) ?? null, text: cut(e.text) });
  const error = flash.error ? fieldError(flash.error) : null;
  const errors = (flash.errors ?? []).slice(0, FLASH_MAX_ERRORS).map(fieldError);
  const notice = flash.notice
    ? {
        ...flash.notice,
        key: flash.notice.key?.slice(0, 64) ?? null,
        text: cut(flash.notice.text),
        vars: Object.fromEntries(
          Object.entries(flash.notice.vars ?? {}).map(([k, v]) => [k.slice(0, 64), typeof v === 'string' ? displayText(v) : v]),
        ),
      }
    : null;
  const path = flash.path.slice(0, FLASH_MAX_PATH);
  let data = flash.data ?? null;
  const encode = () =>
    jsonToBase64url(
      Flash.parse({ path, values: Object.fromEntries(values), error, ...(errors.length > 0 ? { errors } : {}), notice, ...(data !== null ? { data } : {}) }),
    );
  let encoded = encode();
  if (encoded.length > FLASH_MAX_BYTES && data !== null) {
    data = null;
    encoded = encode();
  }
  // Over the limit: field messages go first (the next submit shows them again; `error` stays;
  // at most FLASH_MAX_ERRORS of them), then the longest values.
  while (encoded.length > FLASH_MAX_BYTES && errors.length > 0) {
    errors.pop();
    encoded = encode();
  }
  if (encoded.length <= FLASH_MAX_BYTES) return encoded;
  // What each value weighs is known without encoding again, so they go in one pass (a post
  // padded with hundreds of fields must not cost the Worker one encode per field), then the few
  // that an estimate can miss, one at a time.
  const utf8 = new TextEncoder();
  let excess = Math.ceil(((encoded.length - FLASH_MAX_BYTES) * 3) / 4);
  for (const [k, v] of [...values].sort((a, b) => b[1].length - a[1].length)) {
    if (excess <= 0) break;
    values.delete(k);
    excess -= utf8.encode(`${JSON.stringify(k)}:${JSON.stringify(v)},`).length;
  }
  for (;;) {
    encoded = encode();
    if (encoded.length <= FLASH_MAX_BYTES || values.size === 0) return encoded;
    let longest = '';
    for (const [k, v] of values) if (v.length >= (values.get(longest)?.length ?? -1)) longest = k;
    values.delete(longest);
  }
}

/** Reads a flash cookie for `path`; null when absent, malformed or for another page. */
export function decodeFlash(value: string | null | undefined, path: string): Flash | null {
  if (!value) return null;
  const parsed = Flash.safeParse(jsonFromBase64url(value));
  return parsed.success && parsed.data.path === path ? parsed.data : null;
}
