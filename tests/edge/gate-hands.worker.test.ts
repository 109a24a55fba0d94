/**
 * Issue 30 ("Real hands, real phones"), the gate's server half in workerd:
 *
 * 1. a valid code typed as a phone keyboard types it (lower case, in groups, dashes, 0 for O) is
 *    the code: JSON and form post, and the seed's every code reads as itself;
 * 2. whatever the organiser's API answers the check-in calls — HTTP 404, 403, 405, 500, a hang,
 *    HTML, garbage, a dropped connection, an odd code — the gate says so in words and the scanner
 *    decides offline: never the answer a refused staff key gets, which only the edge's own
 *    staff-key table gives;
 * 3. a queued scan the organiser refuses (a phone clock 31 days behind) is answered as refused and
 *    the rest of the queue is counted, then and on every later sync;
 * 4. the scan export shows codes masked unless the operator sets GATE_CSV_CODES=full.
 */
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { createGateKey, forgetGateKeyMemo, revokeGateKey, staffFor } from '../../functions/staff/keys';
import { hashGateKey } from '../../src/lib/gate/keys';
import { normaliseCode } from '../../src/lib/gate/code';
import { readReply, replyOf } from '../../src/lib/gate/reply';
import type { GateAnswer, GateSyncRefused, GateSynced } from '../../src/lib/gate/types';
import { decodeFlash } from '../../src/lib/page/flash';
import { MESSAGES } from '../../src/i18n';
import { FAKE_BASE, installFakeUpstream, type Fault } from './fake-upstream';

const app = createApp();
const testEnv = env as unknown as AppEnv;
const ORIGIN = 'https://expo.example';
const EID = 'MTMwOA'; // 1308
const REVIEW = 'AR7OY5Q6XIPMQUBJ'; // 1308, awaiting review: scanning it counts nothing (SEED.md "Check-in")
const keys = { staff: '', revoked: '' };

beforeAll(async () => {
  const hour = 3600_000;
  keys.staff = (await createGateKey(testEnv.STAFF, { expoId: 1308, gate: 'Gate 30', expiresAt: Date.now() + hour })).key;
  const revoked = await createGateKey(testEnv.STAFF, { expoId: 1308, gate: 'Gone', expiresAt: Date.now() + hour });
  await revokeGateKey(testEnv.STAFF, revoked.id);
  keys.revoked = revoked.key;
});

const cookieOf = (key: string) => `gate_1308=${key}`;

function req(path: string, init: RequestInit & { cookie?: string } = {}, e: AppEnv = testEnv): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('cookie', init.cookie);
  return Promise.resolve(app.request(`${ORIGIN}${path}`, { ...init, headers }, e));
}
const json = (path: string, body: unknown, cookie: string, e?: AppEnv) =>
  req(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, cookie }, e);
const form = (path: string, fields: Record<string, string>, cookie: string, e?: AppEnv) =>
  req(path, { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' }, cookie }, e);

/** A gate call's answer as the scanner island reads it (src/lib/gate/reply.ts), and the raw parts. */
async function asScanner(res: Response, path: string) {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, body, read: readReply(replyOf(res.status, body, path)) };
}

/** A fresh 1308 registration with maxCount 1 (its code in the alphabet). */
async function freshCode(prefix: string): Promise<string> {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const tail = Array.from(crypto.getRandomValues(new Uint8Array(16 - prefix.length)), (b) => alphabet[b & 31]).join('');
  const code = `${prefix}${tail}`;
  await testEnv.DB.prepare(
    "INSERT INTO registrations (expo_id, urls_id, eu_code, uname, eu_class, createtime, use_status, used_count, max_count, audit_status) VALUES (1308, 21308, ?, 'Real Hands', 0, '2026-03-01 10:00:00', 0, 0, 1, 0)",
  )
    .bind(code)
    .run();
  return code;
}

describe('1. a code typed on a phone is the code', () => {
  it('lower case, in groups, with dashes, with 0 for O: admitted once, then used (JSON)', async () => {
    const code = await freshCode('OLOW');
    const typed = `${code.slice(0, 4)} ${code.slice(4, 8)} ${code.slice(8, 12)} ${code.slice(12)}`.toLowerCase().replace(/o/g, '0');
    const first = (await (await json('/api/gate/scan', { eid: EID, code: typed }, cookieOf(keys.staff))).json()) as { code: number; data: GateAnswer };
    expect(first).toMatchObject({ code: 200, data: { result: 'admitted', code, usedCount: 1, maxCount: 1 } });
    const again = (await (await json('/api/gate/scan', { eid: EID, code: `${code.slice(0, 8)}-${code.slice(8)}`.toLowerCase() }, cookieOf(keys.staff))).json()) as { data: GateAnswer };
    expect(again.data).toMatchObject({ result: 'used', code });
  });

  it('a form post of a lower-case code comes back to the answer, which is the code’s', async () => {
    const code = await freshCode('FORM');
    const res = await form('/api/gate/scan', { eid: EID, code: `  ${code.toLowerCase()} ` }, cookieOf(keys.staff));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/gate/${EID}`);
    const flash = decodeFlash(/^flash=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1], `/gate/${EID}`);
    expect(flash?.data).toMatchObject({ result: 'admitted', code });
  });

  it('every seeded registration code reads as itself, and typed in lower case as itself', async () => {
    const rows = (await testEnv.DB.prepare('SELECT eu_code AS code FROM registrations').all<{ code: string }>()).results;
    expect(rows.length).toBeGreaterThan(50);
    for (const { code } of rows) {
      expect(normaliseCode(code), code).toBe(code);
      expect(normaliseCode(code.toLowerCase()), code).toBe(code);
    }
  });

  it('an organiser whose codes hold 0, 1 or 8 (no alphabet is fixed by the spec): the code typed as written, in lower case, is admitted', async () => {
    const base32 = await freshCode('DIGB');
    const code = `D1G8${base32.slice(4)}`;
    await testEnv.DB.prepare('UPDATE registrations SET eu_code = ? WHERE eu_code = ?').bind(code, base32).run();
    // the base32 reading (DIGB…) is not the organiser's: the check-in asks again with the code as written
    const r = (await (await json('/api/gate/scan', { eid: EID, code: `${code.slice(0, 4)} ${code.slice(4)}`.toLowerCase() }, cookieOf(keys.staff))).json()) as { data: GateAnswer };
    expect(r.data).toMatchObject({ result: 'admitted', code });
  });

  it('a code that still matches nothing is a calm "check the code", not a refusal', async () => {
    const r = (await (await json('/api/gate/scan', { eid: EID, code: 'zzzz zzzz zzzz zzzz' }, cookieOf(keys.staff))).json()) as { data: GateAnswer };
    expect(r.data).toMatchObject({ result: 'unknown', code: 'ZZZZZZZZZZZZZZZZ' });
  });
});

describe('2. the organiser’s system not answering as expected is never "your key no longer works"', () => {
  const FAULTS: Fault[] = ['http-404', 'http-403', 'http-405', 'http-500', 'hang', 'not-json', 'garbage', 'network', 'refusal'];

  it('every fault of redeemCode, checkInList and a sync: the reason in words, offline for the scanner; a revoked key: gone', async () => {
    for (const fault of FAULTS) {
      const fake = installFakeUpstream({ fault: (path) => (path.includes('/customFrom/') ? fault : 'ok') });
      try {
        const up: AppEnv = { ...testEnv, UPSTREAM_URL: FAKE_BASE, UPSTREAM_TIMEOUT_MS: '200' };
        const scan = await asScanner(await json('/api/gate/scan', { eid: EID, code: REVIEW }, cookieOf(keys.staff), up), '/api/gate/scan');
        expect(scan.status, fault).not.toBe(404);
        expect(scan.read.kind, `${fault}: scan`).toBe('offline');
        expect(scan.body, fault).toMatchObject({ code: 502, data: null });
        const msg = (scan.body as { msg: string }).msg;
        expect(msg.length, fault).toBeGreaterThan(10);
        expect(msg, fault).not.toBe(MESSAGES.zh['gateScan.keyGone']);
        if (fault === 'http-404') expect(msg).toBe(MESSAGES.zh['gate.faultHttp'].replace('{{status}}', '404'));

        const list = await asScanner(await req(`/api/gate/list?eid=${EID}`, { cookie: cookieOf(keys.staff) }, up), '/api/gate/list');
        expect(list.read.kind, `${fault}: list`).toBe('offline');

        const one = { scanId: `f-${fault}`, code: REVIEW, scannedAt: new Date().toISOString(), local: 'review' };
        const sync = await asScanner(await json('/api/gate/sync', { eid: EID, scans: [one] }, cookieOf(keys.staff), up), '/api/gate/sync');
        expect(sync.read.kind, `${fault}: sync`).toBe('offline');
        // the scan stays queued: neither answered nor refused
        expect(sync.body).toMatchObject({ code: 502, data: { results: [], refused: [] } });

        // without JavaScript: back to the gate with the reason in words, nothing recorded
        const nojs = await form('/api/gate/scan', { eid: EID, code: REVIEW }, cookieOf(keys.staff), up);
        expect(nojs.status).toBe(303);
        expect(nojs.headers.get('location')).toBe(`/gate/${EID}`);
        const flash = decodeFlash(/^flash=([^;]*)/.exec(nojs.headers.get('set-cookie') ?? '')?.[1], `/gate/${EID}`);
        expect(flash?.notice).toMatchObject({ tone: 'error', key: 'gate.faultNoJs', vars: { reason: msg } });
      } finally {
        fake.restore();
      }
    }
    // The edge's own staff-key table refuses a key: that, and only that, reads as gone.
    const gone = await asScanner(await json('/api/gate/scan', { eid: EID, code: REVIEW }, cookieOf(keys.revoked)), '/api/gate/scan');
    expect(gone.read).toEqual({ kind: 'keyGone' });
    const goneList = await asScanner(await req(`/api/gate/list?eid=${EID}`, { cookie: cookieOf(keys.revoked) }), '/api/gate/list');
    expect(goneList.read).toEqual({ kind: 'keyGone' });
  });

  it('a reply that is not a decision (a result outside the contract) is unreadable, never an admission', async () => {
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.origin !== FAKE_BASE) throw new TypeError(`unmocked network: ${url.origin}`);
      if (url.pathname.endsWith('/selectAESKey')) return new Response(JSON.stringify({ code: 200, msg: 'ok', data: { aesKey: 'fakeUpstreamKey1' } }));
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data: { result: 'maybe' } }), { headers: { 'content-type': 'application/json' } });
    });
    try {
      const up: AppEnv = { ...testEnv, UPSTREAM_URL: FAKE_BASE, UPSTREAM_TIMEOUT_MS: '200' };
      const scan = await asScanner(await json('/api/gate/scan', { eid: EID, code: REVIEW }, cookieOf(keys.staff), up), '/api/gate/scan');
      expect(scan.body).toEqual({ code: 502, msg: MESSAGES.zh['gate.faultUnreadable'], data: null });
      expect(scan.read.kind).toBe('offline');
    } finally {
      spy.mockRestore();
    }
  });
});

describe('3. one refused queued scan does not stall the queue', () => {
  it('a scan 31 days old is answered as refused; the scans after it are counted, now and on the next sync', async () => {
    const [a, b, c] = [await freshCode('QUEA'), await freshCode('QUEB'), await freshCode('QUEC')];
    const behind = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const now = Date.now();
    const scans = [
      { scanId: 'clock-behind-1', code: a, scannedAt: behind, local: 'admitted' },
      { scanId: 'after-1', code: b.toLowerCase(), scannedAt: new Date(now - 60_000).toISOString(), local: 'admitted' },
      { scanId: 'after-2', code: c, scannedAt: new Date(now - 30_000).toISOString(), local: 'admitted' },
    ];
    const res = await json('/api/gate/sync', { eid: EID, scans }, cookieOf(keys.staff));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { code: number; data: { results: GateSynced[]; refused: GateSyncRefused[] } };
    expect(body.code).toBe(200);
    expect(body.data.results.map((r) => [r.scanId, r.answer.result, r.double])).toEqual([
      ['after-1', 'admitted', false],
      ['after-2', 'admitted', false],
    ]);
    expect(body.data.refused).toEqual([{ scanId: 'clock-behind-1', code: 400, msg: expect.stringMatching(/30 days/) }]);
    // counted: the refused scan counted nothing, the others one each
    const used = async (code: string) => (await testEnv.DB.prepare('SELECT used_count AS n FROM registrations WHERE eu_code = ?').bind(code).first<{ n: number }>())?.n;
    expect([await used(a), await used(b), await used(c)]).toEqual([0, 1, 1]);

    // a later sync (the refused scan sent again by a scanner of an older version, and a new scan) is counted too
    const d = await freshCode('QUED');
    const later = (await (await json('/api/gate/sync', { eid: EID, scans: [scans[0], { scanId: 'after-3', code: d, scannedAt: new Date().toISOString(), local: 'admitted' }] }, cookieOf(keys.staff))).json()) as {
      data: { results: GateSynced[]; refused: GateSyncRefused[] };
    };
    expect(later.data.refused.map((r) => r.scanId)).toEqual(['clock-behind-1']);
    expect(later.data.results.map((r) => [r.scanId, r.answer.result])).toEqual([['after-3', 'admitted']]);
    expect(await used(d)).toBe(1);
  });
});

describe('4. the scan export', () => {
  it('masks every code unless the operator sets GATE_CSV_CODES=full', async () => {
    const code = await freshCode('CSVM');
    await json('/api/gate/scan', { eid: EID, code }, cookieOf(keys.staff));
    const masked = await req(`/gate/${EID}/scans.csv`, { cookie: cookieOf(keys.staff) });
    expect(masked.status).toBe(200);
    const text = await masked.text();
    expect(text).not.toContain(code);
    expect(text).toContain(`,Gate 30,${code.slice(0, 4)}…${code.slice(-2)},admitted,`);
    // no full registration code anywhere in it: every code cell is masked
    const cells = text.split('\r\n').slice(1, -1).map((line) => line.split(',')[2] ?? '');
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) expect(cell).toMatch(/^([^…]{0,4})…[^…]{0,2}$/);

    for (const setting of ['', 'masked', 'yes']) {
      const r = await req(`/gate/${EID}/scans.csv`, { cookie: cookieOf(keys.staff) }, { ...testEnv, GATE_CSV_CODES: setting });
      expect(await r.text(), setting).not.toContain(code);
    }
    const full = await req(`/gate/${EID}/scans.csv`, { cookie: cookieOf(keys.staff) }, { ...testEnv, GATE_CSV_CODES: 'full' });
    expect(await full.text()).toContain(`,Gate 30,${code},admitted,`);
  });
});

describe('the show’s customer url on a staff key (STAFF migration 0002)', () => {
  it('is read with the key, and a database not migrated yet still opens its keys (no gate locked out)', async () => {
    const named = await createGateKey(testEnv.STAFF, { expoId: 1308, gate: 'Named', expiresAt: Date.now() + 3600_000, urlsId: 21308 });
    forgetGateKeyMemo();
    expect(await staffFor(testEnv.STAFF, named.key, 1308)).toMatchObject({ gate: 'Named', urlsId: 21308 });

    // a STAFF database with migration 0001 only: the Worker deployed before `migrations apply`
    const old = (env as unknown as { BLANK_D1: D1Database }).BLANK_D1;
    await old.exec('CREATE TABLE IF NOT EXISTS gate_keys (id TEXT PRIMARY KEY, hash TEXT UNIQUE NOT NULL, expo_id INTEGER NOT NULL, gate TEXT NOT NULL, created_at INTEGER, expires_at INTEGER NOT NULL, revoked_at INTEGER)');
    const key = 'k'.repeat(43);
    await old
      .prepare('INSERT INTO gate_keys (id, hash, expo_id, gate, created_at, expires_at, revoked_at) VALUES (?, ?, 1308, ?, ?, ?, NULL)')
      .bind('0123456789', await hashGateKey(key), 'Old schema', Date.now(), Date.now() + 3600_000)
      .run();
    forgetGateKeyMemo();
    expect(await staffFor(old, key, 1308)).toMatchObject({ gate: 'Old schema', urlsId: null });
  });
});
