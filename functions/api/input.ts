import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createT } from '../../src/i18n';
import type { Translate } from '../../src/i18n';
import { LANG_COOKIE, isLang, resolveLang, type Lang } from '../../src/lib/core/languages';
import { wantsJson } from './negotiate';

/**
 * A request's input, whether it came from an island (JSON) or a plain form post (no
 * JavaScript). Every value arrives as a string; schemas validate them next.
 */
export interface Input {
  /**
   * true when the caller wants JSON back (an island), false for the HTML answer of a form post
   * (303 back or on): `Accept` by its q-values, else JSON for a JSON body (./negotiate.ts)
   */
  json: boolean;
  fields: Record<string, string>;
  lang: Lang;
  t: Translate;
}

/** The media type of a Content-Type header, lower case, without parameters (RFC 9110 §8.3.1). */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Reads JSON or form bodies into string fields; a malformed body reads as empty (the schema then names what is missing). */
export async function readInput(c: Context): Promise<Input> {
  // Exactly application/json (any parameters after `;` aside): `text/plain; x=application/json`
  // is a "simple" type a cross-site page may send without a preflight.
  const json = mediaType(c.req.header('content-type')) === 'application/json';
  let raw: Record<string, unknown> = {};
  try {
    raw = json ? ((await c.req.json()) as Record<string, unknown>) : ((await c.req.parseBody()) as Record<string, unknown>);
  } catch {
    raw = {};
  }
  const fields: Record<string, string> = {};
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      if (typeof v === 'string') fields[k] = v;
      else if (typeof v === 'number' && Number.isFinite(v)) fields[k] = String(v);
    }
  }
  // The page's language when the form says it (hidden `pageLang`): a page whose expo forces a
  // language (spec §4, the page loader) gets its answers in that language, not the cookie's.
  const posted = fields['pageLang'];
  const lang = isLang(posted) ? posted : resolveLang(getCookie(c, LANG_COOKIE));
  return { json: wantsJson(c, json ? 'json' : 'html'), fields, lang, t: createT(lang) };
}
