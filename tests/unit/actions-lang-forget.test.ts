/** The language switch, "forget this device" and the limits' refusal, in node. */
import { describe, expect, it } from 'vitest';
import { lang } from '../../src/lib/actions/lang';
import { forget } from '../../src/lib/actions/forget';
import { limitOutcome } from '../../src/lib/actions/limits';
import { jsonOf, type ActionContext } from '../../src/lib/actions/outcome';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE_S } from '../../src/lib/core/languages';
import { FLASH_COOKIE } from '../../src/lib/page/flash';
import { CLEAR_SITE_DATA } from '../../src/lib/security/forget';

const t: ActionContext['t'] = (k, v) => `${k}${v ? JSON.stringify(v) : ''}`;
const ctx = (over: Partial<ActionContext> = {}): ActionContext => ({ lang: 'en', t, json: false, origin: 'https://expo.test', referer: null, cookies: {}, now: 0, ...over });

describe('lang', () => {
  it('a language: the cookie (readable, 60 days) and back to the page', async () => {
    const o = await lang.run(lang.input.parse({ lang: 'thai', back: '/a?b=1' }), null, ctx());
    expect(o).toEqual({ kind: 'navigate', location: '/a?b=1', cookies: [{ name: LANG_COOKIE, value: 'thai', maxAge: LANG_COOKIE_MAX_AGE_S, script: true }] });
  });
  it('without back: the same-origin Referer, never another site', async () => {
    expect(await lang.run(lang.input.parse({ lang: 'en' }), null, ctx({ referer: 'https://expo.test/x' }))).toMatchObject({ location: '/x' });
    expect(await lang.run(lang.input.parse({ lang: 'en', back: 'https://evil.test/' }), null, ctx())).toMatchObject({ location: '/' });
    expect(lang.back({ back: '//evil.test' }, ctx())).toBe('/');
  });
  it('not a language: a broken request in the page language', async () => {
    expect(await lang.run(lang.input.parse({ lang: 'fr' }), null, ctx())).toEqual({ kind: 'broken', message: 'api.badLanguage' });
  });
});

describe('forget', () => {
  const LOOKUP = '/IEAESearch/21308/MTMwOA/visitor';
  it("from an expo's page: every cookie expired (the flash too: a form post's answer brings a fresh one), the done notice on its lookup", async () => {
    const o = await forget.run(forget.input.parse({ back: LOOKUP }), null, ctx());
    expect(o).toMatchObject({ kind: 'notice', notice: { key: 'forget.done' }, to: LOOKUP, headers: { 'clear-site-data': CLEAR_SITE_DATA, 'cache-control': 'no-store' } });
    expect(o.cookies?.every((c) => c.value === null)).toBe(true);
    expect(o.cookies?.some((c) => c.name === FLASH_COOKIE)).toBe(true);
    expect(o.cookies?.some((c) => c.name === 'draft')).toBe(true);
  });
  it('to an island: JSON with the lookup, the flash expired too', async () => {
    const o = await forget.run(forget.input.parse({ back: LOOKUP }), null, ctx({ json: true }));
    expect(jsonOf(o, t).body).toEqual({ code: 200, msg: 'forget.done', data: { location: LOOKUP } });
    expect(o.cookies?.some((c) => c.name === FLASH_COOKIE)).toBe(true);
  });
  it('from a page of no expo: no page to go to (the route answers a small page), JSON says home', async () => {
    const o = await forget.run(forget.input.parse({ back: '/' }), null, ctx());
    expect(o.kind === 'notice' && o.to).toBeFalsy();
    expect(jsonOf(o, t).body).toMatchObject({ data: { location: '/' } });
  });
});

describe('limitOutcome', () => {
  it('code 600 with the wait; 429 and Retry-After, or 503 without', () => {
    const o = limitOutcome({ status: 429, retryAfterS: 42, key: 'limit.networkSeconds', vars: { n: 42 } });
    expect(jsonOf(o, t)).toEqual({ status: 429, body: { code: 600, msg: 'limit.networkSeconds{"n":42}', data: null } });
    expect(o).toMatchObject({ kind: 'notice', notice: { tone: 'error', key: 'limit.networkSeconds', vars: { n: 42 } }, headers: { 'retry-after': '42' } });
    expect(limitOutcome({ status: 503, retryAfterS: null, key: 'limit.sendBusy' as never, vars: { n: 0 } }).headers).toEqual({});
  });
});
