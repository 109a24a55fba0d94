/**
 * The messaging app's share card, the senders of special expos and the success URL of spec §4
 * in workerd, against the in-process reference upstream:
 * - `GET /api/share-signature`: a signature of this site's page, checked against the JS-SDK's
 *   SHA-1 rule; no secret in the answer; another site's url, a page without an expo, a fragment,
 *   a huge query, a cross-site request, 40 requests at once (LIMIT_SHARE_SIGNATURES_PER_IP_MIN),
 *   HEAD and POST;
 * - the reference's `/wx/getwxAppId` (REF_WX_APP_ID) and `/custom/CustomerUserInfo/ajaxData`;
 * - the expo senders (1177 → getSmsCodeHJC, 1380 → getSmsCodeHaiSC, 1349 → getemailCodeEn2)
 *   as the outbox records them;
 * - the guard sending a visitor the silent login knows to the organiser's successfulUrl.
 */
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../functions/env';
import { guard, type WxPort } from '../../functions/middleware/guard';
import reference from '../../functions/reference';
import { jsSdkSignature } from '../../functions/reference/calls/share';
import { DEMO_JSAPI_TICKET } from '../../functions/reference/rules';
import { Path } from '../../src/lib/contract';
import { requestUpstream, type Upstream } from '../../functions/upstream';
import { BASE, LIFTED_LIMITS, app, fastEnv, page, sendJson, testEnv, TIGHT_PER_ADDRESS } from './api-lookup.helpers';

const APP_ID = 'wxdemo0123456789';
const wxEnv: AppEnv = { ...testEnv, ...LIFTED_LIMITS, REF_WX_APP_ID: APP_ID };
const PAGE = `${BASE}/21308/MTMwOA/visitor?f=1`;

interface SignatureReply {
  code: number;
  msg: string | null;
  data: { appId: string; timestamp: string; nonceStr: string; signature: string } | null;
}

async function signature(url: string, init: { headers?: Record<string, string>; method?: string; env?: AppEnv } = {}): Promise<Response> {
  return app.request(
    `${BASE}/api/share-signature?url=${encodeURIComponent(url)}`,
    { method: init.method ?? 'GET', headers: { accept: 'application/json', ...init.headers } },
    init.env ?? wxEnv,
  );
}

describe('GET /api/share-signature (spec §4, §7 ajaxData)', () => {
  it('signs this site\'s page as the JS-SDK does, and answers nothing else', async () => {
    const res = await signature(PAGE);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as SignatureReply;
    expect(body.code).toBe(200);
    expect(Object.keys(body.data ?? {}).sort()).toEqual(['appId', 'nonceStr', 'signature', 'timestamp']);
    const d = body.data!;
    expect(d.appId).toBe(APP_ID);
    expect(d.timestamp).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(d.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(d.signature).toBe(await jsSdkSignature({ ticket: DEMO_JSAPI_TICKET, nonceStr: d.nonceStr, timestamp: d.timestamp, url: PAGE }));
    expect(JSON.stringify(body)).not.toContain(DEMO_JSAPI_TICKET);
  });

  it('asks the app id, the expo check with the encoded expo id, then ajaxData; an expo the check does not confirm: 404', async () => {
    const real = reference.fetch.bind(reference);
    const spy = vi.spyOn(reference, 'fetch');
    try {
      expect((await signature(PAGE)).status).toBe(200);
      const urls = spy.mock.calls.map((c) => new URL((c[0] as Request).url));
      expect(urls.map((u) => u.pathname)).toEqual(['/wx/getwxAppId', '/wx/checkExpo', '/custom/CustomerUserInfo/ajaxData']);
      expect(urls[1]?.searchParams.get('eId')).toBe('MTMwOA');
      spy.mockClear();
      spy.mockImplementation(async (req: Request, env?: Parameters<typeof real>[1]) =>
        new URL(req.url).pathname === '/wx/checkExpo' ? Response.json({ code: 404, msg: 'unknown expo', data: null }) : real(req, env),
      );
      const res = await signature(PAGE);
      expect(res.status).toBe(404);
      expect(spy.mock.calls.map((c) => new URL((c[0] as Request).url).pathname)).toEqual(['/wx/getwxAppId', '/wx/checkExpo']);
    } finally {
      spy.mockRestore();
    }
  });

  it('an expo without an app id (REF_WX_APP_ID unset): 404, no signature', async () => {
    const res = await signature(PAGE, { env: { ...testEnv, ...LIFTED_LIMITS } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as SignatureReply).data).toBeNull();
  });

  it('another site\'s page, a page without an expo, a fragment, a relative or missing url: 400 with a short sentence', async () => {
    for (const url of ['https://evil.example/21308/MTMwOA/visitor', `${BASE}/`, `${PAGE}#x`, '/21308/MTMwOA/visitor', 'javascript:alert(1)']) {
      const res = await signature(url);
      expect(res.status, url).toBe(400);
      const body = (await res.json()) as SignatureReply;
      expect(body.msg).toBe('无法分享此页面。'); // the page language (zh by default)
      expect(body.data).toBeNull();
    }
    const none = await app.request(`${BASE}/api/share-signature`, {}, wxEnv);
    expect(none.status).toBe(400);
  });

  it('a huge query: 400, the upstream never asked', async () => {
    const spy = vi.spyOn(reference, 'fetch');
    try {
      const res = await signature(`${PAGE}&x=${'a'.repeat(8000)}`);
      expect(res.status).toBe(400);
      const raw = await app.request(`${BASE}/api/share-signature?url=${encodeURIComponent(PAGE)}&pad=${'b'.repeat(10_000)}`, {}, wxEnv);
      expect(raw.status).toBe(400);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('a request another site makes (Sec-Fetch-Site cross-site, or its Origin): 403', async () => {
    expect((await signature(PAGE, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await signature(PAGE, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await signature(PAGE, { headers: { 'sec-fetch-site': 'same-origin', origin: BASE } })).status).toBe(200);
  });

  it('HEAD answers without a body; POST is no route', async () => {
    const head = await signature(PAGE, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await signature(PAGE, { method: 'POST', headers: { origin: BASE } });
    expect(post.status).toBe(404);
  });

  it('40 at once from one address: 30 signed (LIMIT_SHARE_SIGNATURES_PER_IP_MIN set to 30), the rest 429 with Retry-After', async () => {
    const env: AppEnv = { ...testEnv, ...TIGHT_PER_ADDRESS, REF_WX_APP_ID: APP_ID };
    const ip = '203.0.113.77';
    const replies = await Promise.all(Array.from({ length: 40 }, () => signature(PAGE, { env, headers: { 'cf-connecting-ip': ip } })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const refused = replies.find((r) => r.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused?.json()) as SignatureReply).code).toBe(600);
  });
});

describe('the reference upstream\'s messaging-app calls', () => {
  const call = (path: string, env: AppEnv = wxEnv) => reference.fetch(new Request(`http://reference.invalid${path}`, { headers: { expoId: '1308' } }), env);
  const json = async (r: Response) => (await r.json()) as { code: number; msg: string; data: unknown };

  it('getwxAppId answers REF_WX_APP_ID, else 404; getOpenId is never served (no silent login)', async () => {
    expect(await json(await call('/wx/getwxAppId?expoId=1308'))).toMatchObject({ code: 200, data: APP_ID });
    expect((await json(await call('/wx/getwxAppId?expoId=1308', testEnv))).code).toBe(404);
    expect((await json(await call('/wx/getOpenId?code=c&eId=1308'))).code).toBe(404);
  });

  it('checkExpo (spec §7 "expo check with encoded expoId"): { id } for the header\'s expo, 400 for another or none', async () => {
    expect(await json(await call('/wx/checkExpo?eId=MTMwOA'))).toMatchObject({ code: 200, data: { id: 1308 } });
    expect(await json(await call('/wx/checkExpo?eId=MTMwOA%3D%3D'))).toMatchObject({ code: 200, data: { id: 1308 } });
    expect(await json(await call('/wx/checkExpo?eId=1308'))).toMatchObject({ code: 200, data: { id: 1308 } });
    for (const bad of ['MTMwOQ', '', '!!', 'YWJj']) expect((await json(await call(`/wx/checkExpo?eId=${bad}`))).code, bad).toBe(400);
  });

  it('ajaxData signs an http(s) url without a fragment; anything else is 400', async () => {
    const ok = await json(await call(`/custom/CustomerUserInfo/ajaxData?url=${encodeURIComponent(PAGE)}&userId=`));
    expect(ok.code).toBe(200);
    expect(ok.data).toMatchObject({ success: true, signature: expect.stringMatching(/^[0-9a-f]{40}$/) });
    for (const bad of ['', 'ftp://x.example/', `${PAGE}#a`, `https://x.example/${'a'.repeat(2100)}`]) {
      expect((await json(await call(`/custom/CustomerUserInfo/ajaxData?url=${encodeURIComponent(bad)}`))).code, bad).toBe(400);
    }
  });

  it('the JS-SDK signature: SHA-1 of jsapi_ticket, noncestr, timestamp, url in that order (the vendor\'s published example)', async () => {
    // The vendor's documentation example (JS-SDK appendix 1).
    expect(
      await jsSdkSignature({
        ticket: 'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
        nonceStr: 'Wm3WZYTPz0wzccnW',
        timestamp: '1414587457',
        url: 'http://mp.weixin.qq.com?params=value',
      }),
    ).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed');
  });
});

describe('senders of special expos (spec §7), through the edge into the reference\'s outbox', () => {
  const senderOf = async (to: string) =>
    (await testEnv.DB.prepare('SELECT sender FROM outbox WHERE to_contact = ? ORDER BY id DESC LIMIT 1').bind(to).first<{ sender: string | null }>())?.sender;

  it('expo 1177: a phone code goes through getSmsCodeHJC; another expo keeps getCaptcha', async () => {
    const { reply } = await sendJson({ ...page(1177, 21177, ''), checkType: '1', areaCode: '+86', phone: '13900001177' }, { env: fastEnv });
    expect(reply.code, JSON.stringify(reply)).toBe(200);
    expect(await senderOf('+8613900001177')).toBe(Path.getSmsCodeHJC);
    const other = await sendJson({ ...page(1308, 21308, 'IEAE'), checkType: '1', areaCode: '+86', phone: '13900001308' }, { env: fastEnv });
    expect(other.reply.code).toBe(200);
    expect(await senderOf('+8613900001308')).toBe(Path.getCaptcha);
  });

  it('the reference serves the three senders and records them (getSmsCodeHaiSC, getemailCodeEn2)', async () => {
    const post = (path: string, smsPhone: string) =>
      reference.fetch(
        new Request(`http://reference.invalid/custom${path}`, {
          method: 'POST',
          headers: { expoId: '1308', 'content-type': 'application/json' },
          body: JSON.stringify({ smsPhone, expoId: 1308 }),
        }),
        fastEnv,
      );
    expect(((await (await post(Path.getSmsCodeHaiSC, '+85291231380')).json()) as { code: number }).code).toBe(200);
    expect(await senderOf('+85291231380')).toBe(Path.getSmsCodeHaiSC);
    expect(((await (await post(Path.getemailCodeEn2, 'en2@senders.test')).json()) as { code: number }).code).toBe(200);
    expect(await senderOf('en2@senders.test')).toBe(Path.getemailCodeEn2);
    expect(((await (await post(Path.getSmsCodeHJC, '13900009999')).json()) as { code: number }).code).toBe(200);
    expect(((await (await post(Path.getemailCodeEn2, '+85291231380')).json()) as { code: number }).code).toBe(400);
  });
});

describe('spec §4 "If status equals 1 the user is pushed to the success URL" (guard, fake messaging app)', () => {
  function appWith(successfulUrl: string | null) {
    const a = new Hono<{ Bindings: AppEnv }>();
    const wx: WxPort = {
      appId: vi.fn(async () => null),
      silentLogin: vi.fn(async () => ({ code: 1, openId: 'o1', user: 'EU1', expo: 1308, wx: 21308 })),
    };
    a.use(
      guard({
        wx: () => wx,
        upstream: (env, req, scope) => {
          const real = requestUpstream(env, req, scope);
          return new Proxy(real, {
            get(target, prop: keyof Upstream) {
              if (prop !== 'getCustomerId') return target[prop];
              return async (k: Parameters<Upstream['getCustomerId']>[0]) => {
                const r = await target.getCustomerId(k);
                return r.ok ? { ...r, data: { ...r.data, customerWx: { ...r.data.customerWx, successfulUrl } } } : r;
              };
            },
          });
        },
      }),
    );
    a.get('*', (c) => c.text('page'));
    return (path: string) => a.request(`${BASE}${path}`, { redirect: 'manual' }, testEnv);
  }

  it('code 1 with a user and an http(s) successfulUrl: 302 there, the openid kept', async () => {
    const res = await appWith('https://organiser.example/welcome?a=1')('/21308/MTMwOA/visitor?code=c1');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://organiser.example/welcome?a=1');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('oid=o1;'))).toBe(true);
  });

  it('a successfulUrl that is not http(s): the credential page as before', async () => {
    for (const bad of ['javascript:alert(1)', '//evil.example/', null]) {
      const res = await appWith(bad)('/21308/MTMwOA/visitor?code=c1');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(/^\/IEAESuccess\//);
    }
  });
});
