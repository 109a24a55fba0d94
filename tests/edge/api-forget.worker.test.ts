/**
 * POST /api/forget in workerd (issue 19 item 3, "forget this device"), as an attacker and as a
 * visitor on a shared phone would use it: every cookie of ours expired on its own path (the form
 * drafts of the expo too), `Clear-Site-Data: "cache", "storage"`, 303 to the expo's lookup with
 * the done message in the page language. A cross-site post, a HEAD or GET, a huge or malformed
 * body clear nothing.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { decodeFlash, DRAFT_COOKIE, FLASH_COOKIE } from '../../src/lib/page/flash';
import { FORGET_COOKIES } from '../../src/lib/security/forget';
import { routePath } from '../../src/lib/core/routes';
import { variantByExpoId } from '../../src/lib/core/variants';
import { MESSAGES } from '../../src/i18n/index';
import { BASE, SECRET, app, testEnv } from './api-lookup.helpers';

const IEAE = variantByExpoId(1308);
const ids = { fId: 21308, expoId: 1308, ty: 'visitor' };
const LOOKUP = routePath({ screen: 'search', variant: IEAE, params: ids });
const CREDENTIAL = `${routePath({ screen: 'credential', variant: IEAE, params: { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 } })}?f=x`;
const FORM = routePath({ screen: 'form', route: IEAE?.form ?? 'form', params: ids });

async function cookies(): Promise<string> {
  const vc = await signContact({ expoId: 1308, contact: 'one@demo.test', checkType: 2, codes: ['IWHBZIMYEOZETLFI'] }, SECRET);
  return [`${CONTACT_COOKIE}=${vc}`, 'sentTo=WzEzMDgsMiwiIiwiIiwib25lQGRlbW8udGVzdCJd', 'sent=1', 'pledge=x', 'oid=openid-of-someone', '_h5_lang=en'].join('; ');
}

async function post(body: string, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
  return app.request(
    `${BASE}/api/forget`,
    { method, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE, cookie: await cookies(), ...headers }, body: method === 'POST' ? body : null, redirect: 'manual' },
    testEnv,
  );
}

/** The cookies a reply expires (`Max-Age=0`), as `name path`. */
const expired = (res: Response) =>
  res.headers
    .getSetCookie()
    .filter((c) => /max-age=0/i.test(c))
    .map((c) => `${c.split('=')[0]} ${/path=([^;]+)/i.exec(c)?.[1] ?? ''}`);

describe('POST /api/forget', () => {
  it('from the credential page: every cookie of ours expired, Clear-Site-Data, 303 to the lookup saying it is done', async () => {
    const res = await post(new URLSearchParams({ back: CREDENTIAL, pageLang: 'en' }).toString());
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(LOOKUP);
    expect(res.headers.get('clear-site-data')).toBe('"cache", "storage"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const gone = expired(res);
    for (const c of FORGET_COOKIES) if (c.name !== FLASH_COOKIE) expect(gone, c.name).toContain(`${c.name} ${c.path}`);
    expect(gone).toContain(`${DRAFT_COOKIE} ${FORM}`);
    // the language stays
    expect(res.headers.getSetCookie().some((c) => c.startsWith('_h5_lang='))).toBe(false);
    const flash = res.headers.getSetCookie().find((c) => c.startsWith(`${FLASH_COOKIE}=`)) ?? '';
    expect(decodeFlash(flash.split(';')[0]?.slice(FLASH_COOKIE.length + 1), LOOKUP)?.notice).toMatchObject({ key: 'forget.done' });
  });

  it('the gate keys this device holds go too (gate_{expoId}, path /; issue 23 review), whatever else is in the jar', async () => {
    const jar = `${await cookies()}; gate_1308=${'k'.repeat(43)}; gate_1106=${'j'.repeat(43)}; gate_x=1; notgate_1308=1`;
    const res = await post(new URLSearchParams({ back: LOOKUP }).toString(), { cookie: jar });
    expect(res.status).toBe(303);
    const gone = expired(res);
    expect(gone).toEqual(expect.arrayContaining(['gate_1308 /', 'gate_1106 /']));
    expect(gone.filter((c) => c.includes('gate_')).sort()).toEqual(['gate_1106 /', 'gate_1308 /']);
  });

  it('JSON: the done message in the page language', async () => {
    const res = await post(JSON.stringify({ back: LOOKUP, pageLang: 'thai' }), { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 200, msg: MESSAGES.thai['forget.done'], data: { location: LOOKUP } });
    expect(res.headers.get('clear-site-data')).toBe('"cache", "storage"');
  });

  it('from a page of no expo (or a foreign back): still forgets, and a small page says so', async () => {
    for (const back of ['/', 'https://evil.example/IEAESearch/21308/MTMwOA/visitor', '//evil.example/x']) {
      const res = await post(new URLSearchParams({ back, pageLang: 'vn' }).toString(), { referer: '' });
      expect(res.status, back).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain(MESSAGES.vn['forget.done']);
      expect(expired(res)).toContain(`${CONTACT_COOKIE} /`);
    }
  });

  it('a cross-site post (Origin, or only a Referer, of another site; Origin null): 403 and nothing cleared', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, { origin: '', referer: 'https://evil.example/page' }, { origin: 'null' }]) {
      const res = await post(new URLSearchParams({ back: LOOKUP }).toString(), headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(res.headers.get('clear-site-data')).toBeNull();
    }
  });

  it('GET and HEAD: 405 with Allow: POST, nothing cleared (no link or prefetch forgets)', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await post('', {}, method);
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(res.headers.get('clear-site-data')).toBeNull();
    }
  });

  it('a huge body: 413 and nothing cleared; a malformed one still forgets', async () => {
    const huge = await post(`back=${'x'.repeat(1_000_000)}`);
    expect(huge.status).toBe(413);
    expect(huge.headers.getSetCookie()).toEqual([]);
    expect(huge.headers.get('clear-site-data')).toBeNull();
    const malformed = await post('%%%&&&=', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(200);
    expect(expired(malformed)).toContain(`${CONTACT_COOKIE} /`);
  });

  it('40 at once: every reply forgets completely', async () => {
    const replies = await Promise.all(Array.from({ length: 40 }, () => post(new URLSearchParams({ back: LOOKUP }).toString())));
    for (const res of replies) {
      expect(res.status).toBe(303);
      expect(expired(res)).toEqual(expect.arrayContaining(FORGET_COOKIES.filter((c) => c.name !== FLASH_COOKIE).map((c) => `${c.name} ${c.path}`)));
    }
  });
});
