/**
 * The gate's server half in workerd (README "The gate"): staff keys (STAFF D1), the staff link,
 * `/api/gate/{scan,sync,list}` and the scans' CSV. Without a valid key of the expo — none, another
 * expo's, revoked, expired — every gate route and call answers exactly what a path that does not
 * exist answers (status and body; here the Hono app without Astro, so a page path's not-found is
 * the app's 404: tests/e2e/gate.spec.ts compares the real not-found page). 40 parallel scans of a
 * maxCount 1 code at two gates admit one; sync reports a double entry; bodies and origins are refused.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { createGateKey, forgetGateKeyMemo, revokeGateKey } from '../../functions/staff/keys';
import { GATE_SYNC_MAX, type GateAnswer, type GateList, type GateSynced } from '../../src/lib/gate/types';
import { MESSAGES } from '../../src/i18n';
import { FAKE_BASE, installFakeUpstream } from './fake-upstream';

const app = createApp();
const testEnv = env as unknown as AppEnv;
const ORIGIN = 'https://expo.example';
const EID = 'MTMwOA'; // 1308
const EID_1106 = 'MTEwNg';
const ONCE = 'PF4R5MHUHIPEQBHR'; // 1308, maxCount 1 (SEED.md "Check-in")
const REVIEW = 'AR7OY5Q6XIPMQUBJ';
const UNLIMITED = 'XCOE6GON4WB4N6BR';
const OF_1106 = 'MMN6R4ECDU5ZN4EI';

const keys = { gate1: '', gate2: '', other: '', revoked: '', expired: '' };

beforeAll(async () => {
  const hour = 3600_000;
  keys.gate1 = (await createGateKey(testEnv.STAFF, { expoId: 1308, gate: 'Gate 1', expiresAt: Date.now() + hour })).key;
  keys.gate2 = (await createGateKey(testEnv.STAFF, { expoId: 1308, gate: '=HYPERLINK("http://evil.example","x")', expiresAt: Date.now() + hour })).key;
  keys.other = (await createGateKey(testEnv.STAFF, { expoId: 1106, gate: 'Bangkok 1', expiresAt: Date.now() + hour })).key;
  const revoked = await createGateKey(testEnv.STAFF, { expoId: 1308, gate: 'Gone', expiresAt: Date.now() + hour });
  await revokeGateKey(testEnv.STAFF, revoked.id);
  keys.revoked = revoked.key;
  keys.expired = (await createGateKey(testEnv.STAFF, { expoId: 1308, gate: 'Late', expiresAt: Date.now() - 1000, now: Date.now() - hour })).key;
});

const cookieOf = (key: string, expoId = 1308) => `gate_${expoId}=${key}`;

async function req(path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('cookie', init.cookie);
  return app.request(`${ORIGIN}${path}`, { ...init, headers }, testEnv);
}
const json = (path: string, body: unknown, cookie?: string, headers: Record<string, string> = {}) =>
  req(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers }, ...(cookie ? { cookie } : {}) });
const form = (path: string, fields: Record<string, string>, cookie?: string) =>
  req(path, { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' }, ...(cookie ? { cookie } : {}) });

/** Status and body, the parts compared with a path that does not exist. */
async function shape(res: Response) {
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type'), cookie: res.headers.get('set-cookie') };
}

describe('without a valid key of the expo, the gate does not exist', () => {
  const faults = () =>
    [
      ['no key', undefined],
      ['another expo’s key', cookieOf(keys.other, 1308)],
      ['another expo’s key in its own cookie', cookieOf(keys.other, 1106)],
      ['a revoked key', cookieOf(keys.revoked)],
      ['an expired key', cookieOf(keys.expired)],
      ['a malformed key', cookieOf('x'.repeat(43).replace(/x$/, '!'))],
    ] as const;

  it('every API call answers the API’s 404 for a path it does not have, byte for byte', async () => {
    forgetGateKeyMemo();
    for (const [why, cookie] of faults()) {
      const calls: [string, () => Promise<Response>, () => Promise<Response>][] = [
        ['scan json', () => json('/api/gate/scan', { eid: EID, code: ONCE }, cookie), () => json('/api/gate/scanx', { eid: EID, code: ONCE }, cookie)],
        ['scan form', () => form('/api/gate/scan', { eid: EID, code: ONCE }, cookie), () => form('/api/gate/scanx', { eid: EID, code: ONCE }, cookie)],
        ['sync', () => json('/api/gate/sync', { eid: EID, scans: [] }, cookie), () => json('/api/gate/syncx', { eid: EID, scans: [] }, cookie)],
        ['list', () => req(`/api/gate/list?eid=${EID}`, cookie ? { cookie } : {}), () => req(`/api/gate/listx?eid=${EID}`, cookie ? { cookie } : {})],
      ];
      for (const [name, gate, none] of calls) {
        const a = await shape(await gate());
        const b = await shape(await none());
        expect(a.status, `${why}: ${name}`).toBe(404);
        expect(a.body.replace('/api/gate/scan', '/api/gate/scanx').replace('/api/gate/sync', '/api/gate/syncx').replace('/api/gate/list', '/api/gate/listx'), `${why}: ${name}`).toBe(b.body);
        expect(a.type).toBe(b.type);
        expect(a.cookie).toBeNull();
      }
    }
  });

  it('whatever the body’s size: a gate route’s own limit is staff’s, a stranger meets an unknown path’s (issue 23 review: a 20 KB keyless sync answered 404, not 413)', async () => {
    forgetGateKeyMemo();
    const padded = (bytes: number) => ({ eid: EID, code: ONCE, scans: [], pad: 'x'.repeat(bytes) });
    const same = (path: string) => path.replace(/^\/api\/gate\/(scan|sync|list)/, '/api/gate/$1x');
    for (const [why, cookie] of faults()) {
      // below the scan's 2 KB, between it and the unknown path's 16 KB, between that and sync's 32 KB, beyond all
      for (const bytes of [100, 3_000, 20_000, 40_000]) {
        for (const path of ['/api/gate/scan', '/api/gate/sync']) {
          const a = await shape(await json(path, padded(bytes), cookie));
          const b = await shape(await json(same(path), padded(bytes), cookie));
          // Beyond what is read (16 KB, sync 32 KB) the body, and the expo it names, is dropped: a
          // holder of another expo's valid key is staff then, and told the route's limit (the same 413).
          if (why === 'another expo’s key in its own cookie' && bytes > (path.endsWith('sync') ? 32_768 : 16_384)) {
            expect([a.status, b.status]).toEqual([413, 413]);
            continue;
          }
          expect({ ...a, body: a.body.replace(`${path}"`, `${same(path)}"`) }, `${why}: ${path} ${bytes} bytes`).toEqual(b);
        }
        const f = await shape(await form('/api/gate/scan', { eid: EID, code: ONCE, pad: 'x'.repeat(bytes) }, cookie));
        const g = await shape(await form('/api/gate/scanx', { eid: EID, code: ONCE, pad: 'x'.repeat(bytes) }, cookie));
        if (why === 'another expo’s key in its own cookie' && bytes > 16_384) continue;
        expect({ ...f, body: f.body.replace('/api/gate/scan"', '/api/gate/scanx"') }, `${why}: scan form ${bytes} bytes`).toEqual(g);
      }
    }
    // staff keep their routes' limits: a sync of 20 KB is read (400: the padding is no scan), 40 KB is too large; a scan of 3 KB is too large
    expect((await json('/api/gate/sync', { eid: EID, scans: [{ pad: 'x'.repeat(20_000) }] }, cookieOf(keys.gate1))).status).toBe(400);
    const big = await json('/api/gate/sync', padded(40_000), cookieOf(keys.gate1));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { msg: string }).msg).toContain('32 KB');
    expect((await json('/api/gate/scan', padded(3_000), cookieOf(keys.gate1))).status).toBe(413);
  });

  it('the staff link, the pages and the CSV answer what a page path that does not exist answers', async () => {
    const none = await shape(await req('/no-such-page/at-all'));
    for (const [why, cookie] of faults()) {
      for (const path of [`/gate/${EID}`, `/gate/${EID}/stats`, `/gate/${EID}/scans.csv`, `/gate/${EID}?key=${keys.other}`, `/gate/${EID}?key=${keys.revoked}`, `/gate/${EID}?key=${keys.expired}`, `/gate/${EID}?key=short`]) {
        const a = await shape(await req(path, cookie ? { cookie } : {}));
        expect(a, `${why}: ${path}`).toEqual(none);
      }
    }
    // a key of 1106 opens 1106's link, never 1308's
    expect((await req(`/gate/${EID_1106}?key=${keys.other}`)).status).toBe(303);
  });

  it('scans nothing without a key: the code stays unused', async () => {
    await json('/api/gate/scan', { eid: EID, code: UNLIMITED }, cookieOf(keys.other, 1308));
    const r = await json('/api/gate/scan', { eid: EID, code: UNLIMITED }, cookieOf(keys.gate1));
    const answer = ((await r.json()) as { data: GateAnswer }).data;
    // the seeded count (SEED.md) plus this one scan only
    expect(answer.result).toBe('admitted');
    const again = ((await (await json('/api/gate/scan', { eid: EID, code: UNLIMITED }, cookieOf(keys.gate1))).json()) as { data: GateAnswer }).data;
    expect(again.usedCount).toBe((answer.usedCount ?? 0) + 1);
  });
});

describe('the staff link', () => {
  it('sets the expo’s HttpOnly cookie until the key ends and answers 303 to the gate, without the key in the address', async () => {
    const res = await req(`/gate/${EID}?key=${keys.gate1}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/gate/${EID}`);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^gate_1308=${keys.gate1};`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Secure');
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
  });
});

describe('POST /api/gate/scan', () => {
  it('40 parallel scans of a maxCount 1 code at two gates admit exactly one; the gate comes from the key', async () => {
    const all = await Promise.all(
      Array.from({ length: 40 }, (_, i) => json('/api/gate/scan', { eid: EID, code: ONCE, gate: 'Forged' }, cookieOf(i % 2 ? keys.gate1 : keys.gate2)).then((r) => r.json() as Promise<{ code: number; data: GateAnswer }>)),
    );
    const results = all.map((r) => r.data.result);
    expect(results.filter((r) => r === 'admitted')).toHaveLength(1);
    expect(results.filter((r) => r === 'used')).toHaveLength(39);
    const used = all.find((r) => r.data.result === 'used')?.data;
    expect(used?.name).toBe('钱五 Gate Once');
    expect(used?.usedCount).toBe(1);
    expect(used?.maxCount).toBe(1);
    expect(['Gate 1', '=HYPERLINK("http://evil.example","x")']).toContain(used?.lastEntry?.gate);
    expect(all.every((r) => r.data.gate !== 'Forged')).toBe(true);
  });

  it('answers each result with its fields; another expo’s code and an unreadable text say nothing more', async () => {
    const scan = async (code: string) => ((await (await json('/api/gate/scan', { eid: EID, code }, cookieOf(keys.gate1))).json()) as { code: number; data: GateAnswer }).data;
    const review = await scan(REVIEW);
    expect(review.result).toBe('review');
    expect(review.classLabel).toBe(MESSAGES.zh['class.0']);
    const other = await scan(OF_1106);
    expect(other).toMatchObject({ result: 'otherExpo', name: null, classLabel: null, usedCount: null, lastEntry: null });
    expect((await scan('not a code!')).result).toBe('unknown');
    // a credential link gives its code
    const link = await scan(`https://expo.example/IEAESuccess/MjEzMDg/${btoa(REVIEW).replace(/=+$/, '')}/MTMwOA/21308/`);
    expect(link).toMatchObject({ result: 'review', code: REVIEW });
  });

  it('a form post comes back 303 to the gate with the answer in the flash', async () => {
    const res = await form('/api/gate/scan', { eid: EID, code: ` ${REVIEW.slice(0, 8)} ${REVIEW.slice(8)} ` }, cookieOf(keys.gate1));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/gate/${EID}`);
    expect(res.headers.get('set-cookie')).toMatch(/^flash=/);
    const empty = await form('/api/gate/scan', { eid: EID, code: '  ' }, cookieOf(keys.gate1));
    expect(empty.status).toBe(303);
  });

  it('refuses a bad scannedAt or scanId (400), a huge body (413), a cross-site post (403); GET and HEAD are the 404', async () => {
    const bad = await json('/api/gate/scan', { eid: EID, code: ONCE, scannedAt: '2026-12-01 10:00' }, cookieOf(keys.gate1));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toBe(MESSAGES.zh['gate.badScan']);
    expect((await json('/api/gate/scan', { eid: EID, code: ONCE, scanId: 'a b' }, cookieOf(keys.gate1))).status).toBe(400);
    const huge = await json('/api/gate/scan', { eid: EID, code: 'A'.repeat(20_000) }, cookieOf(keys.gate1));
    expect(huge.status).toBe(413);
    // a body that names no expo: 400 for a holder of a valid key, the 404 for anyone else
    const malformed = await req('/api/gate/scan', { method: 'POST', body: '{"eid":', headers: { 'content-type': 'application/json' }, cookie: cookieOf(keys.gate1) });
    expect(malformed.status).toBe(400);
    const stranger = await req('/api/gate/scan', { method: 'POST', body: '{"eid":', headers: { 'content-type': 'application/json' }, cookie: cookieOf(keys.revoked) });
    expect(stranger.status).toBe(404);
    const cross = await json('/api/gate/scan', { eid: EID, code: ONCE }, cookieOf(keys.gate1), { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    for (const method of ['GET', 'HEAD']) {
      const r = await req(`/api/gate/scan?eid=${EID}`, { method, cookie: cookieOf(keys.gate1) });
      expect(r.status, method).toBe(404);
    }
  });
});

describe('POST /api/gate/sync and GET /api/gate/list', () => {
  it('redeems queued scans with their own time and id, and reports a double entry', async () => {
    const code = 'GATESYNCQQQQQQ2A';
    await testEnv.DB.prepare(
      "INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime, use_status, max_count, audit_status) VALUES (1308, 21308, ?, 'Sync Test', 0, '2026-03-01 10:00:00', 0, 1, 0)",
    )
      .bind(code)
      .run();
    const t0 = Date.now() - 60_000;
    const scans = [
      { scanId: 'scan-a', code, scannedAt: new Date(t0).toISOString(), local: 'admitted' },
      { scanId: 'scan-b', code, scannedAt: new Date(t0 + 1000).toISOString(), local: 'admitted' },
    ];
    const res = await json('/api/gate/sync', { eid: EID, scans }, cookieOf(keys.gate1));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: number; data: { results: GateSynced[] } };
    expect(body.code).toBe(200);
    expect(body.data.results.map((r) => [r.scanId, r.answer.result, r.double])).toEqual([
      ['scan-a', 'admitted', false],
      ['scan-b', 'used', true],
    ]);
    expect(body.data.results[0]?.answer.scannedAt).toBe(scans[0]?.scannedAt);
  });

  it('a retried scanId is answered, not counted, twice (when the upstream keeps scan ids)', async () => {
    const code = 'GATESYNCQQQQQQ3B';
    await testEnv.DB.prepare(
      "INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime, use_status, max_count, audit_status) VALUES (1308, 21308, ?, 'Retry Test', 0, '2026-03-01 10:00:00', 0, 0, 0)",
    )
      .bind(code)
      .run();
    const scan = { scanId: 'retry-1', code, scannedAt: new Date(Date.now() - 5000).toISOString(), local: 'admitted' };
    for (let i = 0; i < 2; i++) {
      const r = (await (await json('/api/gate/sync', { eid: EID, scans: [scan] }, cookieOf(keys.gate1))).json()) as { data: { results: GateSynced[] } };
      expect(r.data.results[0]).toMatchObject({ scanId: 'retry-1', double: false });
    }
    const count = await testEnv.DB.prepare('SELECT used_count AS n FROM registrations WHERE eu_code = ?').bind(code).first<{ n: number }>();
    const cols = (await testEnv.DB.prepare('PRAGMA table_info(scan_log)').all<{ name: string }>()).results.map((c) => c.name);
    // The reference keeps scan ids once it has the column (its idempotency); before that it counts the retry.
    expect(count?.n).toBe(cols.includes('scan_id') ? 1 : 2);
  });

  it('refuses a sync of more than GATE_SYNC_MAX scans, a malformed scan, a form post', async () => {
    const one = { scanId: 'x1', code: ONCE, scannedAt: new Date().toISOString(), local: 'used' };
    const many = await json('/api/gate/sync', { eid: EID, scans: Array.from({ length: GATE_SYNC_MAX + 1 }, (_, i) => ({ ...one, scanId: `x${i}` })) }, cookieOf(keys.gate1));
    expect(many.status).toBe(400);
    expect((await json('/api/gate/sync', { eid: EID, scans: [{ ...one, local: 'maybe' }] }, cookieOf(keys.gate1))).status).toBe(400);
    expect((await json('/api/gate/sync', { eid: EID, scans: [{ ...one, scannedAt: 'yesterday' }] }, cookieOf(keys.gate1))).status).toBe(400);
    expect((await form('/api/gate/sync', { eid: EID }, cookieOf(keys.gate1))).status).toBe(415);
    expect((await json('/api/gate/sync', { eid: EID, scans: [], pad: 'x'.repeat(40_000) }, cookieOf(keys.gate1))).status).toBe(413);
  });

  it('lists the expo’s admission list: hashes, counts, today', async () => {
    const res = await req(`/api/gate/list?eid=${EID}`, { cookie: cookieOf(keys.gate1) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { code: number; data: GateList };
    expect(body.code).toBe(200);
    expect(body.data).toMatchObject({ expoId: 1308, complete: true });
    expect(body.data.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.data.rows.length).toBeGreaterThan(3);
    const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`1308:${ONCE}`));
    const hash = [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(body.data.rows.find((r) => r.hash === hash)).toMatchObject({ maxCount: 1 });
    expect(JSON.stringify(body)).not.toContain(ONCE);
  });
});

describe('GET /gate/{eid}/scans.csv', () => {
  it('exports every scan with hostile cells defused, or says the organiser’s API cannot', async () => {
    // codes whole (the operator's GATE_CSV_CODES=full); masked by default: tests/edge/gate-hands.worker.test.ts
    const res = await app.request(`${ORIGIN}/gate/${EID}/scans.csv`, { headers: { cookie: cookieOf(keys.gate1) } }, { ...testEnv, GATE_CSV_CODES: 'full' });
    if (res.status === 501) {
      // an upstream without checkInLog (the reference before it gains the call)
      expect(await res.text()).toBe(MESSAGES.zh['gate.unsupported']);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="scans-1308-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text.split('\r\n')[0]).toBe('at,gate,euCode,result,scanId'); // TextDecoder drops the BOM checked above
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).toMatch(/,PF4R5MHUHIPEQBHR,admitted,/);
    expect(text).toMatch(/,GATESYNCQQQQQQ2A,used,scan-b\r\n/);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});

describe('an organiser API without the check-in calls (404 "unknown call")', () => {
  it('tells staff in words on every gate call; the key still decides who may ask', async () => {
    const fake = installFakeUpstream();
    try {
      const up: AppEnv = { ...testEnv, UPSTREAM_URL: FAKE_BASE, UPSTREAM_TIMEOUT_MS: '300' };
      const call = (path: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('cookie', cookieOf(keys.gate1));
        return app.request(`${ORIGIN}${path}`, { ...init, headers }, up);
      };
      const post = (path: string, body: unknown) => call(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const said = { code: 501, msg: MESSAGES.zh['gate.unsupported'], data: null };
      expect(await (await post('/api/gate/scan', { eid: EID, code: ONCE })).json()).toEqual(said);
      const scan = { scanId: 'u1', code: ONCE, scannedAt: new Date().toISOString(), local: 'admitted' };
      expect(await (await post('/api/gate/sync', { eid: EID, scans: [scan] })).json()).toEqual(said);
      expect(await (await call(`/api/gate/list?eid=${EID}`)).json()).toEqual(said);
      const csv = await call(`/gate/${EID}/scans.csv`);
      expect(csv.status).toBe(501);
      expect(await csv.text()).toBe(MESSAGES.zh['gate.unsupported']);
      const form = await call('/api/gate/scan', { method: 'POST', body: new URLSearchParams({ eid: EID, code: ONCE }), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(form.status).toBe(303);
      expect(form.headers.get('location')).toBe(`/gate/${EID}`);
      expect(fake.calls.some((c) => c.includes('redeemCode'))).toBe(true);
    } finally {
      fake.restore();
    }
  });
});
