/**
 * The gate's pages outside Astro (README "The gate"):
 *
 * - `GET /gate/{eid}?key=KEY`, the staff link: a valid, unexpired, unrevoked key of that expo sets
 *   the expo's gate cookie (`gate_{expoId}`: HttpOnly, SameSite=Lax, Secure on https, Max-Age
 *   until the key ends) and answers 303 to `/gate/{eid}`, so the key leaves the address bar (and
 *   `Referrer-Policy: no-referrer`, `Cache-Control: no-store`).
 * - `GET /gate/{eid}/scans.csv`: every scan of the expo (checkInLog, every page up to
 *   SCAN_CSV_CAP rows), as CSV for a spreadsheet (src/lib/gate/report.ts), each code masked
 *   (`PF4R…HR`) unless the operator sets `GATE_CSV_CODES=full` (docs/gate.md; issue 30: the
 *   export is open to every 24-hour staff link, and a full code is a ticket).
 *
 * Anything else, and either of these without a valid key, goes on to the pages, where a gate
 * route without a valid key is the site's not-found page (src/lib/screens/gate.ts): a key of
 * another expo, a revoked and an expired key open nothing, exactly like no key.
 */
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from './env';
import { staffFor, staffFromCookies } from './staff/keys';
import { isUpstreamError, upstreamFor } from './upstream';
import { createT } from '../src/i18n';
import { gateCookieMaxAge, gateCookieName } from '../src/lib/gate/keys';
import { csvCodes, csvDocument, expoToday, SCAN_CSV_HEADER, scanRow, scansFileName } from '../src/lib/gate/report';
import { faultOfError, faultReason } from '../src/lib/gate/fault';
import { LANG_COOKIE, resolveLang } from '../src/lib/core/languages';
import { decodeNumericId, encodeId } from '../src/lib/util/ids';

/** The most scans one export holds (50 pages of the contract's largest). */
export const SCAN_CSV_CAP = 50_000;
const LOG_PAGE = 1000;

export const gatePages = new Hono<{ Bindings: AppEnv }>();

gatePages.get('/gate/:eid', async function staffLink(c, next) {
  const key = c.req.query('key');
  const expoId = decodeNumericId(c.req.param('eid'));
  if (key === undefined || expoId === null) return next();
  const now = Date.now();
  const staff = await staffFor(c.env.STAFF, key, expoId, now);
  if (!staff) return next();
  setCookie(c, gateCookieName(expoId), key.trim(), {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: gateCookieMaxAge(staff, now),
  });
  c.header('referrer-policy', 'no-referrer');
  c.header('cache-control', 'no-store');
  return c.redirect(`/gate/${encodeId(expoId)}`, 303);
});

gatePages.get('/gate/:eid/scans.csv', async function scansCsv(c, next) {
  const expoId = decodeNumericId(c.req.param('eid'));
  const staff = expoId === null ? null : await staffFromCookies(c.env.STAFF, getCookie(c), expoId);
  if (!staff || expoId === null) return next();
  const t = createT(resolveLang(getCookie(c, LANG_COOKIE)));
  const up = upstreamFor(c.env);
  const codes = csvCodes(c.env.GATE_CSV_CODES);
  const rows: (string | number | null)[][] = [];
  for (let page = 1; rows.length < SCAN_CSV_CAP; page++) {
    const r = await up.checkInLog({ expoId, page, pageSize: LOG_PAGE }).catch((e: unknown) => {
      if (!isUpstreamError(e)) throw e;
      return { ok: false as const, fault: faultOfError(e) };
    });
    if (!r.ok) {
      if (page > 1) break;
      const head = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' };
      if ('fault' in r) {
        const reason = faultReason(r.fault);
        return c.text(t(reason.key, reason.vars), 502, head);
      }
      return c.text(r.code === 404 ? t('gate.unsupported') : r.msg?.trim() || t('error.relatedData'), r.code === 404 ? 501 : 502, head);
    }
    for (const s of r.data.list) rows.push(scanRow(s, codes));
    const total = r.data.total;
    if (r.data.list.length === 0 || (total !== null ? rows.length >= total : r.data.list.length < LOG_PAGE)) break;
  }
  const body = csvDocument(SCAN_CSV_HEADER, rows.slice(0, SCAN_CSV_CAP));
  return c.body(body, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${scansFileName(expoId, expoToday(expoId, Date.now()))}"`,
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex',
    'referrer-policy': 'no-referrer',
  });
});
