/**
 * `GET /healthz` (functions/healthz.ts, issues 24 and 29): 503 when SESSION_SECRET is missing,
 * a database in use lacks its migrations or the upstream does not answer, 200 otherwise; HEAD
 * too. Anyone gets `{"ok":true}` / `{"ok":false}` only; the operator's token (HEALTH_TOKEN) gets
 * the faults, and an unhealthy check writes them to the log. The upstream is asked at most once
 * per isolate per HEALTH_PROBE_TTL_MS, however many checks arrive. `GET /api/health` keeps
 * answering `{ok: true}` for old monitors.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app';
import { MIN_SESSION_SECRET } from '../../functions/api';
import type { AppEnv } from '../../functions/env';
import type { HealthCheckOptions } from '../../functions/healthz';
import { LATEST_MIGRATIONS } from '../../functions/schema';
import { HEALTH_PROBE_TTL_MS, MIN_SESSION_SECRET_LENGTH, type HealthBody } from '../../src/lib/ops/health';

const testEnv = env as unknown as AppEnv & { BLANK_D1: D1Database };
const BASE = 'https://expo.example';
const ORGANISER = 'https://api.organiser.example';
const TOKEN = 'test-health-token-0123456789abcdef';

/** An app whose health check asks a fake organiser API, counting the calls; its log lines kept. */
function organiser(answer: () => Promise<Response> | Response, options: Partial<HealthCheckOptions> = {}) {
  const seen: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const app = createApp({
    healthCheck: {
      fetch: async (req) => {
        seen.push(new URL(req.url).pathname);
        return answer();
      },
      log: (line) => lines.push(line),
      ...options,
    },
  });
  return { app, seen, lines };
}
/** selectAESKey's refusal for an unknown expo: an envelope, so an answer. */
const refusal = () => Response.json({ code: 404, msg: 'unknown expo', data: null });
// The default app: the probe goes out with the real fetch.
const plain = organiser(refusal, { fetch: (req) => fetch(req) });

/** The test bindings with `overrides` (a value `undefined` removes a binding), the token when given. */
async function check(a: ReturnType<typeof createApp>, overrides: Record<string, unknown>, init: { method?: string; auth?: string } = {}) {
  const method = init.method ?? 'GET';
  const headers = init.auth === undefined ? undefined : { authorization: init.auth };
  const res = await a.request(`${BASE}/healthz`, { method, ...(headers ? { headers } : {}) }, { ...testEnv, ...overrides } as unknown as AppEnv);
  const text = method === 'HEAD' ? '' : await res.text();
  return { res, text };
}
/** The same, as the operator: HEALTH_TOKEN configured and presented. */
async function detailed(a: ReturnType<typeof createApp>, overrides: Record<string, unknown>, method = 'GET') {
  const { res, text } = await check(a, { HEALTH_TOKEN: TOKEN, ...overrides }, { method, auth: `Bearer ${TOKEN}` });
  return { res, text, body: (text ? JSON.parse(text) : null) as HealthBody };
}

describe('GET /healthz: the operator (HEALTH_TOKEN) sees the faults', () => {
  it('answers 200 when configured and migrated, the built-in reference counted as up, not cached', async () => {
    const { res, body } = await detailed(plain.app, {});
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({ ok: true, upstream: 'reference', problems: [], warnings: [] } satisfies HealthBody);
  });

  it('answers 503 naming SESSION_SECRET when it is missing, without any secret in the body', async () => {
    const { res, text, body } = await detailed(plain.app, { SESSION_SECRET: undefined });
    expect(res.status).toBe(503);
    expect(body.ok).toBe(false);
    expect(body.problems.map((p) => p.code)).toEqual(['session-secret-missing']);
    expect(text).not.toContain(testEnv.BYPASS_CODE ?? '2468');
    expect(text).not.toContain(testEnv.REF_PAY_SECRET ?? 'x');
    expect(text).not.toContain(TOKEN);
  });

  it('never shows the session secret it measured, nor the upstream address', async () => {
    const secret = 'short-secret';
    const { app } = organiser(refusal);
    const { res, text } = await detailed(app, { SESSION_SECRET: secret, UPSTREAM_URL: `${ORGANISER}/` });
    expect(res.status).toBe(503);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('organiser');
  });

  it('answers 200 when a configured upstream answers (a refusal is an answer), asking it once', async () => {
    const { app, seen } = organiser(refusal);
    const { res, body } = await detailed(app, { UPSTREAM_URL: ORGANISER });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ ok: true, upstream: 'up', problems: [] });
    expect(seen).toEqual(['/custom/CustomerUserInfo/selectAESKey']);
  });

  it('answers 503 when the upstream answers HTTP 502', async () => {
    const { app } = organiser(() => new Response('bad gateway', { status: 502 }));
    const { res, body } = await detailed(app, { UPSTREAM_URL: ORGANISER });
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ ok: false, upstream: 'down', problems: [{ code: 'upstream-down', message: expect.stringContaining('HTTP 502') }] });
  });

  it('answers 503 when the upstream is down (nothing listens at its address)', async () => {
    const { res, body } = await detailed(plain.app, { UPSTREAM_URL: 'http://127.0.0.1:9' });
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ ok: false, upstream: 'down', problems: [{ code: 'upstream-down' }] });
  });

  it('answers 503 for an UPSTREAM_URL that is not a URL, without asking anything', async () => {
    const { app, seen } = organiser(refusal);
    const { res, body } = await detailed(app, { UPSTREAM_URL: 'api.organiser.example' });
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ upstream: 'unchecked', problems: [{ code: 'upstream-url-invalid' }] });
    expect(seen).toEqual([]);
  });

  it('answers 503 when a binding is missing', async () => {
    const { res, body } = await detailed(plain.app, { STAFF: undefined });
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ problems: [{ code: 'binding-missing', message: expect.stringContaining('STAFF') }] });
  });

  it('answers HEAD with the status and no body', async () => {
    expect((await check(plain.app, {}, { method: 'HEAD' })).res.status).toBe(200);
    const down = await check(plain.app, { SESSION_SECRET: undefined }, { method: 'HEAD' });
    expect(down.res.status).toBe(503);
    expect(await down.res.text()).toBe('');
  });

  it('measures SESSION_SECRET as the API does', () => {
    expect(MIN_SESSION_SECRET_LENGTH).toBe(MIN_SESSION_SECRET);
  });
});

describe('GET /healthz: the schema is in place (issue 29)', () => {
  it('answers 503 `schema` when the edge database (STAFF) was never migrated, whatever the upstream', async () => {
    const { app, lines } = organiser(refusal);
    for (const upstream of [{}, { UPSTREAM_URL: ORGANISER }]) {
      expect((await check(app, { ...upstream, STAFF: testEnv.BLANK_D1 })).res.status).toBe(503);
      const { body } = await detailed(app, { ...upstream, STAFF: testEnv.BLANK_D1 });
      expect(body.problems).toEqual([{ code: 'schema', message: expect.stringContaining('STAFF (never migrated)') }]);
      expect(body.problems[0]?.message).toContain('npx wrangler d1 migrations apply STAFF --remote');
    }
    expect(lines[0]).toMatchObject({ event: 'healthz.unhealthy', status: 503, faults: ['schema'], schema: [{ db: 'STAFF', state: 'missing', latest: LATEST_MIGRATIONS.STAFF }] });
  });

  it("answers 503 `schema` when the reference's database (DB) was never migrated and the reference is the upstream", async () => {
    const { app, lines } = organiser(refusal);
    const { res, body } = await detailed(app, { DB: testEnv.BLANK_D1 });
    expect(res.status).toBe(503);
    expect(body.problems).toEqual([{ code: 'schema', message: expect.stringContaining('DB (never migrated)') }]);
    expect(lines).toMatchObject([{ schema: [{ db: 'DB', state: 'missing' }] }]);
    // With an organiser's API the reference's database is not used: not checked.
    expect((await detailed(app, { DB: testEnv.BLANK_D1, UPSTREAM_URL: ORGANISER })).res.status).toBe(200);
  });

  it('answers 503 `schema` when the newest migration is not applied, naming it', async () => {
    const db = testEnv.BLANK_D1;
    await db.exec('CREATE TABLE d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)');
    try {
      await db.prepare('INSERT INTO d1_migrations (name) VALUES (?1)').bind('0001_schema.sql').run();
      const { app } = organiser(refusal);
      const { res, body } = await detailed(app, { DB: db });
      expect(res.status).toBe(503);
      expect(body.problems[0]?.message).toContain(`DB (${LATEST_MIGRATIONS.DB} not applied)`);
      // Applied: fine again.
      await db.prepare('INSERT INTO d1_migrations (name) VALUES (?1)').bind(LATEST_MIGRATIONS.DB).run();
      expect((await detailed(app, { DB: db })).res.status).toBe(200);
    } finally {
      await db.exec('DROP TABLE d1_migrations');
    }
  });
});

describe('GET /healthz: the upstream is asked at most once per isolate per HEALTH_PROBE_TTL_MS (issue 29)', () => {
  /** An organiser that takes `ms` to answer, so concurrent checks find its probe in flight. */
  const slow = (ms: number) => () => new Promise<Response>((resolve) => setTimeout(() => resolve(refusal()), ms));

  it('200 checks at once make one upstream call, and each answers 200', async () => {
    const { app, seen } = organiser(slow(50));
    const all = await Promise.all(Array.from({ length: 200 }, () => check(app, { UPSTREAM_URL: ORGANISER })));
    expect(all.map((r) => r.res.status)).toEqual(Array.from({ length: 200 }, () => 200));
    expect(seen.length).toBe(1);
    // 200 more, one after the other, within the TTL: no further call.
    for (let i = 0; i < 200; i++) await check(app, { UPSTREAM_URL: ORGANISER });
    expect(seen.length).toBe(1);
  });

  it('asks again once the answer is older than the TTL, and shares a failure as well', async () => {
    let clock = 1_000_000;
    let status = 200;
    const { app, seen } = organiser(() => (status === 200 ? refusal() : new Response('down', { status })), { now: () => clock });
    expect((await check(app, { UPSTREAM_URL: ORGANISER })).res.status).toBe(200);
    clock += HEALTH_PROBE_TTL_MS - 1;
    status = 502;
    expect((await check(app, { UPSTREAM_URL: ORGANISER })).res.status).toBe(200); // still the shared answer
    expect(seen.length).toBe(1);
    clock += 1;
    for (let i = 0; i < 50; i++) expect((await check(app, { UPSTREAM_URL: ORGANISER })).res.status).toBe(503);
    expect(seen.length).toBe(2);
  });

  it('never reuses an answer for another upstream address', async () => {
    const { app, seen } = organiser(refusal);
    await check(app, { UPSTREAM_URL: ORGANISER });
    await check(app, { UPSTREAM_URL: 'https://other.organiser.example' });
    expect(seen.length).toBe(2);
  });
});

describe('GET /healthz: a stranger gets the verdict only (issue 29)', () => {
  it('answers {"ok":true} or {"ok":false} and nothing else: no upstream state, latency or variable name', async () => {
    const up = organiser(refusal);
    const healthy = await check(up.app, { UPSTREAM_URL: ORGANISER, UPSTREAM_TIMEOUT_MS: 'abc' });
    expect(healthy.res.status).toBe(200);
    expect(healthy.text).toBe('{"ok":true}');
    const down = organiser(() => new Response('bad gateway', { status: 502 }));
    for (const overrides of [{ UPSTREAM_URL: ORGANISER }, { SESSION_SECRET: undefined }, { STAFF: testEnv.BLANK_D1 }, { LIMITS: undefined }]) {
      const { res, text } = await check(down.app, overrides);
      expect(res.status).toBe(503);
      expect(text).toBe('{"ok":false}');
    }
  });

  it('gives no detail for a wrong token, another scheme, a token while none is configured, or a configured one too short', async () => {
    const { app } = organiser(refusal);
    const attempts: [Record<string, unknown>, string][] = [
      [{ HEALTH_TOKEN: TOKEN }, 'Bearer wrong-token-0123456789abcdef'],
      [{ HEALTH_TOKEN: TOKEN }, `Bearer ${TOKEN}x`],
      [{ HEALTH_TOKEN: TOKEN }, `Basic ${TOKEN}`],
      [{ HEALTH_TOKEN: TOKEN }, TOKEN],
      [{ HEALTH_TOKEN: undefined }, `Bearer ${TOKEN}`],
      [{ HEALTH_TOKEN: '' }, 'Bearer '],
      [{ HEALTH_TOKEN: 'short' }, 'Bearer short'],
    ];
    for (const [overrides, auth] of attempts) {
      const { res, text } = await check(app, { ...overrides, SESSION_SECRET: undefined }, { auth });
      expect(res.status).toBe(503);
      expect(text, auth).toBe('{"ok":false}');
    }
    // The right one, in any case of the scheme: the details.
    const { text } = await check(app, { HEALTH_TOKEN: TOKEN, SESSION_SECRET: undefined }, { auth: `bearer ${TOKEN}` });
    expect(JSON.parse(text)).toMatchObject({ ok: false, problems: [{ code: 'session-secret-missing' }] });
  });

  it('writes one log line per unhealthy check, with the details, and none for a healthy one', async () => {
    const { app, lines } = organiser(() => new Response('bad gateway', { status: 502 }));
    await check(app, {});
    expect(lines).toEqual([]);
    await check(app, { UPSTREAM_URL: ORGANISER });
    expect(lines).toEqual([
      {
        event: 'healthz.unhealthy',
        status: 503,
        faults: ['upstream-down'],
        problems: [{ code: 'upstream-down', message: expect.stringContaining('HTTP 502') }],
        upstream: 'down',
        upstreamMs: expect.any(Number),
        schema: [],
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('organiser');
  });
});

describe('GET /api/health (the old liveness check)', () => {
  it('still answers 200 {ok: true}, even without SESSION_SECRET', async () => {
    const res = await plain.app.request(`${BASE}/api/health`, {}, { ...testEnv, SESSION_SECRET: undefined } as unknown as AppEnv);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
