/**
 * Open redirects, as properties: 10,000 generated `back` values and Referer headers posted
 * without JavaScript (form posts, no JSON Accept) to /api/lang, /api/send-code and /api/lookup,
 * and generated page paths through the navigation guard (createApp(), functions/app.ts).
 *
 * The rule for every Location: a path on this site, i.e. one `/` followed by neither `/` nor
 * `\` (`//evil.com` and `/\evil.com` are other sites to a browser). Inputs: `//`, `/\`, `\\`,
 * `/.//`, `%2f%2f`, tabs and newlines, `https://expo.example//evil.com`, other origins,
 * unicode look-alikes, NUL, long values.
 */
import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { createApp } from '../../functions/app';
import type { AppEnv } from '../../functions/env';
import { FAKE_BASE, installFakeUpstream } from './fake-upstream';
import {
  ORIGIN,
  backValue,
  fuzz,
  fuzzFile,
  nastyChar,
  rarely,
  replyViolations,
  type Violation,
} from './fuzz.helpers';

const app = createApp();
const testEnv = env as unknown as AppEnv;
// 10,000 back values and Referers, plus the guard's paths
const newFindings = fuzzFile('fuzz-redirect', 11_000);

/** A header value a client can send: no CR, LF or NUL; anything outside ASCII percent-encoded, as browsers send a Referer. */
function headerSafe(s: string): string {
  return [...s]
    .map((ch) =>
      /[\r\n\0]/.test(ch) ? '' : ch.charCodeAt(0) > 0x7e ? encodeURIComponent(ch.isWellFormed() ? ch : '\uFFFD') : ch,
    )
    .join('');
}

/** A Referer: the site's page, a tricky path on the site, or another site. */
const referer = fc.oneof(
  { weight: 2, arbitrary: fc.constant(`${ORIGIN}/IEAESearch/21308/MTMwOA/visitor`) },
  {
    weight: 3,
    arbitrary: backValue.map((b) =>
      headerSafe(/^[a-z]+:/i.test(b) ? b : `${ORIGIN}${b.startsWith('/') ? '' : '/'}${b}`),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('https://evil.example/x', `${ORIGIN}//evil.com/x`, `${ORIGIN}/.//evil.com`, 'null', ''),
  },
);

const PAGES = [
  { expoId: '1308', urlId: '21308', ty: 'visitor', variant: 'IEAE', f: '' },
  { expoId: '2001', urlId: '22001', ty: 'visitor', variant: '', f: '' },
  { expoId: '1108', urlId: '21108', ty: 'visitor', variant: 'Indonesian', f: '' },
] as const;

describe('fuzz: redirect targets of no-JS posts', () => {
  it('every Location of /api/lang, /api/send-code and /api/lookup is a same-site path (10,000 back values and Referers)', async () => {
    const findings = newFindings();
    const arb = fc.record({
      path: fc.constantFrom('/api/lang', '/api/lang', '/api/send-code', '/api/lookup'),
      back: fc.oneof({ weight: 9, arbitrary: backValue }, { weight: 1, arbitrary: fc.constant(null) }),
      referer: rarely(referer, 2),
      page: fc.constantFrom(...PAGES),
      // mostly a value the form refuses (no upstream call): the back path is what is under test
      contact: fc.oneof(
        {
          weight: 40,
          arbitrary: fc.constantFrom(
            { checkType: '2', email: '' },
            { checkType: '2', email: 'not-an-email' },
            { checkType: '1', areaCode: '+66', phone: '' },
          ),
        },
        { weight: 1, arbitrary: fc.constant({ checkType: '2', email: 'one@demo.test', code: '123456' }) },
      ),
      lang: fc.constantFrom('en', 'zh', 'ms'),
      multipart: fc.boolean(),
    });
    await fuzz(findings, arb, 10_000, async (g) => {
      const fields: Record<string, string> = g.path === '/api/lang' ? { lang: g.lang } : { ...g.page, ...g.contact };
      if (g.back !== null) fields['back'] = g.back;
      const headers: Record<string, string> = {};
      if (g.referer !== null) headers['referer'] = g.referer;
      let body: BodyInit;
      if (g.multipart) {
        const fd = new FormData();
        for (const [k, v] of Object.entries(fields)) fd.append(k, v);
        body = fd;
      } else {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(fields);
      }
      return app.request(`${ORIGIN}${g.path}`, { method: 'POST', headers, body, redirect: 'manual' }, testEnv);
    });
    findings.expectNone('redirect (no-JS posts)');
  }, 120_000);
});

// ---- The navigation guard ----

/** Page paths that start like another site (`//`, `/\`, `\\` …) with a query naming an expo and a login code. */
const guardPath = fc
  .record({
    prefix: fc.constantFrom(
      '//',
      '/\\',
      '\\\\',
      '\\/',
      '///',
      '/%2F%2F',
      '/%2f/',
      '/.//',
      '/..//',
      '/%5C',
      '/\t/',
      '/\n/',
      '/',
      '/search/22001/MjAwMQ/',
    ),
    host: fc.constantFrom('evil.com', 'evil.example', 'ｅｖｉｌ.com', '127.0.0.1', 'search', '20380'),
    tail: fc.constantFrom('', '/x', '/Mzgw/visitor', '/MTMwOA/exhibitor', '/a/b/c'),
    junk: fc.string({ unit: nastyChar, maxLength: 4 }),
    eid: fc.constantFrom('1308', '380', '1042', '1216', '2001', 'MTMwOA', '', 'x'),
    code: fc.constantFrom('1', 'abc', '', null),
    state: fc.constantFrom('STATE', null),
    more: fc.constantFrom('', '&f=1', '&ty=exhibitor', '&eid=380'),
  })
  .map((p) => {
    const q = new URLSearchParams();
    if (p.eid) q.set('eid', p.eid);
    if (p.code !== null) q.set('code', p.code);
    if (p.state !== null) q.set('state', p.state);
    return `${p.prefix}${p.host}${p.tail}${p.junk.replace(/[?#]/g, '')}?${q.toString()}${p.more}`;
  });

/** What the fake messaging-app login answers (spec §4 silent login). */
const OPEN_IDS = [
  { openId: null },
  { openId: 'o-fake' },
  { code: 1, openId: 'o-fake', user: 'EUCODE', expo: 1308, wx: 21308 },
  null,
] as const;

describe('fuzz: the navigation guard', () => {
  it('no page path yields a Location that starts with // or /\\ (reference upstream, and an organiser API with messaging-app login)', async () => {
    const findings = newFindings();
    const arb = fc.record({
      path: guardPath,
      organiser: fc.boolean(),
      openId: fc.constantFrom(...OPEN_IDS),
      fault: fc.constantFrom('ok', 'ok', 'network', 'http-500'),
      wechat: fc.boolean(),
      cookie: fc.constantFrom('', 'oid=o-1', 'wxfail=1'),
    });
    await fuzz(findings, arb, 1_200, async (g) => {
      const url = `${ORIGIN}${g.path}`;
      if (!URL.canParse(url)) return [];
      const e: AppEnv = g.organiser ? { ...testEnv, UPSTREAM_URL: FAKE_BASE, UPSTREAM_TIMEOUT_MS: '300' } : testEnv;
      const fake = g.organiser
        ? installFakeUpstream({
            openId: g.openId,
            fault: () => (g.fault === 'ok' ? 'ok' : g.fault === 'network' ? 'network' : 'http-500'),
          })
        : null;
      try {
        const headers: Record<string, string> = {};
        if (g.wechat)
          headers['user-agent'] = 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36 MicroMessenger/8.0.47';
        if (g.cookie) headers['cookie'] = g.cookie;
        const res = await app.request(url, { headers, redirect: 'manual' }, e);
        findings.status(res.status);
        const location = res.headers.get('location');
        const out: Violation[] = (await replyViolations(res)).filter(
          (v) => v.rule !== 'Location is not a same-site path',
        );
        // The guard may send to the messaging app's OAuth page (an absolute https URL); never to `//host` or `/\host`.
        if (location !== null && /^[/\\]{2}|^\/\\|^\\/.test(location))
          out.push({ rule: 'guard Location starts with // or /\\', detail: `${res.status} Location: ${location}` });
        if (
          location !== null &&
          !/^\/(?![/\\])/.test(location) &&
          !location.startsWith('https://open.weixin.qq.com/')
        ) {
          out.push({
            rule: 'guard Location is neither a same-site path nor the OAuth page',
            detail: `${res.status} Location: ${location}`,
          });
        }
        return out;
      } finally {
        fake?.restore();
      }
    });
    findings.expectNone('guard');
  }, 120_000);
});
