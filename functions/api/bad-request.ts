/**
 * A request the edge API cannot use: a short sentence in the request's
 * language, never a schema dump (no field paths, no zod messages: those go to nobody). JSON
 * callers (islands, scripts) get `{ code: 400, msg, data: null }`; a browser's plain form post
 * gets a small HTML page with the sentence and a link back, since a no-JS visitor would
 * otherwise be left looking at bare JSON.
 */
import type { Context } from 'hono';
import { htmlLang, type Lang } from '../../src/lib/core/languages';
import { pickBackPath } from '../../src/lib/util/safe-redirect';

/** What the answer needs of the request (functions/api/input.ts `Input` has it all). */
export interface BadRequestInput {
  json: boolean;
  lang: Lang;
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/**
 * Answers 400 with `msg`, as JSON or as an HTML page.
 * @param back the page to offer a link back to (a same-origin path is kept, anything else is home)
 * @param backLabel the link's text in the request's language
 */
export function badRequest(c: Context, input: BadRequestInput, msg: string, backLabel: string, back?: string | null): Response {
  if (input.json) return c.json({ code: 400, msg, data: null }, 400);
  const origin = new URL(c.req.url).origin;
  const href = pickBackPath([back ?? null, c.req.header('referer')], origin);
  const html = `<!doctype html>
<html lang="${htmlLang(input.lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(msg)}</title></head>
<body><main><p role="alert">${escapeHtml(msg)}</p><p><a href="${escapeHtml(href)}">${escapeHtml(backLabel)}</a></p></main></body>
</html>
`;
  return c.html(html, 400);
}
