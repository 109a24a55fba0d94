/**
 * No registration code, gate key or contact in any line the Worker writes (issue 30 item 2): the
 * error paths are driven with every `console` method captured (as workerd would print them,
 * `node:util` format), and no line may hold the code (plain or as its URL segment), the key or the
 * contact that was used. The paths: a credential page, its QR image and a shuttle-bus link while
 * the upstream fails (the organiser's API answering 500, a closed socket, undecryptable data; the
 * in-process upstream failing outright, which reaches the Worker's last-resort error handler), a
 * gate link, a gate call and the scans' CSV with a key nobody issued, failed lookups (a wrong
 * code, the upstream failing) after a code sent through the development outbox, the navigation
 * guard refusing a redirect target that names a credential, and the request log itself (on, as in
 * production).
 */
import { env } from 'cloudflare:test';
import { Hono } from 'hono';
import { format } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { guard } from '../../functions/middleware/guard';
import { createReference } from '../../functions/reference';
import { useLocalUpstream } from '../../functions/upstream';
import { qrImagePath, routePath, type SuccessParams } from '../../src/lib/core/routes';
import { encodeId } from '../../src/lib/util/ids';
import { variantByExpoId } from '../../src/lib/core/variants';
import { FAKE_BASE, installFakeUpstream, type Fault } from './fake-upstream';
import { Jar, LIFTED_LIMITS } from './api-lookup.helpers';

const testEnv = { ...(env as unknown as AppEnv), REF_SEND_INTERVAL_S: '0', REF_SENDS_PER_HOUR: '1000', ...LIFTED_LIMITS } as AppEnv;
const remoteEnv: AppEnv = { ...testEnv, UPSTREAM_URL: FAKE_BASE, UPSTREAM_TIMEOUT_MS: '300' };
const BASE = 'https://expo.example';
// The request log on, writing with console.log as in production (functions/worker.ts).
const app = createApp({ requestLog: {} });

// Seed: expo 1308's used credential and its holder (functions/reference/SEED.md).
const CREDENTIAL: SuccessParams = { urlId: 21308, euCode: 'IWHBZIMYEOZETLFI', expoId: 1308, fId: 21308 };
const HOLDER = 'one@demo.test';
/** A key shaped like a real one (43 base64url characters) that nobody issued. */
const STRANGER_KEY = 'Zq3kP9vX2mT7rW4yB8nC1dF6gH0jL5sA-UeIoQ_xYtR';
/** A fresh contact: its code goes through the development outbox. */
const VISITOR = `log-${Date.now().toString(36)}@redact.test`;

/** What may never be written: the code, plain and as its path segment, the key, the contacts. */
const SECRETS = [CREDENTIAL.euCode, encodeId(CREDENTIAL.euCode), STRANGER_KEY, HOLDER, VISITOR, encodeURIComponent(VISITOR), 'redact.test'];

const lines: string[] = [];
beforeAll(() => {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(`${level}: ${format(...args)}`);
    });
  }
});
afterAll(() => {
  vi.restoreAllMocks();
});

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
  useLocalUpstream(createReference);
});

/** The lines written since `from` that hold any of `secrets`. */
function leaks(from: number, secrets: readonly string[] = SECRETS): string[] {
  return lines.slice(from).filter((l) => secrets.some((s) => l.includes(s)));
}

const get = (path: string, e: AppEnv = testEnv, headers: Record<string, string> = {}) =>
  app.request(`${BASE}${path}`, { headers: { 'cf-ray': '8f1b2c3d4e5f6a7b-SIN', ...headers }, redirect: 'manual' }, e);

const credentialPage = routePath({ screen: 'credential', variant: variantByExpoId(CREDENTIAL.expoId), params: CREDENTIAL });
const credentialPaths = [
  `${credentialPage}?f=${encodeURIComponent(HOLDER)}`,
  qrImagePath(CREDENTIAL),
  qrImagePath(CREDENTIAL, { save: true }),
  routePath({ screen: 'bus', which: 'busInfo', params: { ...CREDENTIAL, euUserId: 1 } }),
];

describe('no code, key or contact in a log line (issue 30)', () => {
  it.each<Fault>(['http-500', 'network', 'garbage'])('the credential page, its QR image and its bus link while the upstream answers %s', async (fault) => {
    const from = lines.length;
    restore = installFakeUpstream({ fault: () => fault }).restore;
    for (const path of credentialPaths) await get(path, remoteEnv);
    expect(lines.length).toBeGreaterThan(from); // the request log wrote
    expect(leaks(from)).toEqual([]);
  });

  it('the credential page and its QR image when the in-process upstream fails outright (the last-resort error handler)', async () => {
    const from = lines.length;
    useLocalUpstream(() => {
      throw new Error('the reference upstream could not start');
    });
    const statuses = [];
    for (const path of credentialPaths) statuses.push((await get(path)).status);
    expect(statuses).toContain(500);
    expect(lines.slice(from).some((l) => l.includes('unexpected failure'))).toBe(true);
    expect(leaks(from)).toEqual([]);
  });

  it('a gate link, a gate call and the scans of a key nobody issued', async () => {
    const from = lines.length;
    const cookie = `gate_${CREDENTIAL.expoId}=${STRANGER_KEY}`;
    const eid = encodeId(CREDENTIAL.expoId);
    expect((await get(`/gate/${eid}?key=${STRANGER_KEY}`)).headers.get('set-cookie')).toBeNull();
    expect((await get(`/gate/${eid}/scans.csv`, testEnv, { cookie })).status).toBe(404);
    const scan = await app.request(
      `${BASE}/api/gate/scan`,
      { method: 'POST', headers: { cookie, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ eid, code: CREDENTIAL.euCode }) },
      testEnv,
    );
    expect(scan.status).toBe(404);
    expect(leaks(from)).toEqual([]);
  });

  it("the guard's refused redirect target (a rule that built one off the site, naming the credential)", async () => {
    const from = lines.length;
    const page = new Hono<{ Bindings: AppEnv }>();
    const offSite = `//evil.example${credentialPage}?f=${encodeURIComponent(HOLDER)}`;
    page.use(guard({ rules: [{ name: 'broken', when: () => true, then: () => ({ kind: 'redirect', location: offSite }) }] }));
    page.get('*', (c) => c.text('page'));
    const res = await page.request(`${BASE}${credentialPage}`, {}, testEnv);
    expect(await res.text()).toBe('page'); // refused: the page renders
    expect(lines.slice(from).some((l) => l.includes('unsafe redirect target'))).toBe(true);
    expect(leaks(from)).toEqual([]);
  });

  it('failed lookups: a code sent, a wrong code, the upstream failing', async () => {
    const from = lines.length;
    const page = { expoId: '1308', urlId: '21308', ty: 'visitor', variant: 'IEAE', f: '' };
    const contact = { checkType: '2', email: VISITOR, areaCode: '', phone: '' };
    // one browser: the code is bound to the browser it was sent to, so its lookups reach the upstream
    const jar = new Jar();
    const form = async (path: string, fields: Record<string, string>, e: AppEnv = testEnv) => {
      const res = await app.request(
        `${BASE}${path}`,
        { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() }, redirect: 'manual' },
        e,
      );
      jar.store(res);
      return res;
    };
    const sent = await form('/api/send-code', { ...page, ...contact, code: '' });
    expect(sent.status).toBe(303);
    const code = (await testEnv.DB.prepare('SELECT code FROM outbox WHERE to_contact = ? ORDER BY id DESC LIMIT 1').bind(VISITOR).first<{ code: string }>())?.code ?? '';
    expect(code).toMatch(/^\d{4,8}$/);
    const wrong = code === '000000' ? '111111' : '000000';
    const upstreamBefore = lines.length;
    expect((await form('/api/lookup', { ...page, ...contact, code: wrong })).status).toBe(303);
    expect(lines.slice(upstreamBefore).some((l) => /"upstream":[1-9]/.test(l))).toBe(true); // the wrong code reached the upstream
    expect((await form('/api/lookup', { ...page, checkType: '2', email: HOLDER, areaCode: '', phone: '', code: wrong })).status).toBe(303);
    for (const fault of ['http-500', 'network', 'garbage'] as const) {
      restore = installFakeUpstream({ fault: () => fault }).restore;
      await form('/api/send-code', { ...page, ...contact, code: '' }, remoteEnv);
      await form('/api/lookup', { ...page, ...contact, code }, remoteEnv);
      restore();
      restore = null;
    }
    // the code sent: never written, whole (a timestamp or a duration may hold its digits)
    const codeAlone = new RegExp(`(?<![0-9])${code}(?![0-9])`);
    expect(lines.slice(from).filter((l) => codeAlone.test(l))).toEqual([]);
    expect(leaks(from)).toEqual([]);
  });
});
