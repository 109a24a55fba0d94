/**
 * `GET /healthz` (functions/healthz.ts, issue 24): 503 with the reason when SESSION_SECRET is
 * missing or the upstream does not answer, 200 otherwise; HEAD too; never a secret in the body.
 * `GET /api/health` keeps answering `{ok: true}` for old monitors.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import { MIN_SESSION_SECRET } from '../../functions/api';
import type { AppEnv } from '../../functions/env';
import { MIN_SESSION_SECRET_LENGTH, type HealthBody } from '../../src/lib/ops/health';

const testEnv = env as unknown as AppEnv;
const BASE = 'https://expo.example';
const ORGANISER = 'https://api.organiser.example';

/** A fake organiser API: answers selectAESKey with an envelope (a refusal, as for an unknown expo). */
const seen: string[] = [];
const answering = createApp({
  healthCheck: {
    fetch: async (req) => {
      seen.push(new URL(req.url).pathname);
      return Response.json({ code: 404, msg: 'unknown expo', data: null });
    },
  },
});
const failing = createApp({ healthCheck: { fetch: async () => new Response('bad gateway', { status: 502 }) } });
// The default app: the probe goes out with the real fetch.
const app = createApp();

/** The test bindings with `overrides` (a value `undefined` removes a binding). */
async function check(a: ReturnType<typeof createApp>, overrides: Record<string, unknown>, method = 'GET') {
  const res = await a.request(`${BASE}/healthz`, { method }, { ...testEnv, ...overrides } as unknown as AppEnv);
  return { res, text: method === 'HEAD' ? '' : await res.text() };
}

describe('GET /healthz', () => {
  it('answers 200 {ok: true} when configured, the built-in reference counted as up, not cached', async () => {
    const { res, text } = await check(app, {});
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(text)).toEqual({ ok: true, upstream: 'reference', problems: [], warnings: [] } satisfies HealthBody);
  });

  it('answers 503 naming SESSION_SECRET when it is missing, without any secret in the body', async () => {
    const { res, text } = await check(app, { SESSION_SECRET: undefined });
    expect(res.status).toBe(503);
    const body = JSON.parse(text) as HealthBody;
    expect(body.ok).toBe(false);
    expect(body.problems.map((p) => p.code)).toEqual(['session-secret-missing']);
    expect(text).not.toContain(testEnv.BYPASS_CODE ?? '2468');
    expect(text).not.toContain(testEnv.REF_PAY_SECRET ?? 'x');
  });

  it('never shows the session secret it measured, nor the upstream address', async () => {
    const secret = 'short-secret';
    const { res, text } = await check(answering, { SESSION_SECRET: secret, UPSTREAM_URL: `${ORGANISER}/` });
    expect(res.status).toBe(503);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('organiser');
  });

  it('answers 200 when a configured upstream answers (a refusal is an answer), asking it once', async () => {
    seen.length = 0;
    const { res, text } = await check(answering, { UPSTREAM_URL: ORGANISER });
    expect(res.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ ok: true, upstream: 'up', problems: [] });
    expect(seen).toEqual(['/custom/CustomerUserInfo/selectAESKey']);
  });

  it('answers 503 when the upstream answers HTTP 502', async () => {
    const { res, text } = await check(failing, { UPSTREAM_URL: ORGANISER });
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toMatchObject({ ok: false, upstream: 'down', problems: [{ code: 'upstream-down', message: expect.stringContaining('HTTP 502') }] });
  });

  it('answers 503 when the upstream is down (nothing listens at its address)', async () => {
    const { res, text } = await check(app, { UPSTREAM_URL: 'http://127.0.0.1:9' });
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toMatchObject({ ok: false, upstream: 'down', problems: [{ code: 'upstream-down' }] });
  });

  it('answers 503 for an UPSTREAM_URL that is not a URL, without asking anything', async () => {
    const { res, text } = await check(failing, { UPSTREAM_URL: 'api.organiser.example' });
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toMatchObject({ upstream: 'unchecked', problems: [{ code: 'upstream-url-invalid' }] });
  });

  it('answers 503 when a binding is missing', async () => {
    const { res, text } = await check(app, { STAFF: undefined });
    expect(res.status).toBe(503);
    expect(JSON.parse(text)).toMatchObject({ problems: [{ code: 'binding-missing', message: expect.stringContaining('STAFF') }] });
  });

  it('answers HEAD with the status and no body', async () => {
    expect((await check(app, {}, 'HEAD')).res.status).toBe(200);
    const down = await check(app, { SESSION_SECRET: undefined }, 'HEAD');
    expect(down.res.status).toBe(503);
    expect(await down.res.text()).toBe('');
  });

  it('measures SESSION_SECRET as the API does', () => {
    expect(MIN_SESSION_SECRET_LENGTH).toBe(MIN_SESSION_SECRET);
  });
});

describe('GET /api/health (the old liveness check)', () => {
  it('still answers 200 {ok: true}, even without SESSION_SECRET', async () => {
    const res = await app.request(`${BASE}/api/health`, {}, { ...testEnv, SESSION_SECRET: undefined } as unknown as AppEnv);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
