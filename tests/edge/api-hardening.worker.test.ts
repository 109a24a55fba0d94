/**
 * The holes an attack test found in the edge (issue 9): cookies that broke replies (4),
 * bodies answered before they were read (5), cross-site posts (6), the reference's HTTP face
 * on every deployment (8), and a missing SESSION_SECRET. Each test is the attacker's request.
 */
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import reference from '../../functions/reference';
import { REF_SECRET_HEADER } from '../../functions/middleware/dev-faces';
import { FLASH_MAX_BYTES, FLASH_MAX_TEXT } from '../../src/lib/page/flash';
import { CONTACT_COOKIE, signContact } from '../../src/lib/lookup/contact-cookie';
import { encodeId } from '../../src/lib/util/ids';
import { BASE, Jar, app, backOf, flashOf, page, postForm, postJson, setCookies, testEnv } from './api-lookup.helpers';

const IEAE = page(1308, 21308, 'IEAE');
const typed = { checkType: '2', email: 'hardening@demo.test', code: '' } as const;

/** No reply may show how the Worker is built. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat .+:\d+:\d+|\/work\/|functions\/|node_modules|\.ts:\d|Error:/);
}

function expectHeadersFit(res: Response): void {
  for (const c of res.headers.getSetCookie()) expect(c.length).toBeLessThan(4096);
  let total = 0;
  res.headers.forEach((v, k) => (total += k.length + v.length + 4));
  expect(total).toBeLessThan(8 * 1024);
}

describe('hole 4: cookies never break a reply, nothing typed is lost', () => {
  it('a no-JS lookup post with a 2,000-character back path comes back to the page with its values', async () => {
    const back = `/IEAESearch/21308/${encodeId(1308)}/visitor?f=${'x'.repeat(2000)}`;
    const res = await postForm('/api/send-code', { ...IEAE, back, ...typed, email: 'not-an-email' });
    expect(res.status).toBe(303);
    // Too long for the flash to belong to: the page's own path instead.
    expect(res.headers.get('location')).toBe(backOf(IEAE));
    expect(flashOf(res, backOf(IEAE))?.values['email']).toBe('not-an-email');
    expectHeadersFit(res);
  });

  it.each([
    ['form post', false],
    ['JSON', true],
  ])('an upstream refusal with a 5,000-character message is cut for display (%s)', async (_name, json) => {
    const long = `refused: ${'very long reason '.repeat(300)}`;
    vi.spyOn(reference, 'fetch').mockImplementation(async () => Response.json({ code: 600, msg: long, data: null }));
    const body = { ...IEAE, ...typed };
    const res = json ? await postJson('/api/send-code', body) : await postForm('/api/send-code', body);
    if (json) {
      const reply = (await res.json()) as { code: number; msg: string };
      expect(reply.code).toBe(600);
      expect(reply.msg.length).toBeLessThanOrEqual(FLASH_MAX_TEXT);
      // issue 14 item 1: the upstream's words under a translated lead sentence
      expect(reply.msg.split('\n')[1]?.startsWith('refused: very long reason')).toBe(true);
    } else {
      expect(res.status).toBe(303);
      const flash = flashOf(res, backOf(IEAE));
      expect(flash?.notice?.text?.length).toBeLessThanOrEqual(FLASH_MAX_TEXT);
      expect(flash?.values['email']).toBe(typed.email);
      expectHeadersFit(res);
    }
  });

  it('a register post with 250 fields answers 303 with headers that fit, the form values kept', async () => {
    const jar = new Jar({
      [CONTACT_COOKIE]: await signContact({ expoId: 1308, contact: 'none@demo.test', checkType: 2 }, testEnv.SESSION_SECRET ?? ''),
    });
    const fields: Record<string, string> = { route: 'IEAEForm', path: `21308/${encodeId(1308)}/visitor`, idem: 'h'.repeat(24), uname: '留下' };
    for (let i = 0; i < 250; i++) fields[`extra${i}`] = 'v'.repeat(200);
    const res = await postForm('/api/register', fields, { jar });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/IEAEForm/21308/${encodeId(1308)}/visitor`);
    expectHeadersFit(res);
    const flash = flashOf(res, `/IEAEForm/21308/${encodeId(1308)}/visitor`);
    expect(flash?.values['uname']).toBe('留下');
    expect(decodeURIComponent(res.headers.getSetCookie().find((c) => c.startsWith('flash='))?.split(';')[0] ?? '').length).toBeLessThanOrEqual(FLASH_MAX_BYTES + 6);
  });
});

describe('hole 5: bodies are read bounded; no reply shows a stack trace', () => {
  const big = 'lang=en&pad=' + 'x'.repeat(1024 * 1024);

  it('40 concurrent 1 MB posts to /api/lang all answer 413 with a message', async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, () =>
        app.request(`${BASE}/api/lang`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: big }, testEnv),
      ),
    );
    for (const res of replies) {
      expect(res.status).toBe(413);
      const reply = (await res.json()) as { msg: string };
      expect(reply.msg).toMatch(/too large/);
    }
  });

  it('a body without Content-Length (streamed) is counted as it arrives', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await app.request(`${BASE}/api/lookup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit, testEnv);
    expect(res.status).toBe(413);
  });

  it('a body at the limit still works', async () => {
    const res = await postForm('/api/lang', { lang: 'en', back: `/${'a'.repeat(3000)}` });
    expect(res.status).toBe(303);
  });

  it('an unexpected failure answers a plain sentence, the detail only in the log', async () => {
    const a = createApp();
    a.get('/boom', () => {
      throw new Error('at secretThing (/work/main/functions/x.ts:1:2)');
    });
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await a.request(`${BASE}/boom`, {}, testEnv);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ msg: expect.stringMatching(/went wrong/) });
    expectNoInternals(text);
    expect(log).toHaveBeenCalled();
  });
});

describe('hole 6: posts from another site are refused', () => {
  const evil = 'https://evil.example';
  const routes: [string, Record<string, string>][] = [
    ['/api/lang', { lang: 'en' }],
    ['/api/send-code', { ...IEAE, ...typed }],
    ['/api/lookup', { ...IEAE, ...typed, code: '123456' }],
    ['/api/register', { route: 'IEAEForm', path: `21308/${encodeId(1308)}/visitor` }],
    // issue 19 item 3: a cross-site page must not sign a visitor out (nothing expired, no Clear-Site-Data)
    ['/api/forget', { back: `/IEAESearch/21308/${encodeId(1308)}/visitor` }],
  ];

  it.each(routes)('%s: Origin of another site → 403, nothing set', async (path, body) => {
    for (const headers of [{ origin: evil }, { referer: `${evil}/page` }, { origin: 'null' }]) {
      const res = await app.request(
        `${BASE}${path}`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body), redirect: 'manual' },
        testEnv,
      );
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(((await res.json()) as { msg: string }).msg).toMatch(/another site/);
    }
  });

  it('the same origin, and a request that names none (not a browser), go on', async () => {
    for (const headers of [{ origin: BASE }, { referer: `${BASE}/IEAESearch/x` }, {}]) {
      const res = await app.request(
        `${BASE}/api/lang`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams({ lang: 'en' }), redirect: 'manual' },
        testEnv,
      );
      expect(res.status).toBe(303);
    }
  });

  it('JSON is read only as exactly application/json: text/plain; x=application/json is not', async () => {
    const json = JSON.stringify({ ...IEAE, ...typed });
    const simple = await app.request(`${BASE}/api/send-code`, { method: 'POST', headers: { 'content-type': 'text/plain; x=application/json' }, body: json }, testEnv);
    expect(simple.status).toBe(400);
    expect(setCookies(simple)).toEqual([]);
    const real = await app.request(`${BASE}/api/send-code`, { method: 'POST', headers: { 'content-type': 'Application/JSON; charset=utf-8' }, body: JSON.stringify({ ...IEAE, ...typed, email: 'bad' }) }, testEnv);
    expect(real.status).toBe(200);
    expect(((await real.json()) as { code: number }).code).toBe(400);
  });
});

describe('hole 8: the reference HTTP face and the dev outbox are closed unless a local run opens them', () => {
  const aesKeyPath = '/custom/CustomerUserInfo/selectAESKey?expoId=1308';
  const get = (url: string, env: Partial<AppEnv>, headers: Record<string, string> = {}) =>
    app.request(url, { headers: { expoId: '1308', ...headers } }, { ...testEnv, ...env } as AppEnv);

  it.each([
    ['REF_HTTP unset', {}],
    ['UPSTREAM_URL set', { REF_HTTP: '1', UPSTREAM_URL: 'https://api.example' }],
    ['REF_HTTP=1 on a public host, no secret configured', { REF_HTTP: '1' }],
  ])('%s → 404', async (_name, env) => {
    const res = await get(`${BASE}${aesKeyPath}`, env);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/aesKey/);
  });

  it('REF_HTTP=1 with a secret: only with the right x-ref-secret header', async () => {
    const env = { REF_HTTP: '1', REF_HTTP_SECRET: 'a-long-shared-secret-0123' };
    expect((await get(`${BASE}${aesKeyPath}`, env)).status).toBe(404);
    expect((await get(`${BASE}${aesKeyPath}`, env, { [REF_SECRET_HEADER]: 'a-long-shared-secret-0124' })).status).toBe(404);
    const ok = await get(`${BASE}${aesKeyPath}`, env, { [REF_SECRET_HEADER]: env.REF_HTTP_SECRET });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { code: number }).code).toBe(200);
  });

  it('REF_HTTP=1 without a secret answers on a loopback host (npm start)', async () => {
    expect((await get(`http://127.0.0.1:8787${aesKeyPath}`, { REF_HTTP: '1' })).status).toBe(200);
    expect((await get(`http://127.0.0.1:8787/wx/anything`, {})).status).toBe(404);
  });

  it('/dev/* only with DEV_OUTBOX=1 and no UPSTREAM_URL', async () => {
    expect((await get(`${BASE}/dev/outbox`, { DEV_OUTBOX: '1' })).status).toBe(200);
    expect((await get(`${BASE}/dev/outbox`, { DEV_OUTBOX: '' })).status).toBe(404);
    expect((await get(`${BASE}/dev/outbox`, { DEV_OUTBOX: '1', UPSTREAM_URL: 'https://api.example' })).status).toBe(404);
  });
});

describe('safe production defaults', () => {
  it.each([
    ['missing', undefined],
    ['short', 'too-short'],
  ])('a %s SESSION_SECRET stops API calls with 503 and an operator log line; health still answers', async (_name, secret) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const env = { ...testEnv, SESSION_SECRET: secret } as AppEnv;
    const res = await postJson('/api/lookup', { ...IEAE, ...typed, code: '123456' }, { env });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { msg: string }).msg).toMatch(/not ready/);
    expect(log.mock.calls.flat().join(' ')).toMatch(/SESSION_SECRET/);
    expect((await app.request(`${BASE}/api/health`, {}, env)).status).toBe(200);
  });
});
