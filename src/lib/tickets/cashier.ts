/**
 * Reaching the payment provider's cashier. Pure: no Astro, React or Hono.
 *
 * A real provider's cashier lives on its own origin over https. The ticket form posts to
 * `/api/order`, and Chromium applies the page's CSP `form-action 'self'` to the redirect that
 * follows a form post, so a `303` to another origin is blocked and the buyer lands back on the
 * form. We keep `form-action 'self'` (no page admits an origin we cannot know in advance) and
 * answer such a post with a page of our own origin instead: a "continue to payment" link, and a
 * meta refresh that follows it at once. A navigation by link or refresh is not a form
 * submission, so no CSP directive governs it. A cashier on this site (the reference's payment
 * simulator) keeps its `303`. The organiser configures nothing: whatever http(s) `payUrl` its
 * `doUnifiedOrder` answers is reached.
 */
import { isSafeRedirectPath } from '../util/safe-redirect';

/** Where the buyer goes to pay: a path of this site (a plain 303) or a page on another origin. */
export type PayTarget = { kind: 'site'; location: string } | { kind: 'cashier'; url: string; host: string };

/**
 * Reads doUnifiedOrder's `payUrl`: a path of this site, or an absolute `http:`/`https:` URL
 * without credentials. Anything else (`javascript:`, `data:`, `//host`, spaces) is null: the
 * caller refuses it and logs it.
 * @example payTarget('/dev/pay/T1') // { kind: 'site', location: '/dev/pay/T1' }
 * @example payTarget('https://pay.example/c?o=1') // { kind: 'cashier', url: 'https://pay.example/c?o=1', host: 'pay.example' }
 * @example payTarget('javascript:alert(1)') // null
 */
export function payTarget(payUrl: string): PayTarget | null {
  const text = payUrl.trim();
  if (text.length === 0 || text.length > 4096 || /[\s\u0000-\u001f]/.test(text)) return null;
  if (text.startsWith('/')) return isSafeRedirectPath(text) ? { kind: 'site', location: text } : null;
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return null;
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username !== '' || u.password !== '') return null;
  return { kind: 'cashier', url: u.href, host: u.host };
}

/**
 * The absolute URL the provider returns the buyer to: this site's own origin (the request's,
 * which is https in production) and a path of it. A provider on its own host cannot resolve a
 * relative `returnUrl` against our site.
 * @example absoluteUrl('/ticketSuccess/1/MQ/visitor?orderNo=T1', 'https://expo.example/api/order') // 'https://expo.example/ticketSuccess/1/MQ/visitor?orderNo=T1'
 */
export function absoluteUrl(path: string, requestUrl: string): string {
  return new URL(path, new URL(requestUrl).origin).href;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

/**
 * The "continue to payment" page: the cashier's URL as a link and as a meta refresh (followed
 * at once, JavaScript or not), in the page's language. No script, no style beyond the
 * inline style attribute-free defaults, so the API's strict CSP fits it.
 */
export function handoffPage(p: { lang: string; title: string; lead: string; link: string; url: string }): string {
  const url = escapeHtml(p.url);
  return `<!doctype html>
<html lang="${escapeHtml(p.lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${url}">
<title>${escapeHtml(p.title)}</title></head>
<body><main><h1>${escapeHtml(p.title)}</h1><p>${escapeHtml(p.lead)}</p>
<p><a href="${url}" rel="noreferrer">${escapeHtml(p.link)}</a></p></main></body></html>`;
}
