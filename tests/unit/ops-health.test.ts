/**
 * The health check's decision (src/lib/ops/health.ts, issue 24): 503 with the reason when
 * SESSION_SECRET is missing, the upstream does not answer or a config fault shows; 200 otherwise;
 * never a value from the environment in the body.
 */
import { describe, expect, it } from 'vitest';
import { healthAnswer, MIN_SESSION_SECRET_LENGTH, shouldProbe, timeoutShape, urlShape, type HealthFacts } from '../../src/lib/ops/health';

const FINE: HealthFacts = {
  sessionSecretLength: 32,
  upstreamUrl: 'empty',
  upstreamAuthUrl: 'empty',
  upstreamTimeout: 'unset',
  missingBindings: [],
  upstream: { kind: 'reference' },
};
const codes = (f: Partial<HealthFacts>) => healthAnswer({ ...FINE, ...f }).body.problems.map((p) => p.code);

describe('healthAnswer', () => {
  it('answers 200 {ok: true} when configured, with the built-in reference counted as up', () => {
    expect(healthAnswer(FINE)).toEqual({ status: 200, body: { ok: true, upstream: 'reference', problems: [], warnings: [] } });
  });

  it('answers 200 with the time a configured upstream took', () => {
    const a = healthAnswer({ ...FINE, upstreamUrl: 'ok', upstream: { kind: 'up', ms: 41.6 } });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ ok: true, upstream: 'up', upstreamMs: 42 });
  });

  it('answers 503 without SESSION_SECRET, and with one shorter than the API accepts', () => {
    const missing = healthAnswer({ ...FINE, sessionSecretLength: 0 });
    expect(missing.status).toBe(503);
    expect(missing.body.ok).toBe(false);
    expect(missing.body.problems).toEqual([{ code: 'session-secret-missing', message: expect.stringContaining('wrangler secret put SESSION_SECRET') }]);
    expect(codes({ sessionSecretLength: MIN_SESSION_SECRET_LENGTH - 1 })).toEqual(['session-secret-short']);
    expect(codes({ sessionSecretLength: MIN_SESSION_SECRET_LENGTH })).toEqual([]);
  });

  it('answers 503 when the upstream does not answer, naming the fault and an HTTP status', () => {
    const down = healthAnswer({ ...FINE, upstreamUrl: 'ok', upstream: { kind: 'down', fault: 'timeout', ms: 3000 } });
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ ok: false, upstream: 'down', upstreamMs: 3000 });
    expect(down.body.problems[0]?.message).toMatch(/did not answer: timeout/);
    const http = healthAnswer({ ...FINE, upstreamUrl: 'ok', upstream: { kind: 'down', fault: 'http', status: 502, ms: 5 } });
    expect(http.body.problems[0]?.message).toMatch(/HTTP 502/);
  });

  it('answers 503 for an unusable UPSTREAM_URL or UPSTREAM_AUTH_URL, and for a missing binding', () => {
    expect(healthAnswer({ ...FINE, upstreamUrl: 'bad', upstream: { kind: 'skipped' } }).body).toMatchObject({ ok: false, upstream: 'unchecked' });
    expect(codes({ upstreamUrl: 'bad', upstream: { kind: 'skipped' } })).toEqual(['upstream-url-invalid']);
    expect(codes({ upstreamAuthUrl: 'bad' })).toEqual(['upstream-auth-url-invalid']);
    expect(codes({ missingBindings: ['STAFF', 'LIMITS'] })).toEqual(['binding-missing']);
    expect(healthAnswer({ ...FINE, missingBindings: ['STAFF', 'LIMITS'] }).body.problems[0]?.message).toContain('STAFF, LIMITS');
  });

  it('lists every fault at once', () => {
    expect(codes({ sessionSecretLength: 0, upstreamUrl: 'ok', upstream: { kind: 'down', fault: 'network', ms: 1 } })).toEqual([
      'session-secret-missing',
      'upstream-down',
    ]);
  });

  it('warns, without a 503, about a timeout the client ignores', () => {
    const a = healthAnswer({ ...FINE, upstreamTimeout: 'bad' });
    expect(a.status).toBe(200);
    expect(a.body.warnings.map((w) => w.code)).toEqual(['upstream-timeout-ignored']);
  });
});

describe('the shapes it is decided from', () => {
  it('reads URLs as the upstream client does: absolute http(s) only', () => {
    expect(urlShape(undefined)).toBe('empty');
    expect(urlShape('  ')).toBe('empty');
    expect(urlShape('https://api.example.com')).toBe('ok');
    expect(urlShape('http://127.0.0.1:9/')).toBe('ok');
    expect(urlShape('api.example.com')).toBe('bad');
    expect(urlShape('ftp://api.example.com')).toBe('bad');
  });

  it('reads UPSTREAM_TIMEOUT_MS as functions/upstream/timeout.ts does', () => {
    expect(['', '15000', '600000', '0', '600001', '1.5', 'abc'].map(timeoutShape)).toEqual(['unset', 'ok', 'ok', 'bad', 'bad', 'bad', 'bad']);
  });

  it('asks the upstream only when UPSTREAM_URL is usable', () => {
    expect([shouldProbe({ upstreamUrl: 'ok' }), shouldProbe({ upstreamUrl: 'empty' }), shouldProbe({ upstreamUrl: 'bad' })]).toEqual([true, false, false]);
  });
});
