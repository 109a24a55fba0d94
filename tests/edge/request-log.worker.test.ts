/**
 * The request log (functions/middleware/request-log.ts, issue 24): one JSON line per request
 * with the Ray ID, method, route pattern, status, duration and upstream calls; a contact or a
 * code in the URL or the body never appears in it.
 */
import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import type { RequestLogLine } from '../../src/lib/ops/request-log';
import { LIFTED_LIMITS } from './api-lookup.helpers';
import { qrImagePath, routePath } from '../../src/lib/core/routes';

const testEnv = { ...(env as unknown as AppEnv), REF_SEND_INTERVAL_S: '0', REF_SENDS_PER_HOUR: '1000', ...LIFTED_LIMITS } as AppEnv;
const BASE = 'https://expo.example';
const CONTACT = 'one@demo.test';
const RAY = '8f1b2c3d4e5f6a7b-SIN';
const IEAE = { expoId: '1308', urlId: '21308', ty: 'visitor', variant: 'IEAE', f: '' };

const lines: RequestLogLine[] = [];
const app = createApp({ requestLog: { log: (line) => lines.push(line) } });
afterEach(() => {
  lines.length = 0;
  vi.restoreAllMocks();
});

const LINE_KEYS = ['method', 'ms', 'ray', 'route', 'status', 'type', 'upstream'];

describe('the request log', () => {
  it('writes one line per request with the fields of issue 24, the Ray ID from cf-ray', async () => {
    const res = await app.request(`${BASE}/api/health`, { headers: { 'cf-ray': RAY } }, testEnv);
    expect(res.status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0] ?? {}).sort()).toEqual(LINE_KEYS);
    expect(lines[0]).toMatchObject({ type: 'request', ray: RAY, method: 'GET', route: '/api/health', status: 200, upstream: 0 });
    expect(lines[0]?.ms).toBeGreaterThanOrEqual(0);
  });

  it('REQUEST_LOG=0 writes no line, and the answer is the same', async () => {
    const res = await app.request(`${BASE}/healthz`, {}, { ...testEnv, REQUEST_LOG: '0' });
    expect(res.status).toBe(200);
    expect(lines).toHaveLength(0);
    await app.request(`${BASE}/healthz`, {}, { ...testEnv, REQUEST_LOG: '1' });
    expect(lines).toHaveLength(1);
  });

  it('writes null for the Ray ID locally (no cf-ray header)', async () => {
    await app.request(`${BASE}/healthz`, {}, testEnv);
    expect(lines[0]).toMatchObject({ ray: null, route: '/healthz', status: 200 });
  });

  it('counts the upstream calls and writes the route pattern, never the contact in the URL or the body', async () => {
    const body = new URLSearchParams({ ...IEAE, checkType: '2', email: CONTACT, areaCode: '', phone: '', code: '' });
    const res = await app.request(
      `${BASE}/api/send-code?email=${encodeURIComponent(CONTACT)}`,
      { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `x=${CONTACT}` } },
      testEnv,
    );
    expect(res.status).toBe(303);
    expect(lines).toHaveLength(1);
    const line = lines[0];
    expect(line).toMatchObject({ method: 'POST', route: '/api/send-code', status: 303 });
    expect(line?.upstream).toBeGreaterThan(0); // the reference, in-process, counts too
    expect(JSON.stringify(lines)).not.toContain('demo.test');
  });

  it('writes a page by its screen, and a path with a code by its pattern', async () => {
    const credential = { urlId: 21308, euCode: 'ABC123456', expoId: 1308, fId: 21308 };
    const success = routePath({ screen: 'credential', variant: null, params: credential });
    await app.request(`${BASE}${success}`, {}, testEnv);
    await app.request(`${BASE}${qrImagePath(credential)}`, {}, testEnv);
    await app.request(`${BASE}/no/such/${CONTACT}`, {}, testEnv);
    expect(lines.map((l) => l.route)).toEqual(['page:credential', '/qr/*', null]);
    const written = JSON.stringify(lines);
    for (const secretish of ['ABC123456', success.split('/')[3] ?? 'ABC123456', 'demo.test']) expect(written).not.toContain(secretish);
  });

  it('drops a cf-ray header that is not a Ray ID', async () => {
    await app.request(`${BASE}/healthz`, { headers: { 'cf-ray': CONTACT } }, testEnv);
    expect(lines[0]?.ray).toBeNull();
  });

  it('writes the status of a refusal and of a HEAD', async () => {
    await app.request(`${BASE}/healthz`, { method: 'HEAD' }, { ...testEnv, SESSION_SECRET: undefined } as unknown as AppEnv);
    expect(lines[0]).toMatchObject({ method: 'HEAD', route: '/healthz', status: 503 });
  });

  it('goes to console.log as one JSON line by default', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const plain = createApp({ requestLog: {} });
    await plain.request(`${BASE}/api/health?to=${CONTACT}`, { headers: { 'cf-ray': RAY } }, testEnv);
    expect(log).toHaveBeenCalledTimes(1);
    const text = String(log.mock.calls[0]?.[0]);
    expect(text).not.toContain('\n');
    expect(JSON.parse(text)).toMatchObject({ type: 'request', ray: RAY, route: '/api/health', status: 200 });
    expect(text).not.toContain('demo.test');
  });

  it('is off unless asked for (createApp without requestLog writes nothing)', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await createApp().request(`${BASE}/api/health`, {}, testEnv);
    expect(log).not.toHaveBeenCalled();
  });
});
