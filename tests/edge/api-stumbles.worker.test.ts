/**
 * Issue 14, the lookup's and the API's stumbles, in workerd against the in-process reference:
 * upstream refusals in the page language (item 1), a dead code says a new one is needed and
 * drops the countdown (item 2), the contact kept for a reload (item 3), and short 400 texts on
 * every /api route (item 6). /api/lang's answers are in app.worker.test.ts (item 5).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../src/i18n';
import { decodeSentTo, SENT_COOKIE, SENT_TO_COOKIE } from '../../src/lib/lookup/resend';
import type { LookupOutcome } from '../../src/islands/lookup-types';
import type { AppEnv } from '../../functions/env';
import { BIND_COOKIE, signBinding } from '../../src/lib/security/friction';
import {
  app,
  BASE,
  backOf,
  fastEnv,
  flashOf,
  Jar,
  lookupJson,
  outboxCode,
  page,
  postForm,
  sendJson,
  setCookie,
  testEnv,
  SECRET,
} from './api-lookup.helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

const ASIA = page(1312, 21312, 'Asia');
const GENERIC_9999 = page(9999, 29999, '');

describe('item 1: upstream refusals in the page language', () => {
  it('too many sends (REF_SENDS_PER_HOUR reached): the catalogue text in zh, en and thai, JSON and no-JS', async () => {
    const env: AppEnv = { ...fastEnv, REF_SENDS_PER_HOUR: '1' };
    const fields = { ...ASIA, checkType: '2', email: 'many@demo.test' };
    expect((await sendJson(fields, { jar: new Jar(), env })).reply.code).toBe(200);
    for (const lang of ['zh', 'en', 'thai'] as const) {
      const { reply } = await sendJson({ ...fields, pageLang: lang }, { jar: new Jar(), env });
      expect(reply).toEqual({ code: 600, msg: MESSAGES[lang]['search.sendTooMany'], data: null });
    }
    const form = await postForm('/api/send-code', fields, { jar: new Jar(), env });
    expect(form.status).toBe(303);
    expect(flashOf(form, backOf(ASIA))?.notice).toEqual({ tone: 'error', key: 'search.sendTooMany', vars: {}, text: null });
  });

  it('an unknown expo (9999): "unknown expo 9999" becomes the catalogue text, never the raw English', async () => {
    const { reply } = await sendJson({ ...GENERIC_9999, checkType: '2', email: 'a@demo.test' }, { jar: new Jar({ _h5_lang: 'thai' }), env: fastEnv });
    expect(reply).toEqual({ code: 404, msg: MESSAGES.thai['search.unknownExpo'], data: null });
    const form = await postForm('/api/send-code', { ...GENERIC_9999, checkType: '2', email: 'a@demo.test' }, { jar: new Jar(), env: fastEnv });
    const flash = flashOf(form, backOf(GENERIC_9999));
    expect(flash?.notice).toEqual({ tone: 'error', key: 'search.unknownExpo', vars: {}, text: null });
    expect(flash?.values['email']).toBe('a@demo.test');
  });

  it('an unknown message is shown under the translated lead sentence', async () => {
    // Without DEV_OUTBOX or a webhook the reference refuses with 'no delivery configured'.
    const { DEV_OUTBOX: _outbox, ...env } = fastEnv;
    const fields = { ...ASIA, checkType: '2', email: 'nodelivery@demo.test' };
    const { reply } = await sendJson({ ...fields, pageLang: 'en' }, { jar: new Jar(), env: env as AppEnv });
    expect(reply).toEqual({ code: 600, msg: `${MESSAGES.en['search.upstreamSaid']}\nno delivery configured`, data: null });
    const form = await postForm('/api/send-code', fields, { jar: new Jar(), env: env as AppEnv });
    expect(flashOf(form, backOf(ASIA))?.notice).toEqual({ tone: 'error', key: 'search.upstreamSaid', vars: {}, text: 'no delivery configured' });
  });
});

describe('item 2: a code that can no longer work says so and drops the countdown', () => {
  type Failed = Extract<LookupOutcome, { outcome: 'failed' }>;
  const fields = { ...ASIA, checkType: '2', email: 'locked@demo.test' };

  it('JSON: four wrong tries show nothing (spec §8); the fifth says a new code is needed and deletes the `sent` cookie; the right code after it too', async () => {
    const jar = new Jar();
    expect((await sendJson(fields, { jar, env: fastEnv })).reply.code).toBe(200);
    expect(jar.has(SENT_COOKIE)).toBe(true);
    const right = await outboxCode('locked@demo.test');
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      const { reply, res } = await lookupJson({ ...fields, code: wrong }, { jar, env: fastEnv });
      expect(reply.data).toEqual({ outcome: 'failed' });
      expect(setCookie(res, SENT_COOKIE)).toBeUndefined();
    }
    const fifth = await lookupJson({ ...fields, code: wrong, pageLang: 'thai' }, { jar, env: fastEnv });
    expect(fifth.reply.data).toEqual({ outcome: 'failed', message: MESSAGES.thai['search.codeLocked'], newCode: true } satisfies Failed);
    expect(setCookie(fifth.res, SENT_COOKIE)?.attrs['max-age']).toBe('0');
    expect(jar.has(SENT_COOKIE)).toBe(false);
    const after = await lookupJson({ ...fields, code: right }, { jar, env: fastEnv });
    expect(after.reply.data).toEqual({ outcome: 'failed', message: MESSAGES.zh['search.codeLocked'], newCode: true });
    // and a new code can be asked for at once (the edge's countdown is gone)
    expect((await sendJson(fields, { jar, env: fastEnv })).reply.code).toBe(200);
  });

  it('no JS: the page comes back with the message under the code field, every value kept, no countdown', async () => {
    const jar = new Jar();
    await postForm('/api/send-code', fields, { jar, env: fastEnv });
    const right = await outboxCode('locked@demo.test');
    // expire the code (the reference keeps it 10 minutes)
    await testEnv.DB.prepare('UPDATE verification_codes SET expires_at = 0 WHERE contact = ?').bind('locked@demo.test').run();
    const res = await postForm('/api/lookup', { ...fields, code: right }, { jar, env: fastEnv });
    expect(res.status).toBe(303);
    const flash = flashOf(res, backOf(ASIA));
    expect(flash?.error).toEqual({ field: 'code', key: 'search.codeExpired', text: null });
    expect(flash?.values).toMatchObject({ email: 'locked@demo.test', code: right });
    expect(jar.has(SENT_COOKIE)).toBe(false);
  });

  it('an unknown expo on look-up says so, and keeps the countdown (a new code would not help)', async () => {
    // The browser was sent a code for this contact and expo (issue 19 item 6: only it may check one).
    const jar = new Jar({ [BIND_COOKIE]: await signBinding({ c: 'a@demo.test', e: 9999, n: 'stumbles' }, SECRET) });
    const { reply, res } = await lookupJson({ ...GENERIC_9999, checkType: '2', email: 'a@demo.test', code: '123456' }, { jar, env: fastEnv });
    expect(reply.data).toEqual({ outcome: 'failed', message: MESSAGES.zh['search.unknownExpo'], newCode: false });
    expect(setCookie(res, SENT_COOKIE)).toBeUndefined();
  });
});

describe('item 3: the contact a code was sent to is kept for a reload, in an HttpOnly cookie', () => {
  it('JSON and form sends set `sentTo` (10 minutes, HttpOnly, Lax) holding the contact of this expo; a refused send sets none', async () => {
    const jar = new Jar();
    const { res } = await sendJson({ ...ASIA, checkType: '1', areaCode: '+84', phone: '901234567' }, { jar, env: fastEnv });
    const c = setCookie(res, SENT_TO_COOKIE);
    expect(c?.attrs).toMatchObject({ path: '/', 'max-age': '600', samesite: 'Lax' });
    expect(c?.attrs).toHaveProperty('httponly');
    const value = decodeURIComponent(c?.value ?? '');
    expect(decodeSentTo(value, 1312)).toEqual({ expoId: 1312, checkType: 1, areaCode: '+84', phone: '901234567', email: '' });
    expect(decodeSentTo(value, 1308), 'another expo reads nothing').toBeNull();
    const form = await postForm('/api/send-code', { ...ASIA, checkType: '2', email: 'keep@demo.test' }, { jar: new Jar(), env: fastEnv });
    expect(decodeSentTo(decodeURIComponent(setCookie(form, SENT_TO_COOKIE)?.value ?? ''), 1312)?.email).toBe('keep@demo.test');
    // the edge's own 60 s refusal and the upstream's refusal set no contact cookie
    const early = await sendJson({ ...ASIA, checkType: '2', email: 'x@demo.test' }, { jar, env: fastEnv });
    expect(early.reply.code).toBe(600);
    expect(setCookie(early.res, SENT_TO_COOKIE)).toBeUndefined();
  });
  // The page side (the form typed in again after a reload) is in tests/e2e/stumbles-lookup.spec.ts:
  // the edge app of these tests serves no Astro pages.
});

describe('item 6: no /api route answers a visitor with a schema dump', () => {
  /** Every POST route of functions/api with a body whose fields are all wrong. */
  const ROUTES = [
    '/api/send-code',
    '/api/lookup',
    '/api/camera',
    '/api/seat/companies',
    '/api/seat/detail',
    '/api/seat/person',
    '/api/pledge',
    '/api/health',
    '/api/health/delete',
    '/api/order',
    '/api/order/action',
    '/api/discount',
    '/api/site',
    '/api/forget',
    '/api/lang',
    '/api/register',
  ];
  const BAD = { expoId: 'x', urlId: '-1', fId: 'a', path: '../..', variant: '<b>', lang: 'xx', ticket: '!', back: 'https://evil.example/' };
  /** What a zod error or a field path looks like in a message. */
  const DUMP = /expected|required|invalid_|received|too_small|too_big|issues|ZodError|\w+(?:\.\w+)*: |\[\s*"|"path"/i;

  for (const route of ROUTES) {
    it(`${route}: a short sentence in the request's language (thai), JSON`, async () => {
      const res = await app.request(
        `${BASE}${route}`,
        { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', cookie: '_h5_lang=thai' }, body: JSON.stringify(BAD) },
        fastEnv,
      );
      expect(res.status, route).toBeLessThan(500);
      const body = (await res.json()) as { code?: number; msg?: string | null };
      const msg = body.msg ?? '';
      expect(msg, `${route} says something`).not.toBe('');
      expect(msg, `${route}: ${msg}`).not.toMatch(DUMP);
      expect(msg.length, `${route}: ${msg}`).toBeLessThanOrEqual(160);
      // Thai script: the request's language, not the schema's English
      expect(msg, `${route}: ${msg}`).toMatch(/[\u0E00-\u0E7F]/);
    });
  }

  it('GET routes with bad queries answer the same way', async () => {
    for (const path of ['/api/seat/activities?expoId=x', '/api/seat/image?expoId=1', '/api/health/list?expoId=x', '/api/health/image?id=x']) {
      const res = await app.request(`${BASE}${path}`, { headers: { cookie: '_h5_lang=en', accept: 'application/json' } }, fastEnv);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { msg: string };
      expect(body.msg, path).toBe(MESSAGES.en['api.badPage']);
    }
  });
});
