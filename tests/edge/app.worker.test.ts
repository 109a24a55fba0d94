import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { MESSAGES } from '../../src/i18n';

const app = createApp();
const testEnv = env as unknown as AppEnv;

function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return app.request(
    `https://expo.example${path}`,
    { method: 'POST', body: new URLSearchParams(form), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } },
    testEnv,
  );
}

describe('POST /api/lang (spec §1 language cookie)', () => {
  it('sets _h5_lang for 60 days on / and answers 303 to the same-origin back field', async () => {
    const res = await post('/api/lang', { lang: 'thai', back: '/ThaiSearch/8730/MTEwNg/visitor?f=a' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/ThaiSearch/8730/MTEwNg/visitor?f=a');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^_h5_lang=thai;/);
    expect(cookie).toContain('Max-Age=5184000');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Secure');
  });

  it('falls back to a same-origin Referer, then home, never another site', async () => {
    const viaReferer = await post('/api/lang', { lang: 'en' }, { referer: 'https://expo.example/a/b?c=1' });
    expect(viaReferer.headers.get('location')).toBe('/a/b?c=1');
    // A post from another site is refused outright (issue 9 hole 6); an off-site `back` goes home.
    const offsite = await post('/api/lang', { lang: 'en', back: 'https://evil.example/' }, { referer: 'https://evil.example/x' });
    expect(offsite.status).toBe(403);
    expect(offsite.headers.get('set-cookie')).toBeNull();
    const offsiteBack = await post('/api/lang', { lang: 'en', back: 'https://evil.example/' });
    expect(offsiteBack.headers.get('location')).toBe('/');
    const protocolRelative = await post('/api/lang', { lang: 'en', back: '//evil.example/' });
    expect(protocolRelative.headers.get('location')).toBe('/');
  });

  it.each(['zh', 'en', 'thai', 'vn', 'id', 'tw', 'ms'])('accepts %s', async (lang) => {
    const res = await post('/api/lang', { lang });
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^_h5_lang=${lang};`));
  });

  it('refuses an unknown language and sets nothing: a browser form post gets a page in its language with a link back (issue 14 item 5)', async () => {
    const res = await post('/api/lang', { lang: 'fr', back: '/IEAESearch/21308/MTMwOA/visitor' }, { cookie: '_h5_lang=thai' });
    expect(res.status).toBe(400);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<html lang="th">');
    expect(html).toContain(MESSAGES.thai['api.badLanguage']);
    expect(html).toContain('href="/IEAESearch/21308/MTMwOA/visitor"');
    // an off-site back is not offered
    const offsite = await (await post('/api/lang', { lang: '<x>', back: 'https://evil.example/' })).text();
    expect(offsite).toContain('href="/"');
    expect(offsite).not.toContain('<x>');
  });

  it('refuses an unknown language to a JSON caller as JSON, in the cookie language (zh by default)', async () => {
    for (const [cookie, lang] of [['', 'zh'], ['_h5_lang=en', 'en']] as const) {
      const res = await app.request(
        'https://expo.example/api/lang',
        { method: 'POST', body: JSON.stringify({ lang: 'fr' }), headers: { 'content-type': 'application/json', accept: 'application/json', cookie } },
        testEnv,
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await res.json()).toEqual({ code: 400, msg: MESSAGES[lang]['api.badLanguage'], data: null });
    }
  });
});

describe('security headers on every response (issue 1 §6)', () => {
  it.each([
    ['GET', '/api/health'],
    ['GET', '/api/nope'],
    ['POST', '/api/lang'],
  ])('%s %s', async (method, path) => {
    const res = await app.request(`https://expo.example${path}`, { method }, testEnv);
    const h = res.headers;
    expect(h.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(h.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(h.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(h.get('cache-control')).toBe('no-store');
  });

  it('an unknown API path is a JSON 404 that names it', async () => {
    const res = await app.request('https://expo.example/api/nope', {}, testEnv);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No API at /api/nope' });
  });
});
