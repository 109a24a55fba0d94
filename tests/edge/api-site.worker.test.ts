/**
 * POST /api/site in workerd against the in-process reference (issue 13 site booking): only the
 * contact who proved the code books or cancels; form posts answer 303 back with a flash, JSON
 * answers the envelope; 20201 and 20202 come back named; the last place goes once under 40
 * parallel posts; someone else's code, a foreign `back`, malformed and huge bodies, a
 * cross-site post and HEAD are refused.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { decodeFlash, FLASH_COOKIE } from '../../src/lib/page/flash';
import { routePath } from '../../src/lib/core/routes';
import { ALL_VARIANTS } from '../../src/lib/core/variants';
import { BASE, SECRET, app, testEnv } from './api-lookup.helpers';

const IEAE = ALL_VARIANTS.find((v) => v.name === 'IEAE') ?? null;
const ONE = 'IWHBZIMYEOZETLFI';
const OTHER = 'F5IP7DURIP7EXQPG'; // several@demo.test's, expo 1308
const back = (euCode: string) => `${routePath({ screen: 'credential', variant: IEAE, params: { urlId: 21308, euCode, expoId: 1308, fId: 21308 } })}?f=t`;
const vcOf = (codes: string[]): VerifiedContact => ({ expoId: 1308, contact: 'one@demo.test', checkType: 2, codes });

async function post(body: Record<string, string> | string, opts: { codes?: string[] | null; json?: boolean; headers?: Record<string, string>; method?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = opts.json
    ? { 'content-type': 'application/json', accept: 'application/json' }
    : { 'content-type': 'application/x-www-form-urlencoded' };
  if (opts.codes !== null) headers['cookie'] = `${CONTACT_COOKIE}=${await signContact(vcOf(opts.codes ?? [ONE]), SECRET)}`;
  Object.assign(headers, opts.headers);
  const payload = typeof body === 'string' ? body : opts.json ? JSON.stringify(body) : new URLSearchParams(body).toString();
  return app.request(`${BASE}/api/site`, { method: opts.method ?? 'POST', headers, body: opts.method === 'HEAD' ? null : payload, redirect: 'manual' }, testEnv);
}

function flashOf(res: Response, path: string) {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${FLASH_COOKIE}=`)) ?? '';
  return decodeFlash(raw.split(';')[0]?.slice(FLASH_COOKIE.length + 1), path);
}

async function bookingsOf(euCode: string): Promise<{ id: number; site_date_id: number }[]> {
  const r = await testEnv.DB.prepare('SELECT id, site_date_id FROM site_bookings WHERE expo_id = 1308 AND eu_code = ? ORDER BY id').bind(euCode).all<{ id: number; site_date_id: number }>();
  return r.results;
}

describe('POST /api/site (issue 13)', () => {
  it('without JavaScript: book → 303 back with "booked"; again of the type → "already"; full → "full"; cancel → "cancelled"', async () => {
    const b = back(ONE);
    const booked = await post({ action: 'book', siteDateId: '5101', back: b });
    expect(booked.status).toBe(303);
    // back at the booking section (an action's anchor), the flash on the page itself
    expect(booked.headers.get('location')).toBe(`${b}#site`);
    expect(flashOf(booked, b)?.notice).toMatchObject({ tone: 'info', key: 'site.booked' });
    const [row] = await bookingsOf(ONE);
    expect(row?.site_date_id).toBe(5101);
    expect(flashOf(await post({ action: 'book', siteDateId: '5102', back: b }), b)?.notice).toMatchObject({ tone: 'error', key: 'site.already' });
    expect(flashOf(await post({ action: 'book', siteDateId: '5104', back: b }), b)?.notice).toMatchObject({ tone: 'error', key: 'site.full' });
    const cancelled = await post({ action: 'cancel', id: String(row?.id), back: b });
    expect(flashOf(cancelled, b)?.notice).toMatchObject({ tone: 'info', key: 'site.cancelled' });
    expect(await bookingsOf(ONE)).toEqual([]);
  });

  it('with JavaScript: the envelope, 20201 and 20202 by code', async () => {
    const b = back(ONE);
    const ok = await post({ action: 'book', siteDateId: '5105', back: b }, { json: true });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { code: number; data: { id: number } };
    expect(body.code).toBe(200);
    expect((await (await post({ action: 'book', siteDateId: '5105', back: b }, { json: true })).json()) as object).toMatchObject({ code: 20202 });
    expect((await (await post({ action: 'cancel', id: String(body.data.id), back: b }, { json: true })).json()) as object).toMatchObject({ code: 200 });
    expect((await (await post({ action: 'book', siteDateId: '5104', back: b }, { json: true })).json()) as object).toMatchObject({ code: 20201 });
  });

  it("someone else's code (not among the verified contact's codes), no cookie, another expo's cookie: 403, nothing booked", async () => {
    expect((await post({ action: 'book', siteDateId: '5102', back: back(OTHER) })).headers.get('location')).toBe(`${back(OTHER)}#site`);
    expect(flashOf(await post({ action: 'book', siteDateId: '5102', back: back(OTHER) }), back(OTHER))?.notice).toMatchObject({ key: 'site.verifyFirst' });
    expect((await post({ action: 'book', siteDateId: '5102', back: back(OTHER) }, { json: true })).status).toBe(403);
    expect((await post({ action: 'book', siteDateId: '5102', back: back(ONE) }, { json: true, codes: null })).status).toBe(403);
    const foreign = { expoId: 1216, contact: 'one@demo.test', checkType: 2 as const, codes: [ONE] };
    const res = await app.request(`${BASE}/api/site`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', cookie: `${CONTACT_COOKIE}=${await signContact(foreign, SECRET)}` }, body: JSON.stringify({ action: 'book', siteDateId: '5102', back: back(ONE) }) }, testEnv);
    expect(res.status).toBe(403);
    expect(await bookingsOf(OTHER)).toEqual([]);
    expect(await bookingsOf(ONE)).toEqual([]);
  });

  it('40 parallel books of the last place by 40 owners: exactly 1', async () => {
    const codes = Array.from({ length: 40 }, (_, i) => `LASTPLACE${String(i).padStart(3, '0')}`);
    await testEnv.DB.batch(codes.map((code) => testEnv.DB.prepare("INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime) VALUES (1308, 21308, ?, 'Load', 1, '2026-03-01 10:00:00')").bind(code)));
    const replies = await Promise.all(codes.map((code) => post({ action: 'book', siteDateId: '5103', back: back(code) }, { json: true, codes: [code] }).then((r) => r.json() as Promise<{ code: number }>)));
    expect(replies.filter((r) => r.code === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.code === 20201)).toHaveLength(39);
    const row = await testEnv.DB.prepare('SELECT booked, capacity FROM site_dates WHERE id = 5103').first();
    expect(row).toEqual({ booked: 10, capacity: 10 });
  });

  it.each([
    ['no action', { siteDateId: '5102', back: back(ONE) }],
    ['a non-numeric date', { action: 'book', siteDateId: '51x', back: back(ONE) }],
    ['a huge id', { action: 'book', siteDateId: '9'.repeat(40), back: back(ONE) }],
    ['cancel without id', { action: 'cancel', back: back(ONE) }],
  ])('%s: 400', async (_name, body) => {
    expect((await post(body as Record<string, string>, { json: true })).status).toBe(400);
  });

  it('a back that is not a credential page, or another site: 400, no redirect', async () => {
    for (const b of ['https://evil.example/x', '//evil.example/IEAESuccess/x', '/IEAESearch/21308/MTMwOA/visitor', '']) {
      const res = await post({ action: 'book', siteDateId: '5102', back: b });
      expect(res.status, b).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('malformed JSON, an oversized body, a cross-site post and HEAD are refused', async () => {
    expect((await post('{"action":', { json: true })).status).toBe(400);
    expect((await post({ action: 'book', siteDateId: '5102', back: back(ONE), pad: 'x'.repeat(4000) })).status).toBe(413);
    const cross = await post({ action: 'book', siteDateId: '5102', back: back(ONE) }, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(cross.status).toBe(403);
    expect((await post('', { method: 'HEAD' })).status).toBe(404);
    expect(await bookingsOf(ONE)).toEqual([]);
  });
});
