/**
 * "Forget this device": a shared or borrowed phone drops what it holds of its visitor. Every
 * cookie of ours is expired (src/lib/security/forget.ts: not the language; the gate keys this
 * device holds too), and
 * `Clear-Site-Data: "cache", "storage"` has the browser drop this origin's HTTP cache and
 * storage. With JavaScript the service worker also empties its caches when it sees this post.
 *
 * `back` names the page it came from; the answer goes to that expo's lookup, which says it is
 * done. From a page of no expo there is no page to go to: the notice has no `to`, and the route
 * answers a small page itself (functions/api/forget.ts).
 */
import { z } from 'zod';
import { CLEAR_SITE_DATA, FORGET_COOKIES, forgetTarget, gateCookiesOf } from '../security/forget';
import { pickBackPath } from '../util/safe-redirect';
import { defineAction, type ActionOutcome, type CookieWrite } from './outcome';

const Input = z.object({ back: z.string().default('') });

export const forget = defineAction({
  path: '/api/forget',
  // `back` and the page language
  bodyLimit: 2 * 1024,
  input: Input,
  back: (fields, ctx) => pickBackPath([fields['back'] ?? null, ctx.referer], ctx.origin),
  async run(input, _ports: null, ctx): Promise<ActionOutcome<{ location: string }>> {
    const target = forgetTarget(pickBackPath([input.back, ctx.referer], ctx.origin));
    // The flash goes too; a form post's answer brings a fresh one with the done message (functions/api/action.ts).
    const cookies: CookieWrite[] = [...FORGET_COOKIES, ...target.drafts, ...gateCookiesOf(Object.keys(ctx.cookies))]
      .map((cookie) => ({ name: cookie.name, value: null, path: cookie.path }));
    const done = { tone: 'info' as const, key: 'forget.done', text: null };
    return {
      kind: 'notice',
      notice: done,
      values: {},
      ...(target.lookup !== null ? { to: target.lookup } : {}),
      cookies,
      headers: { 'clear-site-data': CLEAR_SITE_DATA, 'cache-control': 'no-store' },
      data: { location: target.lookup ?? '/' },
    };
  },
});
