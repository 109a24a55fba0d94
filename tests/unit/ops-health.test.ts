/**
 * The health check's decision (src/lib/ops/health.ts, issues 24 and 29): 503 with the reason when
 * SESSION_SECRET is missing, a database's schema is not in place, the upstream does not answer or
 * a config fault shows; 200 otherwise; never a value from the environment in the body. A stranger
 * gets the verdict only; the operator's token, compared in constant time, gets the details.
 */
import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  healthAnswer,
  healthLogLine,
  MIN_HEALTH_TOKEN_LENGTH,
  MIN_SESSION_SECRET_LENGTH,
  publicBody,
  shouldProbe,
  timeoutShape,
  tokenMatches,
  urlShape,
  type HealthFacts,
  type SchemaCheck,
} from '../../src/lib/ops/health';

const FINE: HealthFacts = {
  sessionSecretLength: 32,
  upstreamUrl: 'empty',
  upstreamAuthUrl: 'empty',
  upstreamTimeout: 'unset',
  missingBindings: [],
  schema: [
    { db: 'STAFF', state: 'ok', latest: '0002_gate_key_show.sql' },
    { db: 'DB', state: 'ok', latest: '0015_expo_visit.sql' },
  ],
  upstream: { kind: 'reference' },
};
const schemaOf = (staff: SchemaCheck['state'], db: SchemaCheck['state'] = 'ok'): SchemaCheck[] => [
  { db: 'STAFF', state: staff, latest: '0002_gate_key_show.sql' },
  { db: 'DB', state: db, latest: '0015_expo_visit.sql', ...(db === 'unreadable' ? { error: 'D1_ERROR: overloaded' } : {}) },
];
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

  it('answers 503 `schema` when a database was never migrated or lacks the newest migration, saying what to run', () => {
    const never = healthAnswer({ ...FINE, schema: schemaOf('missing') });
    expect(never.status).toBe(503);
    expect(never.body.problems).toEqual([{ code: 'schema', message: expect.stringContaining('STAFF (never migrated)') }]);
    expect(never.body.problems[0]?.message).toContain('`npx wrangler d1 migrations apply STAFF --remote`');
    const both = healthAnswer({ ...FINE, schema: schemaOf('missing', 'behind') }).body.problems;
    expect(both).toHaveLength(1);
    expect(both[0]?.message).toContain('STAFF (never migrated), DB (0015_expo_visit.sql not applied)');
    expect(both[0]?.message).toContain('apply STAFF --remote` and `npx wrangler d1 migrations apply DB --remote');
    expect(codes({ schema: [] })).toEqual([]);
  });

  it('answers 503 when a database cannot be read, keeping its error out of the details', () => {
    const a = healthAnswer({ ...FINE, schema: schemaOf('ok', 'unreadable') });
    expect(a.body.problems.map((p) => p.code)).toEqual(['database-unreadable']);
    expect(a.body.problems[0]?.message).toContain('database DB could not be read');
    expect(JSON.stringify(a.body)).not.toContain('overloaded');
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

describe('who sees what (issue 29)', () => {
  it('gives a stranger the verdict only', () => {
    expect(publicBody(healthAnswer(FINE))).toEqual({ ok: true });
    const down = healthAnswer({ ...FINE, upstreamUrl: 'ok', upstream: { kind: 'down', fault: 'timeout', ms: 3000 }, upstreamTimeout: 'bad' });
    expect(publicBody(down)).toEqual({ ok: false });
  });

  it('logs the details of an unhealthy check: codes, sentences, the upstream, the databases that are not in place and their errors', () => {
    const facts: HealthFacts = { ...FINE, upstreamUrl: 'ok', upstream: { kind: 'down', fault: 'http', status: 502, ms: 12.4 }, schema: schemaOf('missing', 'unreadable') };
    expect(healthLogLine(healthAnswer(facts), facts)).toEqual({
      event: 'healthz.unhealthy',
      status: 503,
      faults: ['schema', 'database-unreadable', 'upstream-down'],
      problems: expect.any(Array),
      upstream: 'down',
      upstreamMs: 12,
      schema: [
        { db: 'STAFF', state: 'missing', latest: '0002_gate_key_show.sql' },
        { db: 'DB', state: 'unreadable', latest: '0015_expo_visit.sql', error: 'D1_ERROR: overloaded' },
      ],
    });
  });

  it('reads the token of an Authorization: Bearer header only', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('  bearer   abc ')).toBe('abc');
    expect([null, undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'abc', 'Bearer a b'].map(bearerToken)).toEqual([null, null, null, null, null, null, null, null]);
  });

  it('matches the configured token exactly, and grants nothing without one of at least 16 characters', async () => {
    const token = 'x'.repeat(MIN_HEALTH_TOKEN_LENGTH);
    expect(MIN_HEALTH_TOKEN_LENGTH).toBe(16);
    expect(await tokenMatches(token, token)).toBe(true);
    expect(await tokenMatches(token, `${token}\n`)).toBe(true); // a secret set with a trailing newline
    expect(await tokenMatches(`${token}x`, token)).toBe(false);
    expect(await tokenMatches(token.slice(1), token)).toBe(false);
    expect(await tokenMatches(token.toUpperCase(), token)).toBe(false);
    expect(await tokenMatches(null, token)).toBe(false);
    expect(await tokenMatches('', '')).toBe(false);
    expect(await tokenMatches(undefined, undefined)).toBe(false);
    expect(await tokenMatches('short', 'short')).toBe(false);
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
