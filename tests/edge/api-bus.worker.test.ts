/**
 * POST /api/bus and the bus pages in workerd against the in-process reference (spec §2.3 `/bus`,
 * `/busInfo`): only the contact who proved the code reserves or cancels; form posts answer 303 on
 * to `/busInfo` (reserved) or `/bus` (cancelled) with a flash, JSON answers the envelope; 20301 and
 * 20302 come back named; the last seat goes once under 40 parallel posts; someone else's code, a
 * foreign `back`, malformed and huge bodies, a cross-site post and HEAD/GET are refused.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_COOKIE, signContact, type VerifiedContact } from '../../src/lib/lookup/contact-cookie';
import { decodeFlash, FLASH_COOKIE } from '../../src/lib/page/flash';
import { routePath } from '../../src/lib/core/routes';
import { BASE, SECRET, app, testEnv } from './api-lookup.helpers';

const ONE = 'IWHBZIMYEOZETLFI'; // one@demo.test, expo 1308, registration 100001
const OTHER = 'XCOE6GON4WB4N6BR'; // +8613900139000's, expo 1308: holds the seeded reservation 1
const paramsOf = (euCode: string) => ({ urlId: 21308, euCode, expoId: 1308, fId: 21308, euUserId: 100001 });
const busOf = (euCode: string) => routePath({ screen: 'bus', which: 'bus', params: paramsOf(euCode) });
const infoOf = (euCode: string) => routePath({ screen: 'bus', which: 'busInfo', params: paramsOf(euCode) });
const vcOf = (codes: string[]): VerifiedContact => ({ expoId: 1308, contact: 'one@demo.test', checkType: 2, codes });

async function post(body: Record<string, string> | string, opts: { codes?: string[] | null; json?: boolean; headers?: Record<string, string>; method?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = opts.json
    ? { 'content-type': 'application/json', accept: 'application/json' }
    : { 'content-type': 'application/x-www-form-urlencoded' };
  if (opts.codes !== null) headers['cookie'] = `${CONTACT_COOKIE}=${await signContact(vcOf(opts.codes ?? [ONE]), SECRET)}`;
  Object.assign(headers, opts.headers);
  const payload = typeof body === 'string' ? body : opts.json ? JSON.stringify(body) : new URLSearchParams(body).toString();
  const bodyless = opts.method === 'HEAD' || opts.method === 'GET';
  return app.request(`${BASE}/api/bus`, { method: opts.method ?? 'POST', headers, body: bodyless ? null : payload, redirect: 'manual' }, testEnv);
}

function flashOf(res: Response, path: string) {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith(`${FLASH_COOKIE}=`)) ?? '';
  return decodeFlash(raw.split(';')[0]?.slice(FLASH_COOKIE.length + 1), path);
}

async function seatsOf(euCode: string): Promise<{ id: number; departure_id: number }[]> {
  const r = await testEnv.DB.prepare('SELECT id, departure_id FROM bus_reservations WHERE expo_id = 1308 AND eu_code = ? ORDER BY id').bind(euCode).all<{ id: number; departure_id: number }>();
  return r.results;
}

describe('POST /api/bus', () => {
  it('without JavaScript: reserve → 303 to /busInfo "reserved"; again on the line → "already"; full → "full"; cancel → 303 to /bus "cancelled"', async () => {
    const b = busOf(ONE);
    const reserved = await post({ action: 'reserve', departureId: '8102', stopId: '8012', back: b });
    expect(reserved.status).toBe(303);
    expect(reserved.headers.get('location')).toBe(infoOf(ONE));
    expect(flashOf(reserved, infoOf(ONE))?.notice).toMatchObject({ tone: 'info', key: 'bus.reserved' });
    const [row] = await seatsOf(ONE);
    expect(row?.departure_id).toBe(8102);
    const again = await post({ action: 'reserve', departureId: '8101', stopId: '8011', back: b });
    expect(again.headers.get('location')).toBe(b);
    expect(flashOf(again, b)?.notice).toMatchObject({ tone: 'error', key: 'bus.already' });
    expect(flashOf(await post({ action: 'reserve', departureId: '8104', stopId: '8021', back: b }), b)?.notice).toMatchObject({ tone: 'error', key: 'bus.full' });
    const cancelled = await post({ action: 'cancel', id: String(row?.id), back: infoOf(ONE) });
    expect(cancelled.headers.get('location')).toBe(b);
    expect(flashOf(cancelled, b)?.notice).toMatchObject({ tone: 'info', key: 'bus.cancelled' });
    expect(await seatsOf(ONE)).toEqual([]);
  });

  it('with JavaScript: the envelope, 20301 and 20302 by code', async () => {
    const b = busOf(ONE);
    const ok = await post({ action: 'reserve', departureId: '8105', stopId: '8022', back: b }, { json: true });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { code: number; data: { id: number } };
    expect(body.code).toBe(200);
    expect((await (await post({ action: 'reserve', departureId: '8105', stopId: '8022', back: b }, { json: true })).json()) as object).toMatchObject({ code: 20302 });
    expect((await (await post({ action: 'cancel', id: String(body.data.id), back: b }, { json: true })).json()) as object).toMatchObject({ code: 200 });
    expect((await (await post({ action: 'reserve', departureId: '8104', stopId: '8021', back: b }, { json: true })).json()) as object).toMatchObject({ code: 20301 });
  });

  it("someone else's code (not among the verified contact's codes), no cookie, another expo's cookie: 403, nothing changed", async () => {
    const res = await post({ action: 'cancel', id: '1', back: infoOf(OTHER) });
    expect(res.headers.get('location')).toBe(infoOf(OTHER));
    expect(flashOf(res, infoOf(OTHER))?.notice).toMatchObject({ key: 'bus.verifyFirst' });
    expect((await post({ action: 'reserve', departureId: '8102', stopId: '8011', back: busOf(OTHER) }, { json: true })).status).toBe(403);
    expect((await post({ action: 'cancel', id: '1', back: infoOf(OTHER) }, { json: true })).status).toBe(403);
    expect((await post({ action: 'reserve', departureId: '8102', stopId: '8011', back: busOf(ONE) }, { json: true, codes: null })).status).toBe(403);
    const foreign = { expoId: 1216, contact: 'one@demo.test', checkType: 2 as const, codes: [ONE] };
    const r = await app.request(`${BASE}/api/bus`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', cookie: `${CONTACT_COOKIE}=${await signContact(foreign, SECRET)}` }, body: JSON.stringify({ action: 'reserve', departureId: '8102', stopId: '8011', back: busOf(ONE) }) }, testEnv);
    expect(r.status).toBe(403);
    // The owner's own cookie cannot cancel another code's reservation through its own link either.
    expect((await (await post({ action: 'cancel', id: '1', back: infoOf(ONE) }, { json: true })).json()) as object).toMatchObject({ code: 404 });
    expect(await seatsOf(OTHER)).toHaveLength(1);
    expect(await seatsOf(ONE)).toEqual([]);
  });

  it('40 parallel reservations of the last seat by 40 owners: exactly 1', async () => {
    const codes = Array.from({ length: 40 }, (_, i) => `APIBUS${String(i).padStart(3, '0')}`);
    await testEnv.DB.batch(codes.map((code) => testEnv.DB.prepare("INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime) VALUES (1308, 21308, ?, 'Load', 1, '2026-03-01 10:00:00')").bind(code)));
    const replies = await Promise.all(codes.map((code) => post({ action: 'reserve', departureId: '8103', stopId: '8011', back: busOf(code) }, { json: true, codes: [code] }).then((r) => r.json() as Promise<{ code: number }>)));
    expect(replies.filter((r) => r.code === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.code === 20301)).toHaveLength(39);
    expect(await testEnv.DB.prepare('SELECT booked, capacity FROM bus_departures WHERE id = 8103').first()).toEqual({ booked: 40, capacity: 40 });
  });

  it.each([
    ['no action', { departureId: '8102', stopId: '8011', back: busOf(ONE) }],
    ['a non-numeric departure', { action: 'reserve', departureId: '81x', stopId: '8011', back: busOf(ONE) }],
    ['no stop', { action: 'reserve', departureId: '8102', back: busOf(ONE) }],
    ['a huge id', { action: 'reserve', departureId: '9'.repeat(40), stopId: '8011', back: busOf(ONE) }],
    ['cancel without id', { action: 'cancel', back: busOf(ONE) }],
  ])('%s: 400', async (_name, body) => {
    expect((await post(body as Record<string, string>, { json: true })).status).toBe(400);
  });

  it('a back that is not a whole bus link, or another site: 400, no redirect', async () => {
    for (const b of ['https://evil.example/bus', '//evil.example/bus/x', '/bus', busOf(ONE).split('/').slice(0, -1).join('/'), '/IEAESearch/21308/MTMwOA/visitor', '']) {
      const res = await post({ action: 'reserve', departureId: '8102', stopId: '8011', back: b });
      expect(res.status, b).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('malformed JSON, an oversized body, a cross-site post, HEAD and GET are refused', async () => {
    expect((await post('{"action":', { json: true })).status).toBe(400);
    expect((await post({ action: 'reserve', departureId: '8102', stopId: '8011', back: busOf(ONE), pad: 'x'.repeat(4000) })).status).toBe(413);
    const cross = await post({ action: 'reserve', departureId: '8102', stopId: '8011', back: busOf(ONE) }, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(cross.status).toBe(403);
    expect((await post('', { method: 'HEAD' })).status).toBe(404);
    expect((await post('', { method: 'GET' })).status).toBe(404);
    expect(await seatsOf(ONE)).toEqual([]);
  });
});
